import type { EffectIntent, Prisma, PrismaClient } from "@/prisma/generated/client";
import { compareAndSet, LedgerError, loadIntent, prepare, type PrepareInput } from "./protocol";

// A compensation is its own intent, linked to the effect it undoes (protocol.ts).

/** When a compensation is confirmed, the effect it compensates becomes compensated. */
export async function settleCompensation(tx: Prisma.TransactionClient, originalId: string, now: Date) {
  const original = await loadIntent(tx, originalId);
  if (original.status === "compensating")
    await compareAndSet(tx, original, "compensation_confirmed", { updatedAt: now });
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
