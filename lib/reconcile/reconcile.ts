import type { Reconciliation } from "@/prisma/generated/client";
import { appendAudit } from "@/lib/audit/append";
import { AuthError } from "@/lib/auth/errors";
import { auditActor } from "@/lib/auth/actor";
import { sweepExpiredLeases } from "@/lib/ledger/dispatch";
import { LedgerError } from "@/lib/ledger/protocol";
import { isClaimLive } from "@/lib/resolution/claims";
import { ResolutionError } from "@/lib/resolution/errors";
import { lookupForOperator } from "@/lib/resolution/lookups";
import { decide } from "./decide";
import { finish, enqueueUnknown, pickDue } from "./queue";
import { carryOut, methodFor, type Outcome } from "./act";
import type { PassCounts, ReconcilerOptions } from "./types";

export type { PassCounts, ReconcilerOptions } from "./types";

/** In dry run, a decision is recorded and looked at again this much later. */
export const DRY_RUN_RECHECK_MS = 3_600_000;
export const DEFAULT_BATCH = 50;

export const emptyCounts = (): PassCounts => ({
  picked: 0,
  confirmed: 0,
  redispatched: 0,
  escalated: 0,
  retryLater: 0,
  skipped: 0,
  dryRun: 0,
});

/**
 * One pass: unknown intents whose lease ran out become unknown, due intents are taken up
 * and leased, and each is looked up and decided on under its tenant's policy. Returns
 * what it did; nothing it does is half-done if the process dies (each change commits
 * with its audit event; an abandoned lease runs out and the next pass picks it up).
 */
export async function reconcilePass(o: ReconcilerOptions): Promise<PassCounts> {
  const now = o.now ?? (() => new Date());
  const counts = emptyCounts();
  await sweepExpiredLeases(o.db, now());
  await enqueueUnknown(o.db, now());
  const rows = await pickDue(o.db, o.owner, o.batch ?? DEFAULT_BATCH, o.leaseMs ?? 120_000, now());
  counts.picked = rows.length;
  for (const row of rows) {
    const outcome = await reconcileOne(o, row, now);
    counts[outcome] += 1;
    await o.onIntent?.(row.intentId, outcome);
  }
  return counts;
}

async function reconcileOne(o: ReconcilerOptions, row: Reconciliation, now: () => Date): Promise<Outcome> {
  const done = (data: Parameters<typeof finish>[3]) => finish(o.db, row, o.owner, data, now());
  const intent = await o.db.effectIntent.findUnique({ where: { id: row.intentId } });
  if (!intent)
    return (await done({ state: "dropped", lastAction: "skipped", lastReason: "no such intent" }), "skipped");
  if (intent.status !== "unknown") {
    await done({
      state: intent.settledBy ? "settled" : "dropped",
      lastAction: "skipped",
      lastReason: `No longer unknown (now ${intent.status}).`,
    });
    return "skipped";
  }
  if (intent.needsOperator) {
    await done({
      state: "escalated",
      lastAction: "skipped",
      lastReason: "A person escalated it; it waits for people.",
    });
    return "skipped";
  }
  const policy = await o.db.reconcilePolicy.findUnique({
    where: { tenantId_providerId: { tenantId: intent.tenantId, providerId: intent.providerId } },
  });
  if (!policy || policy.mode === "off") {
    await done({
      state: "dropped",
      lastAction: "skipped",
      lastReason: "The reconcile policy is off: people resolve it.",
    });
    return "skipped";
  }
  if (isClaimLive(intent, now()) && intent.claimedById !== o.actor.id) {
    await done({
      nextAt: intent.claimExpiresAt!,
      lastAction: "skipped",
      lastReason: "A person has claimed it; the reconciler leaves it alone until the claim ends.",
    });
    return "skipped";
  }

  const [provider, threshold] = await Promise.all([
    o.db.providerProfile.findUniqueOrThrow({ where: { id: intent.providerId } }),
    intent.currency
      ? o.db.approvalThreshold.findUnique({
          where: { tenantId_currency: { tenantId: intent.tenantId, currency: intent.currency } },
        })
      : null,
  ]);
  const method = await methodFor(o.db, provider, intent);
  if (!method) {
    await done({
      state: "escalated",
      lastAction: "escalated",
      lastReason: `${provider.name} offers no lookup.`,
    });
    return "escalated";
  }
  const { lookup } = await lookupForOperator(o.db, o.settings, o.actor, { intentId: intent.id, method }, now);
  const decision = decide({
    intent,
    provider,
    policy,
    threshold,
    lookup,
    tries: row.tries,
    redispatches: row.redispatches,
    now: now(),
  });
  const seen = { lastOutcome: lookup.outcome, lastLookupId: lookup.id, tries: { increment: 1 } } as const;

  if (policy.mode === "dry_run") {
    await o.db.$transaction((tx) =>
      appendAudit(tx, {
        actor: auditActor(o.actor),
        action: "reconciler.dry_run",
        tenantId: intent.tenantId,
        targetType: "intent",
        targetId: intent.id,
        reason: decision.reason,
        evidenceRef: `lookup:${lookup.id}`,
        beforeStatus: intent.status,
        afterStatus: intent.status,
        details: { wouldDo: decision.action, outcome: lookup.outcome },
      }),
    );
    await done({
      ...seen,
      nextAt: new Date(now().getTime() + DRY_RUN_RECHECK_MS),
      lastAction: `would_${decision.action}`,
      lastReason: decision.reason,
    });
    return "dryRun";
  }

  try {
    return await carryOut(o, row, intent.id, intent.version, lookup.id, decision, seen, done, now);
  } catch (error) {
    if (error instanceof AuthError) throw error; // the reconciler's account was disabled: stop
    if (!(error instanceof ResolutionError || error instanceof LedgerError)) throw error;
    // Someone else acted at the same moment (a person resolved it, claimed it, or the
    // evidence changed): record why and look again later; the next pick sees what happened.
    await done({
      ...seen,
      nextAt: new Date(now().getTime() + 30_000),
      lastAction: "skipped",
      lastReason: `Refused: ${error.message}`,
    });
    return "skipped";
  }
}

/** Pass after pass until nothing is due now (what waits for a later try is not due now). */
export async function reconcileUntilIdle(o: ReconcilerOptions): Promise<PassCounts> {
  const total = emptyCounts();
  for (;;) {
    const pass = await reconcilePass(o);
    for (const key of Object.keys(total) as (keyof PassCounts)[]) total[key] += pass[key];
    if (pass.picked < (o.batch ?? DEFAULT_BATCH)) return total;
  }
}
