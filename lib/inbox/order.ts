import { keyRetentionEndsAt } from "@/lib/resolution/rules";
import type { Prisma } from "@/prisma/generated/client";
import type { Cursor } from "./cursor";

export type InboxSort = "act" | "oldest";

export type OrderProvider = { id: string; supportsIdempotency: boolean; keyRetentionSeconds: number | null };

export type SortKey = { b: 0 | 1 | 2; k: number; id: string };

type Orderable = { id: string; createdAt: Date; lastAttemptAt: Date | null; provider: OrderProvider };

/**
 * A row's place in the inbox. "act" (the default) is what expires soonest first:
 * 0. the provider still remembers the key, nearest deadline first — the only rows an
 *    absent lookup can still mark rejected (a retry with the key is safe only while the
 *    provider keeps it), so hours matter here;
 * 1. providers without idempotency keys, oldest attempt first — no deadline to race;
 * 2. deadline passed, oldest first — they can only be accepted, escalated or
 *    compensated now, and waiting longer makes them no worse.
 * "oldest" is creation order, oldest first.
 */
export function sortKeyOf(row: Orderable, sort: InboxSort, asOf: Date): SortKey {
  if (sort === "oldest") return { b: 0, k: row.createdAt.getTime(), id: row.id };
  const deadline = keyRetentionEndsAt(row, row.provider);
  if (!deadline) return { b: 1, k: (row.lastAttemptAt ?? row.createdAt).getTime(), id: row.id };
  return { b: deadline > asOf ? 0 : 2, k: deadline.getTime(), id: row.id };
}

export function compareKeys(a: SortKey, c: SortKey): number {
  return a.b - c.b || a.k - c.k || (a.id < c.id ? -1 : a.id > c.id ? 1 : 0);
}

export function cursorKey(c: Cursor): SortKey {
  return { b: c.b, k: Date.parse(c.k), id: c.id };
}

/** One ordered index scan: its rows share a bucket and come in key order. */
export type Segment = {
  where: Prisma.EffectIntentWhereInput;
  orderBy: Prisma.EffectIntentOrderByWithRelationInput[];
};

const byAttempt = [{ lastAttemptAt: "asc" as const }, { id: "asc" as const }];

/** After the cursor within one segment, whose key is its `column` plus `shiftMs`. */
function after(
  column: "lastAttemptAt" | "createdAt",
  c: Cursor,
  shiftMs: number,
): Prisma.EffectIntentWhereInput {
  const at = new Date(Date.parse(c.k) - shiftMs);
  return { OR: [{ [column]: { gt: at } }, { [column]: at, id: { gt: c.id } }] };
}

/**
 * The scans whose merge is the inbox's order, each an ordered range of one index.
 * By deadline: a provider's deadline is its intents' last attempt plus one constant,
 * so (status, provider_id, last_attempt_at, id) walks them in deadline order — one
 * scan per provider and bucket, split at `asOf`, and the page merges them. Unknown
 * and dispatched intents always have a last attempt (every dispatch records one).
 * A segment wholly before the cursor is left out.
 */
export function segments(
  sort: InboxSort,
  providers: OrderProvider[],
  asOf: Date,
  cursor: Cursor | null,
): Segment[] {
  if (sort === "oldest")
    return [
      {
        where: cursor ? after("createdAt", cursor, 0) : {},
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      },
    ];
  const out: Segment[] = [];
  const add = (b: 0 | 1 | 2, where: Prisma.EffectIntentWhereInput, shiftMs: number) => {
    if (cursor && b < cursor.b) return;
    const from = cursor && b === cursor.b ? [after("lastAttemptAt", cursor, shiftMs)] : [];
    out.push({ where: { AND: [where, ...from] }, orderBy: byAttempt });
  };
  for (const p of providers) {
    if (!p.supportsIdempotency || !p.keyRetentionSeconds) {
      add(1, { providerId: p.id }, 0);
      continue;
    }
    const retentionMs = p.keyRetentionSeconds * 1000;
    const boundary = new Date(asOf.getTime() - retentionMs);
    add(0, { providerId: p.id, lastAttemptAt: { gt: boundary } }, retentionMs);
    add(2, { providerId: p.id, lastAttemptAt: { lte: boundary } }, retentionMs);
  }
  return out;
}
