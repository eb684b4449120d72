import type { Metadata } from "next";
import Link from "next/link";
import { auditFiltersQuery, auditPage, parseAuditFilters } from "@/lib/audit/query";
import { requirePageRole } from "@/lib/auth/session";
import { intentPath } from "@/lib/format";
import { db } from "@/lib/db";
import { screenRoles } from "@/lib/nav";
import { ActorName } from "@/components/actor-name";
import { QueryProblems } from "@/components/query-problems";
import { Time } from "@/components/time";
import { VerifyButton } from "../verify-button";

export const metadata: Metadata = { title: "Audit log" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function AuditPage({ searchParams }: Props) {
  const { values: filters, problems } = parseAuditFilters(await searchParams);
  await requirePageRole(screenRoles("/audit"), `/audit?${auditFiltersQuery(filters, true)}`);
  const { rows, nextBefore } = await auditPage(db, filters);
  const intentIds = [
    ...new Set(rows.filter((r) => r.targetType === "intent" && r.targetId).map((r) => r.targetId!)),
  ];
  const [intentRows, machines] = await Promise.all([
    db.effectIntent.findMany({
      where: { id: { in: intentIds } },
      select: { id: true, tenantId: true, intentKey: true },
    }),
    // Machine actors (the reconciler), shown as automatic beside their email.
    db.user.findMany({ where: { system: true }, select: { id: true, name: true } }),
  ]);
  const intents = new Map(intentRows.map((i) => [i.id, i]));
  const systemActors = new Map(machines.map((m) => [m.id, m.name]));
  const query = auditFiltersQuery(filters);
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end gap-3">
        <div>
          <h1 className="text-2xl font-semibold">Audit log</h1>
          <p className="text-sm text-slate-600">Every action, append-only and hash-chained. Read-only.</p>
        </div>
        <div className="ml-auto flex flex-wrap items-center gap-2 text-sm">
          <VerifyButton />
          <a
            className="rounded border border-slate-300 px-3 py-1.5"
            href={`/api/audit/export?format=csv&${query}`}
            download
          >
            Export CSV
          </a>
          <a
            className="rounded border border-slate-300 px-3 py-1.5"
            href={`/api/audit/export?format=jsonl&${query}`}
            download
          >
            Export JSON Lines
          </a>
          <a className="rounded border border-slate-300 px-3 py-1.5" href="/api/audit/checkpoint" download>
            Download checkpoint
          </a>
        </div>
      </div>
      <QueryProblems problems={problems} />
      <form
        method="get"
        action="/audit"
        aria-label="Audit filters"
        className="flex flex-wrap items-end gap-3 rounded border border-slate-200 bg-white p-3 text-sm"
      >
        {(
          [
            ["actor", "Actor email", "operator@demo.test"],
            ["action", "Action (prefix)", "resolution."],
            ["tenant", "Tenant", "acme-shop"],
            ["intent", "Intent key or id", ""],
            ["q", "Text in reason", ""],
          ] as const
        ).map(([name, label, placeholder]) => (
          <label key={name} className="flex flex-col">
            <span className="text-xs text-slate-600">{label}</span>
            <input
              name={name}
              defaultValue={filters[name] ?? ""}
              placeholder={placeholder}
              className="rounded border border-slate-300 px-2 py-1"
            />
          </label>
        ))}
        <label className="flex flex-col">
          <span className="text-xs text-slate-600">From</span>
          <input
            type="date"
            name="from"
            defaultValue={filters.from ?? ""}
            className="rounded border border-slate-300 px-2 py-1"
          />
        </label>
        <label className="flex flex-col">
          <span className="text-xs text-slate-600">To</span>
          <input
            type="date"
            name="to"
            defaultValue={filters.to ?? ""}
            className="rounded border border-slate-300 px-2 py-1"
          />
        </label>
        <button type="submit" className="rounded bg-slate-900 px-3 py-1.5 font-medium text-white">
          Filter
        </button>
        <Link href="/audit" className="py-1.5 underline">
          Reset
        </Link>
      </form>
      <table
        className="responsive-table w-full rounded border border-slate-200 bg-white text-sm"
        aria-label="Audit events"
      >
        <thead>
          <tr className="border-b border-slate-200 text-left text-xs text-slate-600">
            <th scope="col" className="p-2">
              #
            </th>
            <th scope="col" className="p-2">
              When
            </th>
            <th scope="col" className="p-2">
              Actor
            </th>
            <th scope="col" className="p-2">
              Action
            </th>
            <th scope="col" className="p-2">
              Target
            </th>
            <th scope="col" className="p-2">
              Status
            </th>
            <th scope="col" className="p-2">
              Reason
            </th>
            <th scope="col" className="p-2">
              Evidence
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && (
            <tr>
              <td colSpan={8} className="p-6 text-center text-slate-600">
                No events under this filter.
              </td>
            </tr>
          )}
          {rows.map((e) => {
            const intent = e.targetType === "intent" && e.targetId ? intents.get(e.targetId) : undefined;
            const resolutionId = (e.details as { resolutionId?: string } | null)?.resolutionId;
            return (
              <tr key={String(e.seq)} className="border-b border-slate-100 align-top">
                <td data-label="#" className="p-2 tabular-nums text-slate-600">
                  {String(e.seq)}
                </td>
                <td data-label="When" className="p-2 whitespace-nowrap">
                  <Time value={e.occurredAt} precision="second" />
                </td>
                <td data-label="Actor" className="p-2">
                  {e.actorId && systemActors.has(e.actorId) ? (
                    <>
                      <ActorName name={systemActors.get(e.actorId)} system />
                      <div className="text-xs text-slate-600">{e.actorEmail}</div>
                    </>
                  ) : (
                    (e.actorEmail ?? "system")
                  )}
                  {e.actorRoles.length > 0 && (
                    <div className="text-xs text-slate-600">{e.actorRoles.join(", ")}</div>
                  )}
                </td>
                <td data-label="Action" className="p-2 font-mono text-xs">
                  {e.action}
                </td>
                <td data-label="Target" className="p-2 text-xs">
                  {intent ? (
                    <Link className="font-mono text-blue-800 underline" href={intentPath(intent)}>
                      {intent.intentKey}
                    </Link>
                  ) : (
                    `${e.targetType ?? ""} ${e.targetId ?? ""}`
                  )}
                  {e.tenantId && <div className="text-slate-600">{e.tenantId}</div>}
                </td>
                <td data-label="Status" className="p-2 text-xs">
                  {e.beforeStatus && e.afterStatus
                    ? e.beforeStatus === e.afterStatus
                      ? e.afterStatus
                      : `${e.beforeStatus} → ${e.afterStatus}`
                    : ""}
                </td>
                <td data-label="Reason" className="p-2 text-xs">
                  {e.reason}
                </td>
                <td data-label="Evidence" className="p-2 text-xs break-all">
                  {e.evidenceRef}
                  {resolutionId && (
                    <div>
                      <Link className="text-blue-800 underline" href={`/audit/resolutions/${resolutionId}`}>
                        Full story
                      </Link>
                    </div>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <nav aria-label="Pages" className="flex gap-3 text-sm">
        {filters.before && (
          <Link href={`/audit?${query}`} className="underline">
            ← Newest
          </Link>
        )}
        {nextBefore && (
          <Link href={`/audit?${query}${query ? "&" : ""}before=${nextBefore}`} className="underline">
            Older →
          </Link>
        )}
      </nav>
    </div>
  );
}
