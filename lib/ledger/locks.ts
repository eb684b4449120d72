import type { EffectIntent, Prisma } from "@/prisma/generated/client";

type Tx = Prisma.TransactionClient;

/**
 * Row locks, always taken in one order so that transactions queue instead of
 * deadlocking: the effect a compensation undoes, then the compensation (or any other
 * intent), then its resolution, and the audit chain's head last (appendAuditEvents).
 */

/**
 * Locks an intent for the rest of the transaction, after the effect it compensates (a
 * compensation's receipt settles that effect in the same transaction). Returns the
 * intent as committed now, or null if there is none.
 */
export async function lockIntent(tx: Tx, intentId: string): Promise<EffectIntent | null> {
  const [row] = await tx.$queryRaw<{ compensates_id: string | null }[]>`
    SELECT compensates_id FROM effect_intents WHERE id = ${intentId}::uuid`;
  if (!row) return null;
  if (row.compensates_id)
    await tx.$queryRaw`SELECT 1 FROM effect_intents WHERE id = ${row.compensates_id}::uuid FOR UPDATE`;
  await tx.$queryRaw`SELECT 1 FROM effect_intents WHERE id = ${intentId}::uuid FOR UPDATE`;
  return tx.effectIntent.findUnique({ where: { id: intentId } });
}

/** Locks a resolution (after its intent: see lockIntent). */
export async function lockResolution(tx: Tx, resolutionId: string): Promise<boolean> {
  const rows = await tx.$queryRaw<unknown[]>`
    SELECT 1 FROM resolutions WHERE id = ${resolutionId}::uuid FOR UPDATE`;
  return rows.length === 1;
}
