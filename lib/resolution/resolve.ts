import type { EffectIntent, Prisma, PrismaClient, Resolution } from "@/prisma/generated/client";
import type { ResolutionKind } from "@/prisma/generated/enums";
import { appendAuditEvents, type AuditInput } from "@/lib/audit/append";
import { isUniqueViolation } from "@/lib/db/errors";
import { transaction } from "@/lib/db/transaction";
import { lockIntent } from "@/lib/ledger/locks";
import { LedgerError } from "@/lib/ledger/protocol";
import { auditActor, type Actor } from "@/lib/auth/actor";
import { authorize } from "@/lib/auth/authorize";
import { isClaimLive } from "./claims";
import { ResolutionError } from "./errors";
import { settleOpenRequest } from "./requests";
import { applyIn } from "./apply";
import { proposalDigestOf, recheckEvidence } from "./evidence";
import { approvalsRequired } from "./rules";

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
  /**
   * A further check under the intent's lock, before anything is written: the reconciler
   * re-reads its policy and limits here, so an admin's change a moment ago counts.
   */
  guard?: (tx: Prisma.TransactionClient, intent: EffectIntent) => Promise<void>;
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

/** What a replayed submission answers: what the first one did, nothing done again. */
async function replayOf(
  tx: Prisma.TransactionClient | PrismaClient,
  previous: Resolution,
  actor: Actor,
  input: ProposeInput,
): Promise<ProposeResult> {
  // A replay is the same submission again: same person, intent and proposal. The same key
  // with anything else is a form that lost track of its key, never a silent "done".
  const same =
    previous.proposedById === actor.id &&
    previous.intentId === input.intentId &&
    previous.kind === input.kind &&
    previous.reason === input.reason &&
    previous.intentVersion === input.expectedVersion &&
    (previous.lookupId ?? null) === (input.lookupId ?? null) &&
    (previous.externalEvidenceRef ?? null) === (input.externalEvidenceRef ?? null);
  if (!same) {
    throw new ResolutionError(
      "duplicate_submission",
      "This form's submission key was already used for a different proposal; nothing was done. Reload the page.",
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

/**
 * Proposes a resolution; applies it at once unless it needs approval. One transaction,
 * under the intent's row lock: the role check, the one-open-request rule, the evidence
 * re-check, the compare-and-set on the intent, the resolution row and its audit event
 * commit together or not at all.
 */
export async function proposeResolution(
  db: PrismaClient,
  actor: Actor,
  input: ProposeInput,
  now = new Date(),
): Promise<ProposeResult> {
  try {
    return await transaction(db, async (tx) => {
      await authorize(tx, actor, "resolve");
      const intent = await lockIntent(tx, input.intentId);
      if (!intent || (input.tenantId !== undefined && intent.tenantId !== input.tenantId))
        throw new ResolutionError("not_found", "No such intent in this tenant.");
      // Checked under the lock: a double click's second request sees the first one's row.
      const previous = await tx.resolution.findUnique({ where: { submissionKey: input.submissionKey } });
      if (previous) return replayOf(tx, previous, actor, input);

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
      await input.guard?.(tx, intent);
      const events: AuditInput[] = [];
      await settleOpenRequest(tx, actor, intent, now, events);
      if (input.kind === "start_compensation") {
        const existing = await tx.effectIntent.findFirst({ where: { compensatesId: intent.id } });
        if (existing)
          throw new ResolutionError(
            "evidence",
            `This effect already has its compensation (${existing.intentKey}, ${existing.status}); it is never compensated twice.`,
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
        events.push({
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
        await appendAuditEvents(tx, events);
        return { resolution, intent, applied: false, replayed: false, compensationIntentId: null };
      }

      const resolution = await tx.resolution.create({ data: { ...base, status: "applied", decidedAt: now } });
      const applied = await applyIn(tx, actor, intent, resolution, now);
      await appendAuditEvents(tx, [...events, applied.audit]);
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
    if (isUniqueViolation(error, "resolutions_submission_key_key")) {
      // The same submission raced itself past the lock (a double click): answer with what the first did.
      const first = await db.resolution.findUnique({ where: { submissionKey: input.submissionKey } });
      if (first) return replayOf(db, first, actor, input);
      throw new ResolutionError("duplicate_submission", "This form is already being submitted.");
    }
    if (isUniqueViolation(error, "resolutions_one_pending_per_intent")) {
      throw new ResolutionError(
        "pending",
        "Another request for this intent was proposed at the same moment and is waiting for approval. Reload to see it.",
      );
    }
    throw error;
  }
}
