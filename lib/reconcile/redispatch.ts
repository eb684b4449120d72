import type { EffectAttempt, EffectIntent, PrismaClient } from "@/prisma/generated/client";
import { appendAuditEvents, type AuditInput } from "@/lib/audit/append";
import { auditActor, type Actor } from "@/lib/auth/actor";
import { authorize } from "@/lib/auth/authorize";
import { transaction } from "@/lib/db/transaction";
import { depsForProfile } from "@/lib/effects/deps";
import { replayOf } from "@/lib/effects/replay";
import { sendDispatched } from "@/lib/effects/run-effect";
import type { CrashPoint } from "@/lib/effects/crash-points";
import type { JobResult } from "@/lib/effects/types";
import { lockIntent } from "@/lib/ledger/locks";
import { compareAndSet } from "@/lib/ledger/protocol";
import type { ProviderSettings } from "@/lib/providers/registry";
import { isClaimLive } from "@/lib/resolution/claims";
import { ResolutionError } from "@/lib/resolution/errors";
import { settleOpenRequest } from "@/lib/resolution/requests";
import { keyRetentionEndsAt } from "@/lib/resolution/rules";
import { DEADLINE_MARGIN_MS } from "./decide";
import { reconcilerGuard } from "./guard";

export type RedispatchInput = {
  intentId: string;
  /** The lookup that proved the effect absent: it must still be the intent's latest. */
  lookupId: string;
  expectedVersion: number;
  owner: string;
  leaseMs?: number;
  crash?: (point: CrashPoint) => void | Promise<void>;
};

/**
 * Sends an unknown intent again with its original key, after a lookup proved it absent.
 * One transaction, under the intent's lock, checks everything again (the role, the
 * version, no live claim, the policy, the absent lookup still the latest word, the key
 * still within the provider's retention), moves it unknown → dispatched with a new
 * attempt, and audits it; then the request — rebuilt from the ledger and checked against
 * the recorded digest — goes out, and its answer is recorded like a worker's.
 */
export async function redispatch(
  db: PrismaClient,
  settings: ProviderSettings,
  actor: Actor,
  input: RedispatchInput,
  now = () => new Date(),
): Promise<JobResult> {
  const intentRow = await db.effectIntent.findUnique({ where: { id: input.intentId } });
  if (!intentRow) throw new ResolutionError("not_found", "No such intent.");
  const provider = await db.providerProfile.findUniqueOrThrow({ where: { id: intentRow.providerId } });
  const deps = {
    ...depsForProfile(db, provider, settings, {
      workerId: input.owner,
      leaseMs: input.leaseMs ?? 120_000,
      audit: { actor: auditActor(actor), action: "reconciler.redispatch", requestId: actor.requestId },
    }),
    settledBy: "reconciler" as const,
    crash: input.crash,
  };
  const replay = replayOf(deps, intentRow);
  if (!replay.ok) throw new ResolutionError("evidence", `Cannot send it again: ${replay.reason}.`);

  const started = now();
  const dispatch = await transaction(db, async (tx) => {
    await authorize(tx, actor, "resolve");
    const intent = await lockIntent(tx, input.intentId);
    if (!intent) throw new ResolutionError("not_found", "No such intent.");
    if (intent.status !== "unknown" || intent.needsOperator || intent.version !== input.expectedVersion)
      throw new ResolutionError(
        "stale",
        `The intent changed meanwhile (now ${intent.status}, version ${intent.version}).`,
      );
    if (isClaimLive(intent, started) && intent.claimedById !== actor.id)
      throw new ResolutionError("claimed", "A person holds the claim on this intent.");
    if (!provider.supportsIdempotency)
      throw new ResolutionError(
        "evidence",
        `${provider.name} keeps no idempotency key: never sent again automatically.`,
      );
    await reconcilerGuard("redispatch")(tx, intent);
    // A person's request waiting for approval decides this intent: never send it under them.
    const events: AuditInput[] = [];
    await settleOpenRequest(tx, actor, intent, started, events);
    const latest = await tx.lookup.findFirst({
      where: { intentId: intent.id },
      orderBy: [{ startedAt: "desc" }, { finishedAt: "desc" }],
    });
    if (!latest || latest.id !== input.lookupId || latest.outcome !== "absent")
      throw new ResolutionError("evidence", "The latest lookup no longer says absent; look again.");
    const retentionEnds = keyRetentionEndsAt(intent, provider);
    if (retentionEnds && started.getTime() >= retentionEnds.getTime() - DEADLINE_MARGIN_MS)
      throw new ResolutionError(
        "evidence",
        `The provider forgets this key at ${retentionEnds.toISOString()}.`,
      );

    await compareAndSet(tx, intent, "redispatch", {
      leaseOwner: input.owner,
      leaseExpiresAt: new Date(started.getTime() + deps.leaseMs),
      attemptCount: { increment: 1 },
      lastAttemptAt: started,
      updatedAt: started,
    });
    const attempt: EffectAttempt = await tx.effectAttempt.create({
      data: {
        intentId: intent.id,
        tenantId: intent.tenantId,
        attemptNo: intent.attemptCount + 1,
        leaseOwner: input.owner,
        startedAt: started,
      },
    });
    // Counted with the change itself, so a reconciler that dies after it still counts it.
    await tx.reconciliation.updateMany({
      where: { intentId: intent.id },
      data: { redispatches: { increment: 1 } },
    });
    await appendAuditEvents(tx, [
      ...events,
      {
        actor: auditActor(actor),
        action: "reconciler.redispatched",
        tenantId: intent.tenantId,
        targetType: "intent",
        targetId: intent.id,
        reason: "Absent at the provider after its visibility delay; sent again with the original key.",
        evidenceRef: `lookup:${latest.id}`,
        beforeStatus: "unknown",
        afterStatus: "dispatched",
        requestId: actor.requestId,
        details: { intentKey: intent.intentKey, attemptNo: attempt.attemptNo, sameKey: true },
        occurredAt: started,
      },
    ]);
    const dispatched: EffectIntent = await tx.effectIntent.findUniqueOrThrow({ where: { id: intent.id } });
    return { intent: dispatched, attempt };
  });

  return sendDispatched(
    { ...deps, now },
    dispatch,
    { call: replay.call, idempotent: true },
    (intent, outcome, detail) => ({
      intentKey: intentRow.intentKey,
      intentId: intent?.id ?? intentRow.id,
      outcome,
      detail,
    }),
  );
}
