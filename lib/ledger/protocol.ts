import type { Prisma, PrismaClient } from "@/prisma/generated/client";
import type { EffectAttempt, EffectIntent } from "@/prisma/generated/client";
import { appendAudit, type AuditActor } from "@/lib/audit/append";
import { digest } from "@/lib/digest";
import { lockIntent } from "./locks";
import type { IntentStatus } from "./statuses";
import { isFrozen, transition, type LedgerEvent } from "./transitions";

/**
 * The effect protocol: the only code that changes an intent's status. Workers and
 * the console both go through it. Every change is a compare-and-set on the status
 * and version the caller saw; a loser gets a typed error, never a silent overwrite.
 */

type Db = PrismaClient | Prisma.TransactionClient;

/**
 * When a person's action drives the protocol (the console sending a compensation),
 * each transition is audited in its own transaction under this actor and action.
 */
export type TransitionAudit = {
  actor: AuditActor;
  action: string;
  requestId?: string | null;
  details?: Prisma.InputJsonValue;
};

async function auditTransition(
  tx: Prisma.TransactionClient,
  audit: TransitionAudit | undefined,
  intent: EffectIntent,
  after: string,
  suffix: string,
  now: Date,
) {
  if (!audit) return;
  await appendAudit(tx, {
    actor: audit.actor,
    action: `${audit.action}.${suffix}`,
    tenantId: intent.tenantId,
    targetType: "intent",
    targetId: intent.compensatesId ?? intent.id,
    beforeStatus: intent.status,
    afterStatus: after,
    requestId: audit.requestId ?? null,
    details: { intentKey: intent.intentKey, intentId: intent.id, ...(audit.details as object | undefined) },
    occurredAt: now,
  });
}

export class LedgerError extends Error {
  constructor(
    readonly code: "key_reuse_conflict" | "frozen" | "refused" | "stale" | "lease_lost" | "not_found",
    message: string,
  ) {
    super(message);
    this.name = "LedgerError";
  }
}

export type PrepareInput = {
  tenantId: string;
  intentKey: string;
  providerId: string;
  operation: string;
  workflowId: string;
  stepId: string;
  /** The exact request the provider will get; only its digest is stored. */
  request: unknown;
  /** What operators may see: amounts, masked recipients, digests. Never secrets or PII. */
  summary: Prisma.InputJsonValue;
  amountMinor?: bigint | null;
  currency?: string | null;
  recipient?: string | null;
  template?: string | null;
  customerRef?: string | null;
  compensatesId?: string | null;
};

/**
 * Records the intent before any network call. The same key with the same request
 * returns the existing intent (a retry never mints a new key); the same key with a
 * different request is refused and counted as a key-reuse conflict.
 */
export async function prepare(
  db: Db,
  input: PrepareInput,
  now = new Date(),
): Promise<{ intent: EffectIntent; created: boolean }> {
  const requestDigest = digest(input.request);
  const { count } = await db.effectIntent.createMany({
    data: [
      {
        tenantId: input.tenantId,
        intentKey: input.intentKey,
        providerId: input.providerId,
        operation: input.operation,
        workflowId: input.workflowId,
        stepId: input.stepId,
        requestDigest,
        requestSummary: input.summary,
        amountMinor: input.amountMinor ?? null,
        currency: input.currency ?? null,
        recipient: input.recipient ?? null,
        template: input.template ?? null,
        customerRef: input.customerRef ?? null,
        compensatesId: input.compensatesId ?? null,
        status: "prepared",
        createdAt: now,
        updatedAt: now,
      },
    ],
    skipDuplicates: true,
  });
  const intent = await db.effectIntent.findUniqueOrThrow({
    where: { tenantId_intentKey: { tenantId: input.tenantId, intentKey: input.intentKey } },
  });
  if (intent.requestDigest !== requestDigest) {
    await db.keyConflict.create({
      data: {
        tenantId: input.tenantId,
        intentKey: input.intentKey,
        existingDigest: intent.requestDigest,
        attemptedDigest: requestDigest,
        occurredAt: now,
      },
    });
    throw new LedgerError(
      "key_reuse_conflict",
      `Intent key ${input.intentKey} was already used for a different request (digest ${intent.requestDigest.slice(0, 12)}…, got ${requestDigest.slice(0, 12)}…)`,
    );
  }
  return { intent, created: count === 1 };
}

function refuse(intent: EffectIntent, event: LedgerEvent): never {
  if (isFrozen(intent) && ["dispatch", "receipt", "definitive_error", "timeout"].includes(event)) {
    throw new LedgerError(
      "frozen",
      `Intent ${intent.intentKey} is ${intent.status}${intent.needsOperator ? " and needs an operator" : ""}: no automatic redispatch until it is resolved`,
    );
  }
  const t = transition(intent.status, event);
  throw new LedgerError("refused", t.ok ? `${event} refused` : `Intent ${intent.intentKey}: ${t.reason}`);
}

async function loadIntent(db: Db, id: string): Promise<EffectIntent> {
  const intent = await db.effectIntent.findUnique({ where: { id } });
  if (!intent) throw new LedgerError("not_found", `No intent ${id}`);
  return intent;
}

/**
 * Moves one intent by compare-and-set on (status, version): exactly one of any
 * number of racing writers succeeds; the rest get a "stale" LedgerError.
 */
export async function compareAndSet(
  db: Db,
  seen: Pick<EffectIntent, "id" | "status" | "version" | "intentKey">,
  event: LedgerEvent,
  data: Prisma.EffectIntentUpdateManyMutationInput = {},
  extraWhere: Prisma.EffectIntentWhereInput = {},
): Promise<IntentStatus> {
  const t = transition(seen.status, event);
  if (!t.ok) throw new LedgerError("refused", `Intent ${seen.intentKey}: ${t.reason}`);
  const { count } = await db.effectIntent.updateMany({
    where: { id: seen.id, status: seen.status, version: seen.version, ...extraWhere },
    data: { ...data, status: t.to, version: { increment: 1 } },
  });
  if (count !== 1) {
    const current = await db.effectIntent.findUnique({
      where: { id: seen.id },
      select: { status: true, version: true },
    });
    throw new LedgerError(
      "stale",
      `Intent ${seen.intentKey} changed meanwhile (expected ${seen.status} v${seen.version}, found ${current?.status ?? "nothing"} v${current?.version ?? "?"})`,
    );
  }
  return t.to;
}

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
    const after = await compareAndSet(
      tx,
      intent,
      event,
      { ...intentData, leaseOwner: null, leaseExpiresAt: null, updatedAt: now },
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

/** When a compensation is confirmed, the effect it compensates becomes compensated. */
export async function settleCompensation(tx: Prisma.TransactionClient, originalId: string, now: Date) {
  const original = await loadIntent(tx, originalId);
  if (original.status === "compensating")
    await compareAndSet(tx, original, "compensation_confirmed", { updatedAt: now });
}

/**
 * Workers that died holding a lease leave dispatched intents behind; once the lease
 * runs out they become unknown (and frozen) with their open attempt marked worker_lost.
 */
export async function sweepExpiredLeases(db: PrismaClient, now = new Date()): Promise<string[]> {
  return db.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<{ id: string }[]>`
      UPDATE effect_intents
         SET status = 'unknown', version = version + 1, lease_owner = NULL, lease_expires_at = NULL, updated_at = ${now}
       WHERE status = 'dispatched' AND lease_expires_at < ${now}
   RETURNING id`;
    const ids = rows.map((r) => r.id);
    if (ids.length > 0) {
      await tx.effectAttempt.updateMany({
        where: { intentId: { in: ids }, outcome: "in_flight" },
        data: { outcome: "unknown", errorClass: "worker_lost", finishedAt: now },
      });
    }
    return ids;
  });
}

/**
 * Prepares a compensating intent (e.g. a refund) linked to the effect it undoes and
 * moves that effect to compensating, in the caller's transaction. Running it again
 * returns the same compensation.
 */
export async function prepareCompensationIn(
  tx: Prisma.TransactionClient,
  input: PrepareInput & { compensatesId: string },
  now: Date,
  originalData: Prisma.EffectIntentUpdateManyMutationInput = {},
): Promise<{ intent: EffectIntent; created: boolean }> {
  const existing = await tx.effectIntent.findUnique({
    where: { tenantId_intentKey: { tenantId: input.tenantId, intentKey: input.intentKey } },
  });
  if (existing) return prepare(tx, input, now);
  const original = await loadIntent(tx, input.compensatesId);
  if (original.tenantId !== input.tenantId)
    throw new LedgerError("refused", "A compensation must belong to the tenant of the effect it compensates");
  await compareAndSet(tx, original, "start_compensation", { ...originalData, updatedAt: now });
  return prepare(tx, input, now);
}

export function prepareCompensation(
  db: PrismaClient,
  input: PrepareInput & { compensatesId: string },
  now = new Date(),
) {
  return db.$transaction((tx) => prepareCompensationIn(tx, input, now));
}
