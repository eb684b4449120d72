import type { Prisma, PrismaClient } from "@/prisma/generated/client";

/** A tenant's intents at one provider: the unit a reconcile policy is set for. */
export type PolicyPair = { tenantId: string; providerId: string };

/**
 * The (tenant, provider) pairs whose reconcile policy is on: there the reconciler
 * settles unknown intents itself, so people need not see the ones it is working on.
 * Under dry run or off it changes nothing, and people keep every intent. The table
 * has a row per tenant and provider at most, so this read is small.
 */
export async function autoPairs(db: PrismaClient): Promise<PolicyPair[]> {
  return db.reconcilePolicy.findMany({
    where: { mode: "on" },
    select: { tenantId: true, providerId: true },
    orderBy: [{ tenantId: "asc" }, { providerId: "asc" }],
  });
}

const pairWhere = (pairs: PolicyPair[]) => ({
  OR: pairs.map((p) => ({ tenantId: p.tenantId, providerId: p.providerId })),
});

/**
 * What keeps an intent the reconciler has taken up in people's hands anyway: a person
 * escalated it (needs operator), holds a live claim on it, or proposed a resolution that
 * waits for approval. The reconciler steps aside
 * for both at its next look; until then its row may still say active.
 */
const leftToReconciler = (now: Date): Prisma.EffectIntentWhereInput => ({
  needsOperator: false,
  // A person's request waiting for approval: people decide it, the reconciler waits.
  resolutions: { none: { status: "pending_approval" } },
  // Every branch null-safe: this sits under a NOT, where an unknown would drop the row.
  OR: [{ claimedById: null }, { claimExpiresAt: null }, { claimExpiresAt: { lte: now } }],
});

/**
 * Unknown intents the reconciler is working on: a reconciliations row in state active
 * (escalated ones wait for people) under a policy that is on, and not escalated or
 * claimed by a person since. Null when no policy is on: nothing is hidden and the
 * inbox's query is what it was before the reconciler.
 *
 * Prisma writes the reconciliation test as a left join on its primary key
 * (reconciliations.intent_id): one index probe per intent of the ordered inbox scan,
 * which stops at the page's last row as before.
 */
export function autoWhere(pairs: PolicyPair[], now: Date): Prisma.EffectIntentWhereInput | null {
  if (pairs.length === 0) return null;
  return {
    AND: [pairWhere(pairs), leftToReconciler(now), { reconciliation: { is: { state: "active" } } }],
  };
}

/** Whether an intent in the inbox is one the reconciler works on (the same test as autoWhere). */
export function isAutoReconciled(
  intent: {
    tenantId: string;
    providerId: string;
    needsOperator: boolean;
    claimedById: string | null;
    claimExpiresAt: Date | null;
    reconciliation: { state: string } | null;
  },
  pairs: PolicyPair[],
  now: Date,
): boolean {
  const claimLive =
    intent.claimedById !== null && intent.claimExpiresAt !== null && intent.claimExpiresAt > now;
  return (
    intent.reconciliation?.state === "active" &&
    !intent.needsOperator &&
    !claimLive &&
    pairs.some((p) => p.tenantId === intent.tenantId && p.providerId === intent.providerId)
  );
}

/**
 * How many unknown intents under the filter the inbox leaves out because the reconciler
 * works on them (over every page). Counted from the reconciler's side: its active rows
 * under a policy that is on (the pair read from the row, a copy of its intent's),
 * joined to the intents the filter and autoWhere keep.
 */
export async function countAutoHidden(
  db: PrismaClient,
  pairs: PolicyPair[],
  intentFilters: Prisma.EffectIntentWhereInput[],
  now: Date,
): Promise<number> {
  if (pairs.length === 0) return 0;
  return db.reconciliation.count({
    where: {
      state: "active",
      ...pairWhere(pairs),
      // The pair again on the intent's side: the inbox index (tenant, status, …) then
      // narrows the intents read to those of tenants whose policy is on.
      intent: { AND: [{ status: "unknown" }, pairWhere(pairs), leftToReconciler(now), ...intentFilters] },
    },
  });
}
