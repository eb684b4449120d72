import type { EffectAttempt, EffectIntent, Prisma, PrismaClient } from "@/prisma/generated/client";
import { appendAuditEvents, SYSTEM_ACTOR } from "@/lib/audit/append";
import { settleCompensation } from "./compensation";
import { lockIntent } from "./locks";
import {
  auditTransition,
  compareAndSet,
  LedgerError,
  loadIntent,
  refuse,
  type TransitionAudit,
} from "./protocol";
import { isFrozen, transition } from "./transitions";

// A dispatch and its answer: lease, attempts, receipt, rejection or unknown (protocol.ts).

export type Dispatch = { intent: EffectIntent; attempt: EffectAttempt };

/**
 * Takes the lease, opens an attempt and moves prepared (or rejected, retried with
 * the same key) to dispatched. Refuses unknown, needs-operator and terminal intents.
 */
export async function beginDispatch(
  db: PrismaClient,
  input: { intentId: string; owner: string; leaseMs: number; audit?: TransitionAudit },
  now = new Date(),
): Promise<Dispatch> {
  return db.$transaction(async (tx) => {
    const intent = await loadIntent(tx, input.intentId);
    if (isFrozen(intent) || !transition(intent.status, "dispatch").ok) refuse(intent, "dispatch");
    await compareAndSet(
      tx,
      intent,
      "dispatch",
      {
        leaseOwner: input.owner,
        leaseExpiresAt: new Date(now.getTime() + input.leaseMs),
        attemptCount: { increment: 1 },
        lastAttemptAt: now,
        updatedAt: now,
      },
      { needsOperator: false },
    );
    const attempt = await tx.effectAttempt.create({
      data: {
        intentId: intent.id,
        tenantId: intent.tenantId,
        attemptNo: intent.attemptCount + 1,
        leaseOwner: input.owner,
        startedAt: now,
      },
    });
    await auditTransition(tx, input.audit, intent, "dispatched", "dispatched", now);
    return { intent: await loadIntent(tx, intent.id), attempt };
  });
}

/**
 * Another attempt within the same dispatch, same key (after a 429, or a 500 from a
 * provider whose idempotency makes the retry safe). Only the lease holder may.
 */
export async function retryAttempt(
  db: PrismaClient,
  input: { intentId: string; owner: string; leaseMs: number; previousAttemptId: string; errorClass: string },
  now = new Date(),
): Promise<Dispatch> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.effectIntent.updateMany({
      where: { id: input.intentId, status: "dispatched", leaseOwner: input.owner },
      data: {
        leaseExpiresAt: new Date(now.getTime() + input.leaseMs),
        attemptCount: { increment: 1 },
        lastAttemptAt: now,
        version: { increment: 1 },
        updatedAt: now,
      },
    });
    if (count !== 1)
      throw new LedgerError(
        "lease_lost",
        `Lease on intent ${input.intentId} is no longer held by ${input.owner}`,
      );
    await tx.effectAttempt.update({
      where: { id: input.previousAttemptId },
      data: { outcome: "rejected", errorClass: input.errorClass, finishedAt: now },
    });
    const intent = await loadIntent(tx, input.intentId);
    const attempt = await tx.effectAttempt.create({
      data: {
        intentId: intent.id,
        tenantId: intent.tenantId,
        attemptNo: intent.attemptCount,
        leaseOwner: input.owner,
        startedAt: now,
      },
    });
    return { intent, attempt };
  });
}

export type Completion = {
  intentId: string;
  owner: string;
  attemptId: string;
  providerRequestId?: string | null;
  audit?: TransitionAudit;
  /** Who settles an intent that was unknown when this dispatch ends it (a redispatch). */
  settledBy?: "reconciler";
  /** Runs inside the transaction before it commits (crash injection in tests). */
  beforeCommit?: () => void | Promise<void>;
};

async function complete(
  db: PrismaClient,
  c: Completion,
  event: "receipt" | "definitive_error" | "timeout",
  intentData: Prisma.EffectIntentUpdateManyMutationInput,
  attemptData: Prisma.EffectAttemptUpdateInput,
  now: Date,
): Promise<EffectIntent> {
  return db.$transaction(async (tx) => {
    // A compensation's receipt settles the effect it undoes: lock that one first (lib/ledger/locks.ts).
    const intent = (await lockIntent(tx, c.intentId)) ?? (await loadIntent(tx, c.intentId));
    if (intent.status !== "dispatched" || intent.leaseOwner !== c.owner) {
      throw new LedgerError(
        "lease_lost",
        `Intent ${intent.intentKey} is ${intent.status}${intent.leaseOwner ? ` leased by ${intent.leaseOwner}` : ""}; ${c.owner} no longer holds it`,
      );
    }
    // When it became unknown (first time only), and who settled it once it was.
    const settled =
      event === "timeout"
        ? { unknownSince: intent.unknownSince ?? now }
        : intent.unknownSince && c.settledBy
          ? { settledAt: now, settledBy: c.settledBy }
          : {};
    const after = await compareAndSet(
      tx,
      intent,
      event,
      { ...intentData, ...settled, leaseOwner: null, leaseExpiresAt: null, updatedAt: now },
      { leaseOwner: c.owner },
    );
    await tx.effectAttempt.update({
      where: { id: c.attemptId },
      data: { ...attemptData, finishedAt: now, providerRequestId: c.providerRequestId ?? undefined },
    });
    if (event === "receipt" && intent.compensatesId) await settleCompensation(tx, intent.compensatesId, now);
    await auditTransition(tx, c.audit, intent, after, after, now);
    await c.beforeCommit?.();
    return loadIntent(tx, intent.id);
  });
}

/** The provider answered with the effect: record the receipt. */
export function confirm(
  db: PrismaClient,
  c: Completion & { providerResultId: string; responseDigest: string },
  now = new Date(),
) {
  return complete(
    db,
    c,
    "receipt",
    { providerResultId: c.providerResultId, responseDigest: c.responseDigest, resolvedAt: now },
    { outcome: "succeeded" },
    now,
  );
}

/** The provider answered definitively that nothing happened. */
export function reject(
  db: PrismaClient,
  c: Completion & { errorClass: string; responseDigest?: string },
  now = new Date(),
) {
  return complete(
    db,
    c,
    "definitive_error",
    { responseDigest: c.responseDigest ?? null, resolvedAt: now },
    { outcome: "rejected", errorClass: c.errorClass },
    now,
  );
}

/** The request left and no answer came back: the effect may or may not have happened. */
export function markUnknown(
  db: PrismaClient,
  c: Completion & { errorClass: string; needsOperator?: boolean },
  now = new Date(),
) {
  return complete(
    db,
    c,
    "timeout",
    { needsOperator: c.needsOperator ?? false },
    { outcome: "unknown", errorClass: c.errorClass },
    now,
  );
}

/**
 * Workers that died holding a lease leave dispatched intents behind; once the lease
 * runs out they become unknown (and frozen) with their open attempt marked worker_lost.
 */
export async function sweepExpiredLeases(db: PrismaClient, now = new Date()): Promise<string[]> {
  return db.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<
      { id: string; tenant_id: string; intent_key: string; lease_owner: string }[]
    >`
      WITH lapsed AS (
        SELECT id, lease_owner FROM effect_intents
         WHERE status = 'dispatched' AND lease_expires_at < ${now}
         FOR UPDATE SKIP LOCKED)
      UPDATE effect_intents i
         SET status = 'unknown', version = version + 1, lease_owner = NULL, lease_expires_at = NULL,
             unknown_since = COALESCE(unknown_since, ${now}), updated_at = ${now}
        FROM lapsed
       WHERE i.id = lapsed.id AND i.status = 'dispatched'
   RETURNING i.id, i.tenant_id, i.intent_key, lapsed.lease_owner`;
    const ids = rows.map((r) => r.id);
    if (ids.length > 0) {
      await tx.effectAttempt.updateMany({
        where: { intentId: { in: ids }, outcome: "in_flight" },
        data: { outcome: "unknown", errorClass: "worker_lost", finishedAt: now },
      });
      await appendAuditEvents(
        tx,
        rows.map((r) => ({
          actor: SYSTEM_ACTOR,
          action: "intent.lease_expired",
          tenantId: r.tenant_id,
          targetType: "intent",
          targetId: r.id,
          reason: `The worker ${r.lease_owner} holding the lease stopped answering: the effect may or may not have happened.`,
          beforeStatus: "dispatched",
          afterStatus: "unknown",
          details: { intentKey: r.intent_key },
          occurredAt: now,
        })),
      );
    }
    return ids;
  });
}
