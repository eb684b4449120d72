"use client";

import { useQuery } from "@tanstack/react-query";
import { StatusBar, StatusLegend } from "@/components/status-bar";
import type { Overview } from "@/lib/ledger/overview";
import { INTENT_STATUSES, STATUS_LABELS } from "@/lib/ledger/statuses";

async function fetchOverview(): Promise<Overview> {
  const response = await fetch("/api/overview", { cache: "no-store" });
  if (!response.ok) throw new Error(`Overview failed with ${response.status}`);
  return (await response.json()) as Overview;
}

const number = new Intl.NumberFormat("en");

export function OverviewFigures({ initial }: { initial: Overview }) {
  const { data, isFetching, isError } = useQuery({
    queryKey: ["overview"],
    queryFn: fetchOverview,
    initialData: initial,
    refetchInterval: 15_000,
  });

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
              {number.format(data.totals[s])}
            </div>
          </div>
        ))}
      </section>

      <section aria-labelledby="by-tenant" className="rounded border border-slate-200 bg-white p-4">
        <div className="mb-3 flex items-center gap-3">
          <h2 id="by-tenant" className="text-lg font-semibold">
            By tenant
          </h2>
          <span className="text-xs text-slate-600" aria-live="polite">
            {isError
              ? "Live refresh failed; showing the last figures"
              : isFetching
                ? "Refreshing…"
                : `Updated ${new Date(data.generatedAt).toLocaleTimeString()}`}
          </span>
          <div className="ml-auto">
            <StatusLegend />
          </div>
        </div>
        <div className="space-y-2">
          {data.tenants.map((t) => (
            <div key={t.tenantId} className="grid grid-cols-[12rem_1fr] items-center gap-3">
              <span className="truncate text-sm">{t.tenantName}</span>
              <StatusBar label={t.tenantName} counts={t.byStatus} />
            </div>
          ))}
        </div>
        <table className="mt-4 w-full text-right text-sm">
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
                    className={`py-1 tabular-nums ${s === "unknown" && t.byStatus[s] > 0 ? "font-semibold text-red-700" : ""}`}
                  >
                    {number.format(t.byStatus[s])}
                  </td>
                ))}
                <td className="py-1 tabular-nums">{number.format(t.needsOperator)}</td>
                <td className="py-1 tabular-nums font-medium">{number.format(t.total)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  );
}
