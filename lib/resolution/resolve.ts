import type { EffectIntent, Prisma, PrismaClient, Resolution } from "@/lib/generated/prisma/client";
import type { ResolutionKind } from "@/lib/generated/prisma/enums";
import { appendAudit } from "@/lib/audit/append";
import { digest } from "@/lib/ledger/digest";
import { compareAndSet, LedgerError, prepareCompensationIn, settleCompensation } from "@/lib/ledger/protocol";
import { refundRequest } from "@/lib/worker/run-effect";
import { auditActor, type Actor } from "./actor";
import { isClaimLive } from "./claims";
import { ResolutionError } from "./errors";
import { loadIntentForActor } from "./load";
import { approvalsRequired, evidenceAllows } from "./rules";

export const APPROVAL_TTL_MS = 24 * 3_600_000;

export type ProposeInput = {
  intentId: string;
  /** The tenant the client believes the intent is in; must agree with the record. */
  tenantId?: string;
  kind: ResolutionKind;
  reason: string;
  lookupId?: string | null;
  externalEvidenceRef?: string | null;
  /** The intent version the operator saw; anything else is a stale form. */
  expectedVersion: number;
  /** One per form submission: a double click or a retry applies once. */
  submissionKey: string;
  /** Bulk: apply only what needs no approval; refuse (and record nothing) otherwise. */
  onlyWithoutApproval?: boolean;
};

export type ProposeResult = {
  resolution: Resolution;
  intent: EffectIntent;
  applied: boolean;
  /** This submission had already been handled; nothing was done again. */
  replayed: boolean;
  /** A compensation to dispatch now that the transaction committed. */
  compensationIntentId: string | null;
};

/** What an approval is bound to: every field of the proposal and the intent version it was made on. */
export function proposalDigestOf(p: {
  intentId: string;
  kind: ResolutionKind;
  lookupId: string | null;
  externalEvidenceRef: string | null;
  providerResultId: string | null;
  reason: string;
  intentVersion: number;
}) {
  return digest({
    intentId: p.intentId,
    kind: p.kind,
    lookupId: p.lookupId,
    externalEvidenceRef: p.externalEvidenceRef,
    providerResultId: p.providerResultId,
    reason: p.reason,
    intentVersion: p.intentVersion,
  });
}

/** Evidence for a resolution as it stands now: the cited lookup and every later one. */
async function loadEvidence(
  tx: Prisma.TransactionClient,
  intent: EffectIntent,
  lookupId: string | null,
  externalEvidenceRef: string | null,
) {
  const lookup = lookupId ? await tx.lookup.findUnique({ where: { id: lookupId } }) : null;
  if (lookupId && (!lookup || lookup.intentId !== intent.id))
    throw new ResolutionError("evidence", "That lookup does not belong to this intent.");
  const laterLookups = lookup
    ? await tx.lookup.findMany({ where: { intentId: intent.id, startedAt: { gt: lookup.startedAt } } })
    : [];
  return { lookup, externalEvidenceRef, laterLookups };
}

/**
 * Whether the evidence still permits this resolution on the intent as it is now:
 * the one check both a proposal and the approval that applies it run.
 */
export async function recheckEvidence(
  tx: Prisma.TransactionClient,
  kind: ResolutionKind,
  intent: EffectIntent,
  lookupId: string | null,
  externalEvidenceRef: string | null,
  now: Date,
) {
  const provider = await tx.providerProfile.findUniqueOrThrow({ where: { id: intent.providerId } });
  const evidence = await loadEvidence(tx, intent, lookupId, externalEvidenceRef);
  return { provider, evidence, verdict: evidenceAllows(kind, intent, provider, evidence, now) };
}

/**
 * Proposes a resolution; applies it at once unless it needs approval. One transaction:
 * the evidence re-check, the compare-and-set on the intent, the resolution row and its
 * audit event commit together or not at all.
 */
export async function proposeResolution(
  db: PrismaClient,
  actor: Actor,
  input: ProposeInput,
  now = new Date(),
): Promise<ProposeResult> {
  try {
    return await db.$transaction(async (tx) => {
      const previous = await tx.resolution.findUnique({ where: { submissionKey: input.submissionKey } });
      if (previous) {
        if (previous.proposedById !== actor.id || previous.intentId !== input.intentId) {
          throw new ResolutionError(
            "duplicate_submission",
            "This form was already submitted for something else. Reload the page.",
          );
        }
        return {
          resolution: previous,
          intent: await tx.effectIntent.findUniqueOrThrow({ where: { id: previous.intentId } }),
          applied: previous.status === "applied",
          replayed: true,
          compensationIntentId: previous.compensationIntentId,
        };
      }

      const intent = await loadIntentForActor(tx, input.intentId, input.tenantId);
      if (intent.version !== input.expectedVersion) {
        throw new ResolutionError(
          "stale",
          `This intent changed since you loaded it (now ${intent.status}, version ${intent.version}). Reload and check the evidence again.`,
        );
      }
      if (isClaimLive(intent, now) && intent.claimedById !== actor.id) {
        throw new ResolutionError(
          "claimed",
          "Someone else holds the claim on this intent. Take it over (with a reason) before resolving.",
        );
      }
      const { provider, evidence, verdict } = await recheckEvidence(
        tx,
        input.kind,
        intent,
        input.lookupId ?? null,
        input.externalEvidenceRef ?? null,
        now,
      );
      if (!verdict.ok) throw new ResolutionError("evidence", verdict.reason);

      const threshold = intent.currency
        ? await tx.approvalThreshold.findUnique({
            where: { tenantId_currency: { tenantId: intent.tenantId, currency: intent.currency } },
          })
        : null;
      const external = Boolean(input.externalEvidenceRef) && !evidence.lookup;
      const required = approvalsRequired(input.kind, intent, provider, threshold, external);
      const providerResultId = evidence.lookup?.providerResultId ?? null;
      const base = {
        intentId: intent.id,
        tenantId: intent.tenantId,
        kind: input.kind,
        proposedById: actor.id,
        reason: input.reason,
        lookupId: evidence.lookup?.id ?? null,
        externalEvidenceRef: input.externalEvidenceRef ?? null,
        providerResultId,
        proposalDigest: proposalDigestOf({
          intentId: intent.id,
          kind: input.kind,
          lookupId: evidence.lookup?.id ?? null,
          externalEvidenceRef: input.externalEvidenceRef ?? null,
          providerResultId,
          reason: input.reason,
          intentVersion: intent.version,
        }),
        intentVersion: intent.version,
        requiredApprovals: required,
        submissionKey: input.submissionKey,
        createdAt: now,
      };

      if (required > 0 && input.onlyWithoutApproval) {
        throw new ResolutionError(
          "needs_approval",
          `Needs ${required} approver${required > 1 ? "s" : ""}: resolve it on its own page.`,
        );
      }
      if (required > 0) {
        const resolution = await tx.resolution.create({
          data: { ...base, status: "pending_approval", expiresAt: new Date(now.getTime() + APPROVAL_TTL_MS) },
        });
        await appendAudit(tx, {
          actor: auditActor(actor),
          action: "resolution.proposed",
          tenantId: intent.tenantId,
          targetType: "intent",
          targetId: intent.id,
          reason: input.reason,
          evidenceRef: evidence.lookup ? `lookup:${evidence.lookup.id}` : input.externalEvidenceRef,
          beforeStatus: intent.status,
          afterStatus: intent.status,
          requestId: actor.requestId,
          details: {
            resolutionId: resolution.id,
            kind: input.kind,
            requiredApprovals: required,
            amountMinor: intent.amountMinor?.toString() ?? null,
            currency: intent.currency,
          },
          occurredAt: now,
        });
        return { resolution, intent, applied: false, replayed: false, compensationIntentId: null };
      }

      const resolution = await tx.resolution.create({ data: { ...base, status: "applied", decidedAt: now } });
      const applied = await applyIn(tx, actor, intent, resolution, now);
      return {
        resolution: applied.resolution,
        intent: applied.intent,
        applied: true,
        replayed: false,
        compensationIntentId: applied.resolution.compensationIntentId,
      };
    });
  } catch (error) {
    if (error instanceof LedgerError && error.code === "stale") {
      throw new ResolutionError(
        "stale",
        "Someone else resolved or changed this intent at the same moment. Reload to see what happened.",
      );
    }
    if (error instanceof Error && /Unique constraint failed.*submission_key/s.test(error.message)) {
      // The same submission raced itself (a double click): answer with what the first one did.
      const first = await db.resolution.findUnique({ where: { submissionKey: input.submissionKey } });
      if (first && first.proposedById === actor.id && first.intentId === input.intentId) {
        const intent = await db.effectIntent.findUniqueOrThrow({ where: { id: first.intentId } });
        return {
          resolution: first,
          intent,
          applied: first.status === "applied",
          replayed: true,
          compensationIntentId: first.compensationIntentId,
        };
      }
      throw new ResolutionError("duplicate_submission", "This form is already being submitted.");
    }
    throw error;
  }
}

/**
 * Applies a resolution to its intent inside the caller's transaction: used right
 * away below the threshold, and by the last approval above it.
 */
export async function applyIn(
  tx: Prisma.TransactionClient,
  actor: Actor,
  intent: EffectIntent,
  resolution: Resolution,
  now: Date,
) {
  const cleared = { claimedById: null, claimExpiresAt: null, updatedAt: now };
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
  const updated = await tx.resolution.update({
    where: { id: resolution.id },
    data: { status: "applied", decidedAt: now, compensationIntentId },
  });
  await appendAudit(tx, {
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
  });
  return {
    resolution: updated,
    intent: await tx.effectIntent.findUniqueOrThrow({ where: { id: intent.id } }),
  };
}

/** The compensation of an intent has a key derived from it: deterministic, so it is never doubled. */
export function compensationKey(intentKey: string): string {
  return `${intentKey}:compensation:v1`;
}
