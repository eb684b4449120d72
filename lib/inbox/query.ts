import { z } from "zod";
import { ZERO_DECIMAL_CURRENCIES } from "@/lib/format";
import type { Prisma, PrismaClient } from "@/lib/generated/prisma/client";

/** Inbox filters, as they appear in the URL (so a view can be shared). */
export const inboxFilters = z.object({
  tenant: z.string().max(64).optional().catch(undefined),
  provider: z.string().max(64).optional().catch(undefined),
  age: z.enum(["any", "over_window", "over_1h", "over_24h"]).default("any").catch("any"),
  min: z.coerce.number().nonnegative().optional().catch(undefined),
  max: z.coerce.number().nonnegative().optional().catch(undefined),
  claim: z.enum(["any", "unclaimed", "claimed", "mine"]).default("any").catch("any"),
  needsOperator: z.enum(["1", "0"]).optional().catch(undefined),
  q: z.string().trim().max(255).optional().catch(undefined),
  cursor: z.string().max(200).optional().catch(undefined),
});

export type InboxFilters = z.infer<typeof inboxFilters>;

export function parseInboxFilters(
  params: URLSearchParams | Record<string, string | string[] | undefined>,
): InboxFilters {
  const flat =
    params instanceof URLSearchParams
      ? Object.fromEntries(params)
      : Object.fromEntries(Object.entries(params).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]));
  const cleaned = Object.fromEntries(Object.entries(flat).filter(([, v]) => v !== undefined && v !== ""));
  return inboxFilters.parse(cleaned);
}

/** The filters back as a query string (without the cursor unless asked). */
export function filtersToQuery(f: InboxFilters, withCursor = false): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(f)) {
    if (v === undefined || v === "" || (k === "age" && v === "any") || (k === "claim" && v === "any"))
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

function decodeCursor(s: string | undefined): Cursor | null {
  if (!s) return null;
  try {
    const c = JSON.parse(Buffer.from(s, "base64url").toString()) as Cursor;
    return typeof c.createdAt === "string" &&
      typeof c.id === "string" &&
      !Number.isNaN(Date.parse(c.createdAt))
      ? c
      : null;
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
} satisfies Prisma.EffectIntentSelect;

export type InboxRow = Prisma.EffectIntentGetPayload<{ select: typeof select }>;

export type InboxPage = { rows: InboxRow[]; nextCursor: string | null };

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
): Promise<InboxPage> {
  // Response windows are only needed for the "past response window" filter.
  const providers =
    f.age === "over_window"
      ? await db.providerProfile.findMany({ select: { id: true, responseWindowSeconds: true } })
      : [];
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
  const [unknown, lost] = await Promise.all([
    page({ status: "unknown" }),
    page({ status: "dispatched", leaseExpiresAt: { lt: now } }),
  ]);
  const rows = [...unknown, ...lost]
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, pageSize + 1);
  const more = rows.length > pageSize;
  const shown = more ? rows.slice(0, pageSize) : rows;
  const last = shown.at(-1);
  return {
    rows: shown,
    nextCursor: more && last ? encodeCursor({ createdAt: last.createdAt.toISOString(), id: last.id }) : null,
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
    const page = await inboxPage(db, { ...f, cursor }, userId, now, 500);
    yield* page.rows;
    if (!page.nextCursor) return;
    cursor = page.nextCursor;
  }
}
