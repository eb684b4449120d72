import type { Prisma, PrismaClient } from "@/prisma/generated/client";
import type { EffectIntent } from "@/prisma/generated/client";
import { appendAudit, type AuditActor } from "@/lib/audit/append";
import { digest } from "@/lib/digest";
import type { IntentStatus } from "./statuses";
import { isFrozen, transition, type LedgerEvent } from "./transitions";

/**
 * The effect protocol: the only code that changes an intent's status. Workers and
 * the console both go through it. Every change is a compare-and-set on the status
 * and version the caller saw; a loser gets a typed error, never a silent overwrite.
 * Here: recording an intent and the compare-and-set itself; dispatch.ts moves an intent
 * through a dispatch and its answer, compensation.ts links a compensation to its effect.
 */

export type Db = PrismaClient | Prisma.TransactionClient;

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

export async function auditTransition(
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
  /** What sending it again needs beyond the summary (provider references only): lib/effects/replay.ts. */
  replayParams?: Prisma.InputJsonValue;
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
        replayParams: input.replayParams,
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

export function refuse(intent: EffectIntent, event: LedgerEvent): never {
  if (isFrozen(intent) && ["dispatch", "receipt", "definitive_error", "timeout"].includes(event)) {
    throw new LedgerError(
      "frozen",
      `Intent ${intent.intentKey} is ${intent.status}${intent.needsOperator ? " and needs an operator" : ""}: no automatic redispatch until it is resolved`,
    );
  }
  const t = transition(intent.status, event);
  throw new LedgerError("refused", t.ok ? `${event} refused` : `Intent ${intent.intentKey}: ${t.reason}`);
}

export async function loadIntent(db: Db, id: string): Promise<EffectIntent> {
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
