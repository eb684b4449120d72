import type { Prisma, PrismaClient, Resolution } from "@/lib/generated/prisma/client";
import { appendAudit, SYSTEM_ACTOR } from "@/lib/audit/append";
import { LedgerError } from "@/lib/ledger/protocol";
import { auditActor, type Actor } from "./actor";
import { ResolutionError } from "./errors";
import { applyIn, proposalDigestOf, recheckEvidence } from "./resolve";

export type Decision = "approved" | "denied";

export type DecisionResult = {
  resolution: Resolution;
  outcome: "approved_waiting" | "applied" | "denied";
  compensationIntentId: string | null;
};

async function close(
  tx: Prisma.TransactionClient,
  actor: Actor | null,
  resolution: Resolution,
  status: "expired" | "voided",
  why: string,
  now: Date,
) {
  await tx.resolution.updateMany({
    where: { id: resolution.id, status: "pending_approval" },
    data: { status, decidedAt: now },
  });
  await appendAudit(tx, {
    actor: actor ? auditActor(actor) : SYSTEM_ACTOR,
    action: status === "expired" ? "resolution.expired" : "resolution.voided",
    tenantId: resolution.tenantId,
    targetType: "intent",
    targetId: resolution.intentId,
    reason: why,
    evidenceRef: `resolution:${resolution.id}`,
    requestId: actor?.requestId,
    details: { resolutionId: resolution.id, kind: resolution.kind },
    occurredAt: now,
  });
}

/**
 * An approver's decision on a pending resolution. The two-person rule is enforced
 * here, not in the UI: the approver is neither the proposer nor the person whose
 * lookup it rests on; one denial ends it; an expired request cannot be approved; an
 * approval is bound to the proposal's digest and the intent's version, so any change
 * to the intent meanwhile voids it. The last required approval applies the
 * resolution in the same transaction, after re-checking its evidence.
 */
export async function decide(
  db: PrismaClient,
  approver: Actor,
  input: { resolutionId: string; decision: Decision; reason: string },
  now = new Date(),
): Promise<DecisionResult> {
  type Outcome = { result: DecisionResult } | { refused: ResolutionError };
  let outcome: Outcome;
  try {
    outcome = await db.$transaction(async (tx): Promise<Outcome> => {
      const resolution = await tx.resolution.findUnique({
        where: { id: input.resolutionId },
        include: { lookup: true, approvals: true },
      });
      if (!resolution) throw new ResolutionError("not_found", "No such resolution.");
      if (resolution.status !== "pending_approval")
        throw new ResolutionError(
          "stale",
          `This resolution is already ${resolution.status.replace(/_/g, " ")}.`,
        );
      if (resolution.proposedById === approver.id)
        throw new ResolutionError(
          "invalid",
          "You proposed this resolution: a second person must approve it.",
        );
      if (resolution.lookup?.actorId === approver.id)
        throw new ResolutionError(
          "invalid",
          "You ran the lookup this resolution rests on: a second person must approve it.",
        );
      if (resolution.approvals.some((a) => a.approverId === approver.id))
        throw new ResolutionError("invalid", "You already decided on this resolution.");

      // Expiry and changes to the intent end the request for everyone; that is recorded
      // and committed even though this decision is refused.
      if (resolution.expiresAt && resolution.expiresAt <= now) {
        await close(tx, approver, resolution, "expired", "approval window passed", now);
        return {
          refused: new ResolutionError(
            "stale",
            "This request has expired; the proposer must propose it again.",
          ),
        };
      }
      const intent = await tx.effectIntent.findUniqueOrThrow({ where: { id: resolution.intentId } });
      const digestNow = proposalDigestOf({ ...resolution, intentVersion: resolution.intentVersion });
      if (intent.version !== resolution.intentVersion || digestNow !== resolution.proposalDigest) {
        await close(
          tx,
          approver,
          resolution,
          "voided",
          `intent changed (v${resolution.intentVersion} → v${intent.version}) after the proposal`,
          now,
        );
        return {
          refused: new ResolutionError(
            "stale",
            "The intent changed after this was proposed, so the approval would not be about what you see. It is void; the proposer must propose again.",
          ),
        };
      }

      await tx.approval.create({
        data: {
          resolutionId: resolution.id,
          approverId: approver.id,
          decision: input.decision,
          reason: input.reason,
          proposalDigest: resolution.proposalDigest,
          intentVersion: intent.version,
          createdAt: now,
        },
      });
      const audit = {
        actor: auditActor(approver),
        tenantId: resolution.tenantId,
        targetType: "intent",
        targetId: resolution.intentId,
        reason: input.reason,
        evidenceRef: `resolution:${resolution.id}`,
        beforeStatus: intent.status,
        afterStatus: intent.status,
        requestId: approver.requestId,
        occurredAt: now,
      };

      if (input.decision === "denied") {
        const denied = await tx.resolution.update({
          where: { id: resolution.id },
          data: { status: "denied", decidedAt: now },
        });
        await appendAudit(tx, {
          ...audit,
          action: "resolution.denied",
          details: { resolutionId: resolution.id, kind: resolution.kind },
        });
        return { result: { resolution: denied, outcome: "denied", compensationIntentId: null } };
      }

      const approvals = resolution.approvals.filter((a) => a.decision === "approved").length + 1;
      await appendAudit(tx, {
        ...audit,
        action: "resolution.approved",
        details: {
          resolutionId: resolution.id,
          kind: resolution.kind,
          approvals,
          required: resolution.requiredApprovals,
        },
      });
      if (approvals < resolution.requiredApprovals) {
        return { result: { resolution, outcome: "approved_waiting", compensationIntentId: null } };
      }

      const { verdict } = await recheckEvidence(
        tx,
        resolution.kind,
        intent,
        resolution.lookupId,
        resolution.externalEvidenceRef,
        now,
      );
      if (!verdict.ok) {
        await close(tx, approver, resolution, "voided", `evidence no longer holds: ${verdict.reason}`, now);
        return {
          refused: new ResolutionError(
            "evidence",
            `The evidence no longer holds, so it was not applied and is now void: ${verdict.reason}`,
          ),
        };
      }
      const applied = await applyIn(tx, approver, intent, resolution, now);
      return {
        result: {
          resolution: applied.resolution,
          outcome: "applied",
          compensationIntentId: applied.resolution.compensationIntentId,
        },
      };
    });
  } catch (error) {
    // Two tabs of one approver at once: the second vote hits the one-vote-per-person constraint.
    if (
      error instanceof Error &&
      /Unique constraint failed.*approvals_resolution_id_approver_id/s.test(error.message)
    ) {
      throw new ResolutionError("stale", "You already decided on this resolution.");
    }
    if (error instanceof LedgerError && error.code === "stale") {
      throw new ResolutionError(
        "stale",
        "The intent changed at the same moment; nothing was applied. Reload and look again.",
      );
    }
    throw error;
  }
  if ("refused" in outcome) throw outcome.refused;
  return outcome.result;
}

/** Marks every pending request past its window as expired (each audited). */
export async function expireStaleRequests(db: PrismaClient, now = new Date()): Promise<number> {
  const stale = await db.resolution.findMany({
    where: { status: "pending_approval", expiresAt: { lte: now } },
  });
  for (const r of stale) {
    try {
      await db.$transaction((tx) => close(tx, null, r, "expired", "approval window passed", now));
    } catch (error) {
      if (!(error instanceof LedgerError)) throw error;
    }
  }
  return stale.length;
}
