import type { PrismaClient } from "@/prisma/generated/client";

/** Who settled an unknown intent (effect_intents.settled_by). */
export const SETTLED_BY = ["reconciler", "person"] as const;
export type SettledBy = (typeof SETTLED_BY)[number];

export const QUEUE_STATES = ["active", "escalated", "settled", "dropped"] as const;

/** Time from unknown to settled, for one provider (or every provider: null) and one kind of settler. */
export type ResolutionTime = {
  providerId: string | null;
  by: SettledBy;
  count: number;
  p50Seconds: number;
  p95Seconds: number;
};

export type ReconcilerMetrics = {
  /** Unknown intents settled, by who settled them (only ever grows). */
  settled: Record<SettledBy, number>;
  /** Per provider and settler, then per settler over every provider (providerId null). */
  timeToResolution: ResolutionTime[];
  queue: {
    byState: Record<(typeof QUEUE_STATES)[number], number>;
    /** Active rows whose next look is due already (a backlog when it stays high). */
    due: number;
    /** The earliest next look of an active row. */
    nextDueAt: Date | null;
  };
};

const isSettledBy = (v: string | null): v is SettledBy => SETTLED_BY.includes(v as SettledBy);

/**
 * How unknown intents get settled: automatically by the reconciler or by people, and
 * how long each took from becoming unknown (settled_at − unknown_since). Percentiles
 * are computed in PostgreSQL (percentile_cont), over intents that have both times.
 */
export async function reconcilerMetrics(db: PrismaClient, now = new Date()): Promise<ReconcilerMetrics> {
  const [settledRows, times, states, due, next] = await Promise.all([
    db.effectIntent.groupBy({
      by: ["settledBy"],
      where: { settledAt: { not: null }, settledBy: { not: null } },
      _count: { _all: true },
    }),
    db.$queryRaw<
      { provider_id: string | null; settled_by: string; count: number; p50: number; p95: number }[]
    >`
      SELECT provider_id, settled_by, count(*)::int AS count,
             percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM settled_at - unknown_since)::float8) AS p50,
             percentile_cont(0.95) WITHIN GROUP (ORDER BY extract(epoch FROM settled_at - unknown_since)::float8) AS p95
        FROM effect_intents
       WHERE settled_at IS NOT NULL AND unknown_since IS NOT NULL AND settled_by IS NOT NULL
       GROUP BY GROUPING SETS ((provider_id, settled_by), (settled_by))
       ORDER BY provider_id NULLS LAST, settled_by`,
    db.reconciliation.groupBy({ by: ["state"], _count: { _all: true } }),
    db.reconciliation.count({ where: { state: "active", nextAt: { lte: now } } }),
    db.reconciliation.aggregate({ where: { state: "active" }, _min: { nextAt: true } }),
  ]);
  const settled: Record<SettledBy, number> = { reconciler: 0, person: 0 };
  for (const r of settledRows) if (isSettledBy(r.settledBy)) settled[r.settledBy] += r._count._all;
  const byState = Object.fromEntries(
    QUEUE_STATES.map((s) => [s, 0]),
  ) as ReconcilerMetrics["queue"]["byState"];
  for (const s of states) byState[s.state] = s._count._all;
  return {
    settled,
    timeToResolution: times
      .filter((t) => isSettledBy(t.settled_by))
      .map((t) => ({
        providerId: t.provider_id,
        by: t.settled_by as SettledBy,
        count: Number(t.count),
        p50Seconds: Number(t.p50),
        p95Seconds: Number(t.p95),
      })),
    queue: { byState, due, nextDueAt: next._min.nextAt },
  };
}
