import { z } from "zod";
import { ZERO_DECIMAL_CURRENCIES } from "@/lib/format";
import { parseQuery } from "@/lib/validation/query";
import { oneLineText } from "@/lib/validation/text";
import type { Prisma, PrismaClient } from "@/prisma/generated/client";
import { autoPairs, autoWhere, countAutoHidden, isAutoReconciled } from "./auto";

/** Largest amount a filter may name, in major units (well inside the amount column's range). */
const MAX_AMOUNT = 1e13;

const amountBound = (label: string) =>
  z.coerce
    .number({ error: `${label} must be a number.` })
    .finite(`${label} must be a number.`)
    .nonnegative(`${label} cannot be negative.`)
    .max(MAX_AMOUNT, `${label} is at most 10,000,000,000,000.`);

/** Inbox filters, as they appear in the URL (so a view can be shared). */
export const inboxFilters = z.object({
  tenant: oneLineText("Tenant", 1, 64).optional(),
  provider: oneLineText("Provider", 1, 64).optional(),
  age: z.enum(["any", "over_window", "over_1h", "over_24h"]).default("any"),
  min: amountBound("Amount from").optional(),
  max: amountBound("Amount to").optional(),
  claim: z.enum(["any", "unclaimed", "claimed", "mine"]).default("any"),
  needsOperator: z.enum(["1", "0"]).optional(),
  q: oneLineText("Search", 1, 255).optional(),
  // hide: leave out intents the reconciler is working on under a policy that is on.
  auto: z.enum(["hide", "show"]).default("hide"),
  cursor: z
    .string()
    .max(300)
    .refine((c) => decodeCursor(c) !== null, "This page link is not valid; start again from the first page.")
    .optional(),
});

export type InboxFilters = z.infer<typeof inboxFilters>;

/** The filters of a URL; a filter that does not parse is dropped and named in `problems`. */
export function parseInboxFilters(params: URLSearchParams | Record<string, string | string[] | undefined>) {
  return parseQuery(inboxFilters, params);
}

/** The filters back as a query string (without the cursor unless asked). */
export function filtersToQuery(f: InboxFilters, withCursor = false): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(f)) {
    if (
      v === undefined ||
      v === "" ||
      (k === "age" && v === "any") ||
      (k === "claim" && v === "any") ||
      (k === "auto" && v === "hide")
    )
      continue;
    if (k === "cursor" && !withCursor) continue;
    q.set(k, String(v));
  }
  return q.toString();
}

type Cursor = { createdAt: string; id: string };

export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify(c)).toString("base64url");
}

const cursorShape = z.object({ createdAt: z.iso.datetime(), id: z.uuid() });

function decodeCursor(s: string | undefined): Cursor | null {
  if (!s) return null;
  try {
    const parsed = cursorShape.safeParse(JSON.parse(Buffer.from(s, "base64url").toString()));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

// Amount filters are in major units.
const ZERO_DECIMAL = [...ZERO_DECIMAL_CURRENCIES];

function amountWhere(op: "gte" | "lte", major: number): Prisma.EffectIntentWhereInput {
  return {
    OR: [
      { currency: { in: ZERO_DECIMAL }, amountMinor: { [op]: BigInt(Math.round(major)) } },
      { currency: { notIn: ZERO_DECIMAL }, amountMinor: { [op]: BigInt(Math.round(major * 100)) } },
    ],
  };
}

export const INBOX_PAGE_SIZE = 50;

/** The filters other than status (shared by both halves of the inbox). */
export function filterWhere(
  f: InboxFilters,
  userId: string,
  now: Date,
  providerWindows: Map<string, number>,
): Prisma.EffectIntentWhereInput[] {
  const and: Prisma.EffectIntentWhereInput[] = [];
  if (f.tenant) and.push({ tenantId: f.tenant });
  if (f.provider) and.push({ providerId: f.provider });
  if (f.needsOperator === "1") and.push({ needsOperator: true });
  if (f.needsOperator === "0") and.push({ needsOperator: false });
  if (f.min !== undefined) and.push(amountWhere("gte", f.min));
  if (f.max !== undefined) and.push(amountWhere("lte", f.max));
  if (f.claim === "unclaimed") and.push({ OR: [{ claimedById: null }, { claimExpiresAt: { lte: now } }] });
  if (f.claim === "claimed") and.push({ claimedById: { not: null }, claimExpiresAt: { gt: now } });
  if (f.claim === "mine") and.push({ claimedById: userId, claimExpiresAt: { gt: now } });
  if (f.age === "over_1h") and.push({ createdAt: { lt: new Date(now.getTime() - 3_600_000) } });
  if (f.age === "over_24h") and.push({ createdAt: { lt: new Date(now.getTime() - 86_400_000) } });
  if (f.age === "over_window") {
    // Older than its provider's normal response window.
    and.push({
      OR: [...providerWindows].map(([providerId, seconds]) => ({
        providerId,
        createdAt: { lt: new Date(now.getTime() - seconds * 1000) },
      })),
    });
  }
  return and;
}

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
} satisfies Prisma.EffectIntentSelect;

type SelectedRow = Prisma.EffectIntentGetPayload<{ select: typeof select }>;

export type InboxRow = Omit<SelectedRow, "reconciliation"> & {
  /** Set when the reconciler works on it (a policy that is on): when it looks next. */
  reconciler: { nextAt: Date } | null;
};

export type InboxPage = {
  rows: InboxRow[];
  nextCursor: string | null;
  /** How many intents under the filter are left out because the reconciler works on them. */
  autoHidden: number;
};

/**
 * Oldest first, by keyset on (created_at, id): no OFFSET, so page 1,000 costs what
 * page 1 does, and rows arriving meanwhile never shift the page under the reader.
 */
export async function inboxPage(
  db: PrismaClient,
  f: InboxFilters,
  userId: string,
  now = new Date(),
  pageSize = INBOX_PAGE_SIZE,
  options: { countHidden?: boolean } = {},
): Promise<InboxPage> {
  // Response windows are only needed for the "past response window" filter.
  const [providers, allPairs] = await Promise.all([
    f.age === "over_window"
      ? db.providerProfile.findMany({ select: { id: true, responseWindowSeconds: true } })
      : [],
    autoPairs(db),
  ]);
  // Only the policies the tenant and provider filters leave in play: none, nothing to hide or count.
  const pairs = allPairs.filter(
    (p) => (!f.tenant || p.tenantId === f.tenant) && (!f.provider || p.providerId === f.provider),
  );
  const filters = filterWhere(f, userId, now, new Map(providers.map((p) => [p.id, p.responseWindowSeconds])));
  if (f.q) {
    // Search is by exact key, workflow id, customer reference or provider result id:
    // four index lookups first, so the ordered scan below only sees their few rows.
    const q = f.q;
    const found = await Promise.all(
      [{ intentKey: q }, { workflowId: q }, { customerRef: q }, { providerResultId: q }].map((where) =>
        db.effectIntent.findMany({ where, select: { id: true }, take: 1000 }),
      ),
    );
    filters.push({ id: { in: [...new Set(found.flat().map((r) => r.id))] } });
  }
  // Unknown intents the reconciler works on are left out (unless asked for); a dispatched
  // one whose worker lost its lease is always shown (the sweeper turns it unknown soon).
  const auto = f.auto === "hide" ? autoWhere(pairs, now) : null;
  // Counted over the whole filter (every page), before the cursor narrows it.
  const hidden =
    auto && options.countHidden !== false ? countAutoHidden(db, pairs, filters, now) : Promise.resolve(0);
  const cursor = decodeCursor(f.cursor);
  if (cursor) {
    const at = new Date(cursor.createdAt);
    filters.push({ OR: [{ createdAt: { gt: at } }, { createdAt: at, id: { gt: cursor.id } }] });
  }
  // Two ordered index scans, merged here: unknown intents, and dispatched ones whose
  // worker lost its lease (few: the sweeper turns them unknown). One query with an OR
  // of both would have to sort every match before returning the first page. A search
  // has found its few ids already: fetch those by primary key and order them here.
  const page = (status: Prisma.EffectIntentWhereInput) =>
    db.effectIntent.findMany({
      where: { AND: [status, ...filters] },
      select,
      ...(f.q
        ? {}
        : { orderBy: [{ createdAt: "asc" as const }, { id: "asc" as const }], take: pageSize + 1 }),
    });
  const [unknown, lost, autoHidden] = await Promise.all([
    page(auto ? { status: "unknown", NOT: auto } : { status: "unknown" }),
    page({ status: "dispatched", leaseExpiresAt: { lt: now } }),
    hidden,
  ]);
  const rows = [...unknown, ...lost]
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, pageSize + 1);
  const more = rows.length > pageSize;
  const shown = more ? rows.slice(0, pageSize) : rows;
  const last = shown.at(-1);
  return {
    rows: shown.map(({ reconciliation, ...row }) => ({
      ...row,
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
    nextCursor: more && last ? encodeCursor({ createdAt: last.createdAt.toISOString(), id: last.id }) : null,
    autoHidden,
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
