import { z } from "zod";
import { parseMajorAmount } from "@/lib/format";
import { parseQuery, type QueryProblem } from "@/lib/validation/query";
import { oneLineText } from "@/lib/validation/text";
import type { Prisma } from "@/prisma/generated/client";
import { decodeCursor } from "./cursor";

/**
 * An amount bound as a person types it, in major units. Its currency decides how many
 * decimals it may have (none for JPY); that is checked once the currency is known.
 * "XXX" (ISO 4217's "no currency") has two decimals: the most any currency here has.
 */
const amountBound = (label: string) =>
  z.string().refine((t) => parseMajorAmount(t, "XXX").ok, `${label} must be an amount such as 1,000.00.`);

/** Inbox filters, as they appear in the URL (so a view can be shared). */
export const inboxFilters = z.object({
  tenant: oneLineText("Tenant", 1, 64).optional(),
  provider: oneLineText("Provider", 1, 64).optional(),
  age: z.enum(["any", "over_window", "over_1h", "over_24h"]).default("any"),
  // Amounts compare only within one currency: ¥750 is not "from 500" in a dollar view.
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, "Currency must be a three-letter code such as USD.")
    .optional(),
  min: amountBound("Amount from").optional(),
  max: amountBound("Amount to").optional(),
  claim: z.enum(["any", "unclaimed", "claimed", "mine"]).default("any"),
  needsOperator: z.enum(["1", "0"]).optional(),
  q: oneLineText("Search", 1, 255).optional(),
  // hide: leave out intents the reconciler is working on under a policy that is on.
  auto: z.enum(["hide", "show"]).default("hide"),
  // act: the provider's key-retention deadline, soonest first (lib/inbox/order.ts); oldest: by creation.
  sort: z.enum(["act", "oldest"]).default("act"),
  cursor: z
    .string()
    .max(400)
    .refine((c) => decodeCursor(c) !== null, "This page link is not valid; start again from the first page.")
    .optional(),
});

export type InboxFilters = z.infer<typeof inboxFilters>;

/**
 * The filters of a URL; a filter that does not parse is dropped and named in `problems`.
 * An amount bound needs a currency, and must fit it (whole yen): otherwise it is dropped too.
 */
export function parseInboxFilters(params: URLSearchParams | Record<string, string | string[] | undefined>): {
  values: InboxFilters;
  problems: QueryProblem[];
} {
  const { values, problems } = parseQuery(inboxFilters, params);
  for (const field of ["min", "max"] as const) {
    const text = values[field];
    if (text === undefined) continue;
    const label = field === "min" ? "Amount from" : "Amount to";
    const parsed = values.currency ? parseMajorAmount(text, values.currency) : null;
    if (parsed?.ok) continue;
    problems.push({
      field,
      message: parsed
        ? `${label} must be ${parsed.message}`
        : `${label} needs a currency: choose one beside it.`,
    });
    values[field] = undefined;
  }
  return { values, problems };
}

const DEFAULTS: Partial<Record<keyof InboxFilters, string>> = {
  age: "any",
  claim: "any",
  auto: "hide",
  sort: "act",
};

/** The filters back as a query string (without the cursor unless asked). */
export function filtersToQuery(f: InboxFilters, withCursor = false): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(f) as [keyof InboxFilters, string | undefined][]) {
    if (v === undefined || v === "" || DEFAULTS[k] === v) continue;
    if (k === "cursor" && !withCursor) continue;
    q.set(k, v);
  }
  return q.toString();
}

function minor(text: string, currency: string): bigint {
  const parsed = parseMajorAmount(text, currency);
  // parseInboxFilters dropped every bound that does not parse in its currency.
  if (!parsed.ok) throw new Error(`unparsed amount bound ${text}`);
  return parsed.minor;
}

/** The filters other than status, search and order (shared by the page, its count and the export). */
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
  if (f.currency && (f.min !== undefined || f.max !== undefined)) {
    and.push({
      currency: f.currency,
      amountMinor: {
        ...(f.min !== undefined ? { gte: minor(f.min, f.currency) } : {}),
        ...(f.max !== undefined ? { lte: minor(f.max, f.currency) } : {}),
      },
    });
  } else if (f.currency) and.push({ currency: f.currency });
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
