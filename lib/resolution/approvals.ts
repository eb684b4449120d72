import type { PrismaClient, Resolution } from "@/prisma/generated/client";
import { appendAuditEvents, type AuditInput } from "@/lib/audit/append";
import { isUniqueViolation } from "@/lib/db/errors";
import { transaction } from "@/lib/db/transaction";
import { lockIntent, lockResolution } from "@/lib/ledger/locks";
import { LedgerError } from "@/lib/ledger/protocol";
import { auditActor, type Actor } from "@/lib/auth/actor";
import { authorize } from "@/lib/auth/authorize";
import { ResolutionError } from "./errors";
import { alreadyDecided, closeRequest, staleness } from "./requests";
import { applyIn } from "./apply";
import { proposalDigestOf, recheckEvidence } from "./evidence";

export type Decision = "approved" | "denied";

export type DecisionResult = {
  resolution: Resolution;
  outcome: "approved_waiting" | "applied" | "denied";
  /** Distinct approvals so far, and how many it needs. */
  approvals: number;
  required: number;
  compensationIntentId: string | null;
};

/**
 * An approver's decision on a pending resolution. The two-person rule is enforced
 * here, not in the UI: the approver holds the approver role and not admin, and is
 * neither the proposer nor the person whose lookup it rests on; one denial ends it; an
 * expired request cannot be approved; an approval is bound to the proposal's digest
 * and the intent's version, so any change to the intent meanwhile voids it.
 *
 * Decisions on one request are serialized: the intent's row lock, then the request's,
 * are taken before the request and its approvals are read, so the approvals counted
 * are the ones committed; approve and deny can never both commit, and the last
 * required approval applies the resolution exactly once, in the same transaction,
 * after re-checking its evidence.
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
    outcome = await transaction(db, async (tx): Promise<Outcome> => {
      await authorize(tx, approver, "decide");
      // The intent id never changes, so it may be read before any lock.
      const target = await tx.resolution.findUnique({
        where: { id: input.resolutionId },
        select: { intentId: true },
      });
      if (!target) throw new ResolutionError("not_found", "No such resolution.");
      const intent = (await lockIntent(tx, target.intentId))!;
      await lockResolution(tx, input.resolutionId);
      const resolution = await tx.resolution.findUniqueOrThrow({
        where: { id: input.resolutionId },
        include: { lookup: true, approvals: { include: { approver: { select: { name: true } } } } },
      });
      if (resolution.status !== "pending_approval") throw alreadyDecided(resolution);
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
      const digestNow = proposalDigestOf(resolution);
      const stale =
        staleness(resolution, intent, now) ??
        (digestNow !== resolution.proposalDigest
          ? { status: "voided" as const, why: "the proposal no longer matches its digest" }
          : null);
      if (stale) {
        const event = await closeRequest(tx, approver, resolution, stale.status, stale.why, now);
        if (event) await appendAuditEvents(tx, [event]);
        return {
          refused: new ResolutionError(
            "stale",
            stale.status === "expired"
              ? "This request has expired; nothing was applied. The proposer may propose it again."
              : "The intent changed after this was proposed, so an approval would not be about what you see. The request is void; nothing was applied.",
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
      const approvals = resolution.approvals.filter((a) => a.decision === "approved").length;
      const required = resolution.requiredApprovals;

      if (input.decision === "denied") {
        // We hold the request's lock, so its status is still the pending one we read.
        const denied = await tx.resolution.update({
          where: { id: resolution.id, status: "pending_approval" },
          data: { status: "denied", decidedAt: now },
        });
        await appendAuditEvents(tx, [
          {
            ...audit,
            action: "resolution.denied",
            details: { resolutionId: resolution.id, kind: resolution.kind },
          },
        ]);
        return {
          result: { resolution: denied, outcome: "denied", approvals, required, compensationIntentId: null },
        };
      }

      const events: AuditInput[] = [
        {
          ...audit,
          action: "resolution.approved",
          details: { resolutionId: resolution.id, kind: resolution.kind, approvals: approvals + 1, required },
        },
      ];
      if (approvals + 1 < required) {
        await appendAuditEvents(tx, events);
        return {
          result: {
            resolution,
            outcome: "approved_waiting",
            approvals: approvals + 1,
            required,
            compensationIntentId: null,
          },
        };
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
        const event = await closeRequest(
          tx,
          approver,
          resolution,
          "voided",
          `evidence no longer holds: ${verdict.reason}`,
          now,
        );
        await appendAuditEvents(tx, event ? [...events, event] : events);
        return {
          refused: new ResolutionError(
            "evidence",
            `The evidence no longer holds, so it was not applied and is now void: ${verdict.reason}`,
          ),
        };
      }
      const applied = await applyIn(tx, approver, intent, resolution, now);
      await appendAuditEvents(tx, [...events, applied.audit]);
      return {
        result: {
          resolution: applied.resolution,
          outcome: "applied",
          approvals: approvals + 1,
          required,
          compensationIntentId: applied.resolution.compensationIntentId,
        },
      };
    });
  } catch (error) {
    // Two tabs of one approver at once: the second vote hits the one-vote-per-person constraint.
    if (isUniqueViolation(error, "approvals_resolution_id_approver_id_key")) {
      throw new ResolutionError("invalid", "You already decided on this resolution.");
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

/**
 * Closes every pending request that can no longer be decided: past its approval
 * window (expired), or whose intent changed since it was proposed (voided). Each is
 * closed under the same locks as a decision, so a decision at the same moment either
 * lands first (and this does nothing) or finds the request closed. Returns how many it closed.
 */
export async function closeStaleRequests(db: PrismaClient, now = new Date()): Promise<number> {
  const pending = await db.resolution.findMany({
    where: { status: "pending_approval" },
    select: {
      id: true,
      intentId: true,
      expiresAt: true,
      intentVersion: true,
      intent: { select: { version: true } },
    },
  });
  let closed = 0;
  // Decided again under the locks: what was read here may have changed by then.
  for (const c of pending.filter((p) => staleness(p, p.intent, now))) {
    const event = await transaction(db, async (tx) => {
      const intent = await lockIntent(tx, c.intentId);
      const r = await tx.resolution.findUniqueOrThrow({ where: { id: c.id } });
      if (!intent || r.status !== "pending_approval") return null;
      const stale = staleness(r, intent, now);
      if (!stale) return null;
      const e = await closeRequest(tx, null, r, stale.status, stale.why, now);
      if (e) await appendAuditEvents(tx, [e]);
      return e;
    });
    if (event) closed += 1;
  }
  return closed;
}
