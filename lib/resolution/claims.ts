import type { EffectIntent, PrismaClient } from "@/prisma/generated/client";
import { appendAudit } from "@/lib/audit/append";
import { transaction } from "@/lib/db/transaction";
import { auditActor, type Actor } from "@/lib/auth/actor";
import { authorize } from "@/lib/auth/authorize";
import { ResolutionError } from "./errors";
import { loadIntentForActor } from "./load";

export const CLAIM_MS = 30 * 60_000;

export function isClaimLive(
  intent: Pick<EffectIntent, "claimedById" | "claimExpiresAt">,
  now: Date,
): boolean {
  return intent.claimedById !== null && intent.claimExpiresAt !== null && intent.claimExpiresAt > now;
}

/**
 * Claims an intent for the actor for CLAIM_MS. A live claim of someone else is
 * only taken over with a reason, and the takeover is audited.
 */
export async function claimIntent(
  db: PrismaClient,
  actor: Actor,
  input: { intentId: string; tenantId?: string; takeOverReason?: string | null },
  now = new Date(),
): Promise<EffectIntent> {
  return transaction(db, async (tx) => {
    await authorize(tx, actor, "claim");
    const intent = await loadIntentForActor(tx, input.intentId, input.tenantId);
    const heldByOther = isClaimLive(intent, now) && intent.claimedById !== actor.id;
    if (heldByOther && !input.takeOverReason) {
      const holder = await tx.user.findUnique({ where: { id: intent.claimedById! }, select: { name: true } });
      throw new ResolutionError(
        "claimed",
        `${holder?.name ?? "Someone"} has claimed this intent until ${intent.claimExpiresAt!.toISOString()}. Give a reason to take it over.`,
      );
    }
    const { count } = await tx.effectIntent.updateMany({
      where: { id: intent.id, claimedById: intent.claimedById, claimExpiresAt: intent.claimExpiresAt },
      data: { claimedById: actor.id, claimExpiresAt: new Date(now.getTime() + CLAIM_MS) },
    });
    if (count !== 1)
      throw new ResolutionError("stale", "Someone else claimed this intent a moment ago. Reload to see who.");
    await appendAudit(tx, {
      actor: auditActor(actor),
      action: heldByOther ? "intent.claim_taken_over" : "intent.claimed",
      tenantId: intent.tenantId,
      targetType: "intent",
      targetId: intent.id,
      reason: heldByOther ? input.takeOverReason : null,
      requestId: actor.requestId,
      details: { intentKey: intent.intentKey, previousHolder: heldByOther ? intent.claimedById : null },
      occurredAt: now,
    });
    return tx.effectIntent.findUniqueOrThrow({ where: { id: intent.id } });
  });
}

export async function releaseIntent(
  db: PrismaClient,
  actor: Actor,
  input: { intentId: string; tenantId?: string },
  now = new Date(),
): Promise<EffectIntent> {
  return transaction(db, async (tx) => {
    await authorize(tx, actor, "claim");
    const intent = await loadIntentForActor(tx, input.intentId, input.tenantId);
    const { count } = await tx.effectIntent.updateMany({
      where: { id: intent.id, claimedById: actor.id },
      data: { claimedById: null, claimExpiresAt: null },
    });
    // Released already (another tab), taken over, or never held: nothing changed, no event.
    if (count !== 1) throw new ResolutionError("claimed", "You do not hold the claim on this intent.");
    await appendAudit(tx, {
      actor: auditActor(actor),
      action: "intent.released",
      tenantId: intent.tenantId,
      targetType: "intent",
      targetId: intent.id,
      requestId: actor.requestId,
      details: { intentKey: intent.intentKey },
      occurredAt: now,
    });
    return tx.effectIntent.findUniqueOrThrow({ where: { id: intent.id } });
  });
}
