"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { StatusBar, StatusLegend } from "@/components/status-bar";
import { Time } from "@/components/time";
import type { Overview } from "@/lib/ledger/overview";
import { INTENT_STATUSES, STATUS_LABELS, type IntentStatus } from "@/lib/ledger/statuses";

async function fetchOverview(): Promise<Overview> {
  const response = await fetch("/api/overview", { cache: "no-store" });
  if (!response.ok) throw new Error(`Overview failed with ${response.status}`);
  return (await response.json()) as Overview;
}

const number = new Intl.NumberFormat("en");

/**
 * Where a figure leads. Only unknown intents (and those flagged for an operator) have a
 * list of their own — the inbox, which filters by tenant; the other statuses have none,
 * so their figures stay plain numbers.
 */
function inboxHref(status: IntentStatus | "needsOperator", tenant?: string): string | null {
  if (status !== "unknown" && status !== "needsOperator") return null;
  const q = new URLSearchParams();
  if (tenant) q.set("tenant", tenant);
  if (status === "needsOperator") q.set("needsOperator", "1");
  const query = q.toString();
  return query ? `/inbox?${query}` : "/inbox";
}

function Figure({
  href,
  label,
  children,
}: {
  href: string | null;
  label: string;
  children: React.ReactNode;
}) {
  if (!href) return <>{children}</>;
  return (
    <Link
      href={href}
      aria-label={label}
      className="underline decoration-1 underline-offset-2 hover:text-blue-800"
    >
      {children}
    </Link>
  );
}

export function OverviewFigures({ initial, inboxLinks }: { initial: Overview; inboxLinks: boolean }) {
  const { data, isFetching, isError } = useQuery({
    queryKey: ["overview"],
    queryFn: fetchOverview,
    initialData: initial,
    refetchInterval: 15_000,
  });
  const href = (status: IntentStatus | "needsOperator", tenant?: string) =>
    inboxLinks ? inboxHref(status, tenant) : null;

  return (
    <>
      <section aria-labelledby="totals" className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-7">
        <h2 id="totals" className="sr-only">
          Totals
        </h2>
        {INTENT_STATUSES.map((s) => (
          <div key={s} className="rounded border border-slate-200 bg-white p-3">
            <div className="text-xs text-slate-600">{STATUS_LABELS[s]}</div>
            <div
              className={`text-2xl font-semibold ${s === "unknown" && data.totals[s] > 0 ? "text-red-700" : ""}`}
              data-testid={`total-${s}`}
            >
              <Figure
                href={href(s)}
                label={`${number.format(data.totals[s])} ${STATUS_LABELS[s]}: open the inbox`}
              >
                {number.format(data.totals[s])}
              </Figure>
            </div>
          </div>
        ))}
      </section>

      <section aria-labelledby="by-tenant" className="rounded border border-slate-200 bg-white p-4">
        <div className="mb-3 flex flex-wrap items-center gap-3">
          <h2 id="by-tenant" className="text-lg font-semibold">
            By tenant
          </h2>
          <span className="text-xs text-slate-600" aria-live="polite">
            {isError ? (
              "Live refresh failed; showing the last figures"
            ) : isFetching ? (
              "Refreshing…"
            ) : (
              <>
                Updated <Time value={data.generatedAt} precision="second" />
              </>
            )}
          </span>
          <div className="sm:ml-auto">
            <StatusLegend />
          </div>
        </div>
        <div className="space-y-2">
          {data.tenants.map((t) => (
            <div
              key={t.tenantId}
              className="grid grid-cols-[minmax(0,8rem)_1fr] items-center gap-3 sm:grid-cols-[12rem_1fr]"
            >
              <span className="truncate text-sm">{t.tenantName}</span>
              <StatusBar label={t.tenantName} counts={t.byStatus} />
            </div>
          ))}
        </div>
        <table className="responsive-table mt-4 w-full text-right text-sm">
          <caption className="sr-only">Intents per status per tenant</caption>
          <thead>
            <tr className="border-b border-slate-200 text-xs text-slate-600">
              <th scope="col" className="py-1 text-left">
                Tenant
              </th>
              {INTENT_STATUSES.map((s) => (
                <th key={s} scope="col" className="py-1">
                  {STATUS_LABELS[s]}
                </th>
              ))}
              <th scope="col" className="py-1">
                Needs operator
              </th>
              <th scope="col" className="py-1">
                Total
              </th>
            </tr>
          </thead>
          <tbody>
            {data.tenants.map((t) => (
              <tr key={t.tenantId} className="border-b border-slate-100">
                <th scope="row" className="py-1 text-left font-medium">
                  {t.tenantName} <span className="text-xs font-normal text-slate-600">{t.tenantId}</span>
                </th>
                {INTENT_STATUSES.map((s) => (
                  <td
                    key={s}
                    data-label={STATUS_LABELS[s]}
                    className={`py-1 tabular-nums ${s === "unknown" && t.byStatus[s] > 0 ? "font-semibold text-red-700" : ""}`}
                  >
                    <Figure
                      href={t.byStatus[s] > 0 ? href(s, t.tenantId) : null}
                      label={`${number.format(t.byStatus[s])} ${STATUS_LABELS[s]} at ${t.tenantName}: open the inbox`}
                    >
                      {number.format(t.byStatus[s])}
                    </Figure>
                  </td>
                ))}
                <td data-label="Needs operator" className="py-1 tabular-nums">
                  <Figure
                    href={t.needsOperator > 0 ? href("needsOperator", t.tenantId) : null}
                    label={`${number.format(t.needsOperator)} needing an operator at ${t.tenantName}: open the inbox`}
                  >
                    {number.format(t.needsOperator)}
                  </Figure>
                </td>
                <td data-label="Total" className="py-1 tabular-nums font-medium">
                  {number.format(t.total)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  );
}
