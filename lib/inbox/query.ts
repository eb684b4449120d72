import { keyRetentionEndsAt } from "@/lib/resolution/rules";
import type { Prisma, PrismaClient } from "@/prisma/generated/client";
import { autoPairs, autoWhere, countAutoHidden, isAutoReconciled } from "./auto";
import { decodeCursor, encodeCursor } from "./cursor";
import { filterWhere, type InboxFilters } from "./filters";
import { compareKeys, cursorKey, segments, sortKeyOf } from "./order";
import { prefixMatches } from "./search";

export { filtersToQuery, parseInboxFilters, type InboxFilters } from "./filters";

export const INBOX_PAGE_SIZE = 50;

/** At most this many matches per search field; a search names few intents. */
const SEARCH_LIMIT = 1000;

const select = {
  id: true,
  tenantId: true,
  intentKey: true,
  status: true,
  operation: true,
  amountMinor: true,
  currency: true,
  recipient: true,
  template: true,
  attemptCount: true,
  needsOperator: true,
  claimExpiresAt: true,
  createdAt: true,
  lastAttemptAt: true,
  leaseExpiresAt: true,
  version: true,
  workflowId: true,
  customerRef: true,
  provider: {
    select: {
      id: true,
      name: true,
      responseWindowSeconds: true,
      keyRetentionSeconds: true,
      supportsIdempotency: true,
    },
  },
  claimedBy: { select: { id: true, name: true } },
  reconciliation: { select: { state: true, nextAt: true } },
  // The open approval request, if any (at most one per intent: a partial unique index).
  resolutions: {
    where: { status: "pending_approval" },
    select: {
      requiredApprovals: true,
      _count: { select: { approvals: { where: { decision: "approved" } } } },
    },
    take: 1,
  },
} satisfies Prisma.EffectIntentSelect;

type SelectedRow = Prisma.EffectIntentGetPayload<{ select: typeof select }>;

export type InboxRow = Omit<SelectedRow, "reconciliation" | "resolutions"> & {
  /** Set when the reconciler works on it (a policy that is on): when it looks next. */
  reconciler: { nextAt: Date } | null;
  /** When the provider forgets the key (lib/resolution/rules.ts); null when it has none. */
  actBefore: Date | null;
  /** An approval request waiting on it: approvals so far of those required. */
  awaiting: { approved: number; required: number } | null;
};

export type InboxPage = {
  rows: InboxRow[];
  nextCursor: string | null;
  /** How many intents under the filter are left out because the reconciler works on them. */
  autoHidden: number;
  /** How many intents the filter shows, over every page (null when not counted). */
  total: number | null;
};

/**
 * One page in the chosen order (lib/inbox/order.ts), by keyset on its sort key: no
 * OFFSET, so page 1,000 costs what page 1 does, and rows arriving meanwhile never shift
 * the page under the reader.
 */
export async function inboxPage(
  db: PrismaClient,
  f: InboxFilters,
  userId: string,
  now = new Date(),
  pageSize = INBOX_PAGE_SIZE,
  /** countHidden: false skips both counts (the hidden and the total), for callers that only page. */
  options: { countHidden?: boolean } = {},
): Promise<InboxPage> {
  const [providers, allPairs, found] = await Promise.all([
    db.providerProfile.findMany({
      select: { id: true, responseWindowSeconds: true, supportsIdempotency: true, keyRetentionSeconds: true },
      orderBy: { id: "asc" },
    }),
    autoPairs(db),
    // A search finds its few ids first (index ranges), so the scans below see only those.
    f.q ? prefixMatches(db, f.q, SEARCH_LIMIT) : null,
  ]);
  // Only the policies the tenant and provider filters leave in play: none, nothing to hide or count.
  const pairs = allPairs.filter(
    (p) => (!f.tenant || p.tenantId === f.tenant) && (!f.provider || p.providerId === f.provider),
  );
  const filters = filterWhere(f, userId, now, new Map(providers.map((p) => [p.id, p.responseWindowSeconds])));
  if (found) filters.push({ id: { in: found } });
  // Unknown intents the reconciler works on are left out (unless asked for); a dispatched
  // one whose worker lost its lease is always shown (the sweeper turns it unknown soon).
  const auto = f.auto === "hide" ? autoWhere(pairs, now) : null;
  // Two statuses, each its own ordered scan: one query with an OR of both would have to
  // sort every match before returning the first row.
  const statuses: Prisma.EffectIntentWhereInput[] = [
    auto ? { status: "unknown", NOT: auto } : { status: "unknown" },
    { status: "dispatched", leaseExpiresAt: { lt: now } },
  ];
  const counting = options.countHidden !== false;
  // Counted over the whole filter (every page), before the cursor narrows it.
  const hidden = auto && counting ? countAutoHidden(db, pairs, filters, now) : Promise.resolve(0);
  const total = counting
    ? Promise.all(statuses.map((s) => db.effectIntent.count({ where: { AND: [s, ...filters] } }))).then(
        ([a, b]) => a! + b!,
      )
    : Promise.resolve(null);

  const cursor = decodeCursor(f.cursor);
  const asOf = cursor ? new Date(cursor.asOf) : now;
  const inPlay = providers.filter((p) => !f.provider || p.id === f.provider);
  const scans = found
    ? // A search's few rows: fetched by primary key and ordered here.
      statuses.map((s) => db.effectIntent.findMany({ where: { AND: [s, ...filters] }, select }))
    : segments(f.sort, inPlay, asOf, cursor).flatMap((segment) =>
        statuses.map((s) =>
          db.effectIntent.findMany({
            where: { AND: [s, segment.where, ...filters] },
            select,
            orderBy: segment.orderBy,
            take: pageSize + 1,
          }),
        ),
      );
  const [lists, autoHidden, count] = await Promise.all([Promise.all(scans), hidden, total]);
  const from = cursor ? cursorKey(cursor) : null;
  const keyed = lists
    .flat()
    .map((row) => ({ row, key: sortKeyOf(row, f.sort, asOf) }))
    .filter(({ key }) => !from || compareKeys(key, from) > 0)
    .sort((a, b) => compareKeys(a.key, b.key))
    .slice(0, pageSize + 1);
  const more = keyed.length > pageSize;
  const shown = more ? keyed.slice(0, pageSize) : keyed;
  const last = shown.at(-1);
  return {
    rows: shown.map(({ row: { reconciliation, resolutions, ...row } }) => ({
      ...row,
      actBefore: keyRetentionEndsAt(row, row.provider),
      awaiting: resolutions[0]
        ? { approved: resolutions[0]._count.approvals, required: resolutions[0].requiredApprovals }
        : null,
      reconciler:
        reconciliation &&
        isAutoReconciled(
          { ...row, providerId: row.provider.id, claimedById: row.claimedBy?.id ?? null, reconciliation },
          pairs,
          now,
        )
          ? { nextAt: reconciliation.nextAt }
          : null,
    })),
    nextCursor:
      more && last
        ? encodeCursor({
            asOf: asOf.toISOString(),
            b: last.key.b,
            k: new Date(last.key.k).toISOString(),
            id: last.row.id,
          })
        : null,
    autoHidden,
    total: count,
  };
}

/** Every row of the filter, page by page (for CSV export). */
export async function* inboxAll(
  db: PrismaClient,
  f: InboxFilters,
  userId: string,
  now = new Date(),
): AsyncGenerator<InboxRow> {
  let cursor: string | undefined = undefined;
  for (;;) {
    const page = await inboxPage(db, { ...f, cursor }, userId, now, 500, { countHidden: false });
    yield* page.rows;
    if (!page.nextCursor) return;
    cursor = page.nextCursor;
  }
}
