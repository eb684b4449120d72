import { Counter, Gauge, Registry } from "prom-client";
import type { PrismaClient } from "@/prisma/generated/client";
import { INTENT_STATUSES, type IntentStatus } from "@/lib/ledger/statuses";
import {
  QUEUE_STATES,
  reconcilerMetrics,
  SETTLED_BY,
  type ReconcilerMetrics,
} from "@/lib/reconciler-metrics";

export const AGE_BUCKETS = [
  { id: "lt_1h", label: "< 1 h", maxMs: 3_600_000 },
  { id: "1h_24h", label: "1–24 h", maxMs: 86_400_000 },
  { id: "1d_7d", label: "1–7 d", maxMs: 7 * 86_400_000 },
  { id: "gt_7d", label: "> 7 d", maxMs: Infinity },
] as const;

export type Metrics = {
  byTenantStatus: { tenantId: string; status: IntentStatus; count: number }[];
  totals: Record<IntentStatus, number>;
  /** Unknown intents settled automatically and by people, how fast, and the reconciler's queue. */
  reconciliation: ReconcilerMetrics;
  unknownByAge: Record<(typeof AGE_BUCKETS)[number]["id"], number>;
  unknownOverResponseWindow: number;
  lookups: { method: string; outcome: string; count: number }[];
  reconciliationByMethod: { method: string; total: number; conclusive: number; rate: number }[];
  keyConflicts: number;
  resolutions: { kind: string; status: string; count: number }[];
  compensations: number;
  confirmedCharges: number;
  compensationRate: number;
  generatedAt: string;
};

const CONCLUSIVE = new Set(["found_matching", "absent"]);

/** The SPEC's operational figures, straight from the ledger. */
export async function ledgerMetrics(db: PrismaClient, now = new Date()): Promise<Metrics> {
  const [
    byTenantStatus,
    unknowns,
    providers,
    lookups,
    keyConflicts,
    resolutions,
    compensations,
    confirmedCharges,
    reconciliation,
  ] = await Promise.all([
    db.effectIntent.groupBy({ by: ["tenantId", "status"], _count: { _all: true } }),
    db.effectIntent.findMany({
      where: { status: "unknown" },
      select: { createdAt: true, lastAttemptAt: true, providerId: true },
    }),
    db.providerProfile.findMany({ select: { id: true, responseWindowSeconds: true } }),
    db.lookup.groupBy({ by: ["method", "outcome"], _count: { _all: true } }),
    db.keyConflict.count(),
    db.resolution.groupBy({ by: ["kind", "status"], _count: { _all: true } }),
    db.effectIntent.count({ where: { compensatesId: { not: null } } }),
    db.effectIntent.count({
      where: { operation: "charge", status: { in: ["confirmed", "compensating", "compensated"] } },
    }),
    reconcilerMetrics(db, now),
  ]);
  const totals = Object.fromEntries(INTENT_STATUSES.map((s) => [s, 0])) as Record<IntentStatus, number>;
  for (const g of byTenantStatus) totals[g.status] += g._count._all;
  const windows = new Map(providers.map((p) => [p.id, p.responseWindowSeconds * 1000]));
  const unknownByAge = Object.fromEntries(AGE_BUCKETS.map((b) => [b.id, 0])) as Metrics["unknownByAge"];
  let over = 0;
  for (const u of unknowns) {
    const age = now.getTime() - (u.lastAttemptAt ?? u.createdAt).getTime();
    unknownByAge[AGE_BUCKETS.find((b) => age < b.maxMs)!.id] += 1;
    if (age > (windows.get(u.providerId) ?? 0)) over += 1;
  }
  const methods = new Map<string, { total: number; conclusive: number }>();
  for (const l of lookups) {
    const m = methods.get(l.method) ?? { total: 0, conclusive: 0 };
    m.total += l._count._all;
    if (CONCLUSIVE.has(l.outcome)) m.conclusive += l._count._all;
    methods.set(l.method, m);
  }
  return {
    byTenantStatus: byTenantStatus.map((g) => ({
      tenantId: g.tenantId,
      status: g.status,
      count: g._count._all,
    })),
    totals,
    reconciliation,
    unknownByAge,
    unknownOverResponseWindow: over,
    lookups: lookups.map((l) => ({ method: l.method, outcome: l.outcome, count: l._count._all })),
    reconciliationByMethod: [...methods].map(([method, m]) => ({
      method,
      ...m,
      rate: m.total ? m.conclusive / m.total : 0,
    })),
    keyConflicts,
    resolutions: resolutions.map((r) => ({ kind: r.kind, status: r.status, count: r._count._all })),
    compensations,
    confirmedCharges,
    compensationRate: confirmedCharges ? compensations / confirmedCharges : 0,
    generatedAt: now.toISOString(),
  };
}

/**
 * The same figures for Prometheus, through prom-client (a registry of its own per
 * scrape, filled from one reading of the ledger). Counters count only what the ledger
 * never takes back — lookups run, key-reuse conflicts refused, resolutions proposed and
 * applied, compensations started, unknown intents settled (settled_at and settled_by are
 * written once) — so a counter never goes down; everything that can move both ways
 * (intents per status, unknowns by age, time to resolution, the reconciler's queue) is a gauge.
 */
export async function prometheusText(m: Metrics): Promise<string> {
  const registry = new Registry();
  const gauge = (name: string, help: string, labelNames: string[] = []) =>
    new Gauge({ name, help, labelNames, registers: [registry] });
  const counter = (name: string, help: string, labelNames: string[] = []) =>
    new Counter({ name, help, labelNames, registers: [registry] });

  const intents = gauge("reckon_intents", "Effect intents by tenant and status.", ["tenant", "status"]);
  for (const r of m.byTenantStatus) intents.set({ tenant: r.tenantId, status: r.status }, r.count);
  const byAge = gauge("reckon_unknown_intents_by_age", "Unknown intents by time since their last attempt.", [
    "age",
  ]);
  for (const b of AGE_BUCKETS) byAge.set({ age: b.id }, m.unknownByAge[b.id]);
  gauge(
    "reckon_unknown_over_response_window",
    "Unknown intents older than their provider's normal response window.",
  ).set(m.unknownOverResponseWindow);
  const reconciled = counter(
    "reckon_reconciled_total",
    "Unknown intents settled, by who settled them: the reconciler (automatic) or a person.",
    ["by"],
  );
  for (const by of SETTLED_BY) reconciled.inc({ by }, m.reconciliation.settled[by]);
  const ttr = gauge(
    "reckon_time_to_resolution_seconds",
    "Seconds from unknown to settled (p50 and p95), per provider and by who settled it.",
    ["provider", "by", "quantile"],
  );
  for (const t of m.reconciliation.timeToResolution) {
    if (t.providerId === null) continue; // the all-provider figures are for the page; quantiles do not add up
    ttr.set({ provider: t.providerId, by: t.by, quantile: "0.5" }, t.p50Seconds);
    ttr.set({ provider: t.providerId, by: t.by, quantile: "0.95" }, t.p95Seconds);
  }
  const queue = gauge("reckon_reconciler_queue", "Intents in the reconciler's queue, by state.", ["state"]);
  for (const state of QUEUE_STATES) queue.set({ state }, m.reconciliation.queue.byState[state]);
  const lookups = counter("reckon_lookups_total", "Provider lookups by method and outcome.", [
    "method",
    "outcome",
  ]);
  for (const l of m.lookups) lookups.inc({ method: l.method, outcome: l.outcome }, l.count);
  counter("reckon_key_conflicts_total", "Intent keys reused with a different request (refused).").inc(
    m.keyConflicts,
  );
  const proposed = counter("reckon_resolutions_total", "Resolutions proposed, by kind.", ["kind"]);
  const byStatus = gauge("reckon_resolutions", "Resolutions by kind and their status now.", [
    "kind",
    "status",
  ]);
  const perKind = new Map<string, number>();
  for (const r of m.resolutions) {
    byStatus.set({ kind: r.kind, status: r.status }, r.count);
    perKind.set(r.kind, (perKind.get(r.kind) ?? 0) + r.count);
  }
  for (const [kind, count] of perKind) proposed.inc({ kind }, count);
  counter("reckon_compensations_total", "Compensating intents started.").inc(m.compensations);
  gauge("reckon_compensation_ratio", "Compensations per confirmed charge.").set(
    Number(m.compensationRate.toFixed(6)),
  );
  return registry.metrics();
}

export const PROMETHEUS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;
