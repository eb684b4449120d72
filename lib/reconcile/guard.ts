import type { EffectIntent, Prisma } from "@/prisma/generated/client";
import { ResolutionError } from "@/lib/resolution/errors";

/**
 * What the reconciler re-reads under the intent's lock before it writes anything (an
 * admin may have changed it while the lookup ran): the policy must still be on, and an
 * amount it settles on its own must still be below the auto-resolve limit.
 */
export function reconcilerGuard(action: "confirm" | "escalate" | "redispatch") {
  return async (tx: Prisma.TransactionClient, intent: EffectIntent): Promise<void> => {
    const policy = await tx.reconcilePolicy.findUnique({
      where: { tenantId_providerId: { tenantId: intent.tenantId, providerId: intent.providerId } },
    });
    if (policy?.mode !== "on")
      throw new ResolutionError(
        "stale",
        "The reconcile policy for this tenant and provider is no longer on.",
      );
    if (action === "redispatch" && !policy.redispatch)
      throw new ResolutionError("stale", "The reconcile policy no longer allows sending it again.");
    if (action === "escalate" || intent.amountMinor === null || !intent.currency) return;
    const threshold = await tx.approvalThreshold.findUnique({
      where: { tenantId_currency: { tenantId: intent.tenantId, currency: intent.currency } },
    });
    const limit = threshold?.autoResolveBelowMinor ?? null;
    if (limit === null || intent.amountMinor >= limit || intent.amountMinor >= threshold!.thresholdMinor)
      throw new ResolutionError("stale", "The auto-resolve limit changed: this amount is now for a person.");
  };
}
