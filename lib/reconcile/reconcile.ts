import type { EffectIntent, ReconcilePolicy, Reconciliation } from "@/prisma/generated/client";
import { rebuildRequest } from "@/lib/effects/replay";
import { staleness } from "@/lib/resolution/requests";
import { appendAudit } from "@/lib/audit/append";
import { AuthError } from "@/lib/auth/errors";
import { auditActor } from "@/lib/auth/actor";
import { sweepExpiredLeases } from "@/lib/ledger/dispatch";
import { LedgerError } from "@/lib/ledger/protocol";
import { isClaimLive } from "@/lib/resolution/claims";
import { ResolutionError } from "@/lib/resolution/errors";
import { lookupForOperator } from "@/lib/resolution/lookups";
import { backoffMs, decide, type Decision } from "./decide";
import { enqueueUnknown, finish, holdLease, pickDue } from "./queue";
import { carryOut, methodFor, type Outcome } from "./act";
import type { PassCounts, ReconcilerOptions } from "./types";

export type { PassCounts, ReconcilerOptions } from "./types";

/** In dry run, a decision is recorded and looked at again this much later. */
export const DRY_RUN_RECHECK_MS = 3_600_000;
export const DEFAULT_BATCH = 50;
export const DEFAULT_LEASE_MS = 120_000;

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
 * One pass: unknown intents whose lease ran out become unknown, unknown intents are taken
 * up (when `enqueue`), due ones are leased, and each is looked up and decided on under
 * its tenant's policy. Returns what it did; nothing it does is half-done if the process
 * dies (each change commits with its audit event; an abandoned lease runs out and the next
 * pass picks it up).
 */
export async function reconcilePass(o: ReconcilerOptions, enqueue = true): Promise<PassCounts> {
  const now = o.now ?? (() => new Date());
  const counts = emptyCounts();
  await sweepExpiredLeases(o.db, now());
  if (enqueue) await enqueueUnknown(o.db, now());
  const rows = await pickDue(o.db, o.owner, o.batch ?? DEFAULT_BATCH, o.leaseMs ?? DEFAULT_LEASE_MS, now());
  counts.picked = rows.length;
  for (const row of rows) {
    const outcome = await reconcileOne(o, row, now);
    counts[outcome] += 1;
    await o.onIntent?.(row.intentId, outcome);
  }
  return counts;
}

/** Pass after pass until nothing is due now (what waits for a later try is not due now). */
export async function reconcileUntilIdle(o: ReconcilerOptions): Promise<PassCounts> {
  const total = emptyCounts();
  for (let pass = 0; ; pass++) {
    const counts = await reconcilePass(o, pass === 0);
    for (const key of Object.keys(total) as (keyof PassCounts)[]) total[key] += counts[key];
    if (counts.picked < (o.batch ?? DEFAULT_BATCH)) return total;
  }
}

type Done = (data: Parameters<typeof finish>[3]) => Promise<boolean>;

/**
 * Why the reconciler leaves an intent alone now, and until when — before any lookup; or
 * the policy it acts under.
 */
async function leaveAlone(
  o: ReconcilerOptions,
  intent: EffectIntent,
  now: Date,
): Promise<{ data: Parameters<typeof finish>[3] } | { policy: ReconcilePolicy }> {
  if (intent.status !== "unknown")
    return {
      data: {
        state: intent.status === "dispatched" ? "dropped" : "settled",
        lastAction: "skipped",
        lastReason: `No longer unknown (now ${intent.status}).`,
      },
    };
  if (intent.needsOperator)
    return {
      data: { state: "escalated", lastAction: "skipped", lastReason: "Escalated: it waits for people." },
    };
  const policy = await o.db.reconcilePolicy.findUnique({
    where: { tenantId_providerId: { tenantId: intent.tenantId, providerId: intent.providerId } },
  });
  if (!policy || policy.mode === "off")
    return {
      data: {
        state: "dropped",
        lastAction: "skipped",
        lastReason: "The reconcile policy is off: people resolve it.",
      },
    };
  if (isClaimLive(intent, now) && intent.claimedById !== o.actor.id)
    return {
      data: {
        nextAt: intent.claimExpiresAt!,
        lastAction: "skipped",
        lastReason: "A person has claimed it; the reconciler leaves it alone until the claim ends.",
      },
    };
  // A person's request waiting for approval decides it: wait for that, without asking the provider.
  const pending = await o.db.resolution.findFirst({
    where: { intentId: intent.id, status: "pending_approval" },
  });
  if (pending && !staleness(pending, intent, now))
    return {
      data: {
        nextAt: pending.expiresAt ?? new Date(now.getTime() + DRY_RUN_RECHECK_MS),
        lastAction: "skipped",
        lastReason: "A person's request for it waits for approval; the reconciler waits for that decision.",
      },
    };
  return { policy };
}

async function reconcileOne(o: ReconcilerOptions, row: Reconciliation, now: () => Date): Promise<Outcome> {
  const done: Done = (data) => finish(o.db, row, o.owner, data, now());
  const leaseMs = o.leaseMs ?? DEFAULT_LEASE_MS;
  // Another reconciler took it over (this batch outlasted its lease): leave it to them.
  if (!(await holdLease(o.db, row, o.owner, leaseMs, now()))) return "skipped";
  const intent = await o.db.effectIntent.findUnique({ where: { id: row.intentId } });
  if (!intent)
    return (
      await done({ state: "dropped", lastAction: "skipped", lastReason: "No such intent." }),
      "skipped"
    );
  const alone = await leaveAlone(o, intent, now());
  if ("data" in alone) return (await done(alone.data), "skipped");
  const { policy } = alone;

  const [provider, threshold] = await Promise.all([
    o.db.providerProfile.findUniqueOrThrow({ where: { id: intent.providerId } }),
    intent.currency
      ? o.db.approvalThreshold.findUnique({
          where: { tenantId_currency: { tenantId: intent.tenantId, currency: intent.currency } },
        })
      : null,
  ]);
  const method = await methodFor(o.db, provider, intent);
  const lookup = method
    ? (await lookupForOperator(o.db, o.settings, o.actor, { intentId: intent.id, method }, now)).lookup
    : null;
  const rebuilt = rebuildRequest(intent);
  const decision: Decision = lookup
    ? decide({
        intent,
        provider,
        policy,
        threshold,
        lookup,
        rebuild: rebuilt.ok ? { ok: true } : rebuilt,
        tries: row.tries,
        redispatches: row.redispatches,
        now: now(),
      })
    : {
        action: "escalate",
        reason: `${provider.name} offers no lookup the reconciler can use: a person decides.`,
      };
  const seen = lookup
    ? ({ lastOutcome: lookup.outcome, lastLookupId: lookup.id, tries: { increment: 1 } } as const)
    : ({ tries: { increment: 1 } } as const);
  if (!(await holdLease(o.db, row, o.owner, leaseMs, now()))) return "skipped";

  if (policy.mode === "dry_run") {
    await o.db.$transaction((tx) =>
      appendAudit(tx, {
        actor: auditActor(o.actor),
        action: "reconciler.dry_run",
        tenantId: intent.tenantId,
        targetType: "intent",
        targetId: intent.id,
        reason: decision.reason,
        evidenceRef: lookup ? `lookup:${lookup.id}` : null,
        beforeStatus: intent.status,
        afterStatus: intent.status,
        details: { wouldDo: decision.action, outcome: lookup?.outcome ?? null },
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
    return await carryOut(o, row, intent.id, intent.version, lookup?.id ?? null, decision, seen, done, now);
  } catch (error) {
    if (error instanceof AuthError) throw error; // the reconciler's account was disabled: stop
    if (!(error instanceof ResolutionError || error instanceof LedgerError)) throw error;
    // Refused: someone acted at the same moment (a person resolved, claimed or proposed),
    // the evidence or the policy changed. Look again later, backing off; the next pick
    // sees what happened.
    await done({
      ...seen,
      nextAt: new Date(now().getTime() + backoffMs(row.tries)),
      lastAction: "skipped",
      lastReason: `Refused: ${error.message}`,
    });
    return "skipped";
  }
}
