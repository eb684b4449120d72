import type { Metadata } from "next";
import { requirePageRole } from "@/lib/auth/session";
import { db } from "@/lib/db";
import { AGE_BUCKETS, ledgerMetrics } from "@/lib/metrics";
import { screenRoles } from "@/lib/nav";
import { ReconciliationSection } from "./reconciliation-section";
import { ReconcilerQueue } from "./reconciler-queue";

export const metadata: Metadata = { title: "Metrics" };

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
const n = (x: number) => x.toLocaleString("en");

export default async function MetricsPage() {
  await requirePageRole(screenRoles("/metrics"), "/metrics");
  const m = await ledgerMetrics(db);
  const ageMax = Math.max(1, ...Object.values(m.unknownByAge));
  const cards: [string, string][] = [
    ["Prepared", n(m.totals.prepared)],
    ["Confirmed", n(m.totals.confirmed)],
    ["Unknown", n(m.totals.unknown)],
    ["Reconciled automatically", n(m.reconciliation.settled.reconciler)],
    ["Reconciled by people", n(m.reconciliation.settled.person)],
    ["Compensated", n(m.totals.compensated)],
    ["Unknown past response window", n(m.unknownOverResponseWindow)],
    ["Duplicate-prevention conflicts", n(m.keyConflicts)],
    ["Compensation rate", pct(m.compensationRate)],
  ];
  return (
    <div className="space-y-5">
      <div>
        <h1 className="text-2xl font-semibold">Metrics</h1>
        <p className="text-sm text-slate-600">
          The ledger&apos;s health at a glance. Also served to Prometheus at <code>/api/metrics</code> (bearer{" "}
          <code>METRICS_TOKEN</code>).
        </p>
      </div>
      <section aria-label="Key figures" className="grid grid-cols-2 gap-3 md:grid-cols-4">
        {cards.map(([label, value]) => (
          <div key={label} className="rounded border border-slate-200 bg-white p-3">
            <div className="text-xs text-slate-600">{label}</div>
            <div className="text-2xl font-semibold" aria-label={label}>
              {value}
            </div>
          </div>
        ))}
      </section>
      <div className="grid gap-5 lg:grid-cols-2">
        <section aria-labelledby="age" className="rounded border border-slate-200 bg-white p-4">
          <h2 id="age" className="mb-3 font-semibold">
            Unknown intents by age
          </h2>
          <div
            role="img"
            aria-label={`Unknown intents by age: ${AGE_BUCKETS.map((b) => `${b.label} ${m.unknownByAge[b.id]}`).join(", ")}`}
            className="space-y-2"
          >
            {AGE_BUCKETS.map((b) => (
              <div key={b.id} className="grid grid-cols-[4rem_1fr_3rem] items-center gap-2 text-sm">
                <span>{b.label}</span>
                <div className="h-4 rounded bg-slate-100">
                  <div
                    className="h-4 rounded bg-status-unknown"
                    style={{ width: `${(m.unknownByAge[b.id] / ageMax) * 100}%` }}
                  />
                </div>
                <span className="text-right tabular-nums">{m.unknownByAge[b.id]}</span>
              </div>
            ))}
          </div>
        </section>
        <section aria-labelledby="by-method" className="rounded border border-slate-200 bg-white p-4">
          <h2 id="by-method" className="mb-3 font-semibold">
            Reconciliation success by lookup method
          </h2>
          <table
            className="responsive-table w-full text-sm"
            aria-label="Reconciliation success by lookup method"
          >
            <thead>
              <tr className="text-left text-xs text-slate-600">
                <th scope="col" className="py-1">
                  Method
                </th>
                <th scope="col" className="text-right">
                  Lookups
                </th>
                <th scope="col" className="text-right">
                  Conclusive
                </th>
                <th scope="col" className="text-right">
                  Success
                </th>
              </tr>
            </thead>
            <tbody>
              {m.reconciliationByMethod.length === 0 && (
                <tr>
                  <td colSpan={4} className="py-2 text-slate-600">
                    No lookups yet.
                  </td>
                </tr>
              )}
              {m.reconciliationByMethod.map((r) => (
                <tr key={r.method} className="border-t border-slate-100">
                  <td data-label="Method" className="py-1 font-medium">
                    {r.method.replace(/_/g, " ")}
                  </td>
                  <td data-label="Lookups" className="text-right tabular-nums">
                    {n(r.total)}
                  </td>
                  <td data-label="Conclusive" className="text-right tabular-nums">
                    {n(r.conclusive)}
                  </td>
                  <td data-label="Success" className="text-right tabular-nums">
                    {pct(r.rate)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="mt-2 text-xs text-slate-600">Conclusive: found matching or authoritatively absent.</p>
        </section>
        <ReconciliationSection r={m.reconciliation} />
        <ReconcilerQueue queue={m.reconciliation.queue} />
      </div>
    </div>
  );
}
