import type { EffectIntent, Prisma, Resolution } from "@/prisma/generated/client";
import type { AuditInput } from "@/lib/audit/append";
import { auditActor, type Actor } from "@/lib/auth/actor";
import { refundRequest } from "@/lib/effects/plan";
import { prepareCompensationIn, settleCompensation } from "@/lib/ledger/compensation";
import { compareAndSet, LedgerError } from "@/lib/ledger/protocol";
import { ResolutionError } from "./errors";

/**
 * Applies a resolution to its intent inside the caller's transaction (which holds the
 * intent's lock): used right away below the threshold, and by the last approval above
 * it. Returns the audit event for the caller to append last.
 */
export async function applyIn(
  tx: Prisma.TransactionClient,
  actor: Actor,
  intent: EffectIntent,
  resolution: Resolution,
  now: Date,
): Promise<{ resolution: Resolution; intent: EffectIntent; audit: AuditInput }> {
  // Leaving unknown (anything but an escalation) settles it: by the reconciler or a person.
  const settled =
    intent.status === "unknown" && resolution.kind !== "escalate"
      ? { settledAt: now, settledBy: actor.system ? "reconciler" : "person" }
      : {};
  const cleared = { claimedById: null, claimExpiresAt: null, updatedAt: now, ...settled };
  let after = intent.status;
  let compensationIntentId: string | null = null;
  switch (resolution.kind) {
    case "accept_receipt": {
      const lookup = resolution.lookupId
        ? await tx.lookup.findUnique({ where: { id: resolution.lookupId } })
        : null;
      after = await compareAndSet(tx, intent, "accept_receipt", {
        ...cleared,
        providerResultId: resolution.providerResultId,
        responseDigest: lookup?.responseDigest ?? null,
        resolvedAt: now,
        needsOperator: false,
      });
      if (intent.compensatesId) await settleCompensation(tx, intent.compensatesId, now);
      break;
    }
    case "mark_rejected":
      after = await compareAndSet(tx, intent, "mark_rejected", {
        ...cleared,
        resolvedAt: now,
        needsOperator: false,
      });
      break;
    case "escalate":
      after = await compareAndSet(tx, intent, "escalate", { needsOperator: true, updatedAt: now });
      break;
    case "start_compensation": {
      const chargeId = intent.providerResultId ?? resolution.providerResultId;
      if (!chargeId) throw new ResolutionError("evidence", "No provider id for the charge to refund.");
      const { prepare } = refundRequest(
        {
          tenantId: intent.tenantId,
          intentKey: compensationKey(intent.intentKey),
          workflowId: intent.workflowId,
          stepId: `${intent.stepId}:compensate`,
          compensatesKey: intent.intentKey,
          customerRef: intent.customerRef ?? "",
        },
        chargeId,
        intent,
        intent.providerId,
      );
      const { intent: refund } = await prepareCompensationIn(tx, prepare, now, {
        ...cleared,
        providerResultId: chargeId,
      });
      compensationIntentId = refund.id;
      after = "compensating";
      break;
    }
  }
  const { count } = await tx.resolution.updateMany({
    // The status the caller saw: pending (the last approval) or applied (just created below the threshold).
    where: { id: resolution.id, status: resolution.status },
    data: { status: "applied", decidedAt: now, compensationIntentId },
  });
  if (count !== 1) throw new LedgerError("stale", `Resolution ${resolution.id} changed meanwhile`);
  return {
    resolution: await tx.resolution.findUniqueOrThrow({ where: { id: resolution.id } }),
    intent: await tx.effectIntent.findUniqueOrThrow({ where: { id: intent.id } }),
    audit: {
      actor: auditActor(actor),
      action: "resolution.applied",
      tenantId: intent.tenantId,
      targetType: "intent",
      targetId: intent.id,
      reason: resolution.reason,
      evidenceRef: resolution.lookupId ? `lookup:${resolution.lookupId}` : resolution.externalEvidenceRef,
      beforeStatus: intent.status,
      afterStatus: after,
      requestId: actor.requestId,
      details: {
        resolutionId: resolution.id,
        kind: resolution.kind,
        providerResultId: resolution.providerResultId,
        compensationIntentId,
      },
      occurredAt: now,
    },
  };
}

/** The compensation of an intent has a key derived from it: deterministic, so it is never doubled. */
export function compensationKey(intentKey: string): string {
  return `${intentKey}:compensation:v1`;
}
