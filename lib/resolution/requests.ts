import type { Approval, EffectIntent, Prisma, Resolution } from "@/prisma/generated/client";
import { SYSTEM_ACTOR, type AuditInput } from "@/lib/audit/append";
import { formatUtc } from "@/lib/format";
import { lockResolution } from "@/lib/ledger/locks";
import { auditActor, type Actor } from "@/lib/auth/actor";
import { ResolutionError } from "./errors";

/** Approval requests: what makes one stale, how it is closed, and how people are told about it. */

export const KIND_LABELS: Record<Resolution["kind"], string> = {
  accept_receipt: "accept receipt",
  mark_rejected: "mark rejected",
  start_compensation: "start compensation",
  escalate: "escalate",
};

type WithVotes = Resolution & { approvals: (Approval & { approver?: { name: string } | null })[] };

export function approvalProgress(r: WithVotes): string {
  const approved = r.approvals.filter((a) => a.decision === "approved").length;
  return `${approved} of ${r.requiredApprovals} approval${r.requiredApprovals === 1 ? "" : "s"}`;
}

/** Why a pending request can no longer be decided, if it cannot: past its window, or the intent moved on. */
export function staleness(
  r: Pick<Resolution, "expiresAt" | "intentVersion">,
  intent: Pick<EffectIntent, "version">,
  now: Date,
): { status: "expired" | "voided"; why: string } | null {
  if (r.expiresAt && r.expiresAt <= now) return { status: "expired", why: "approval window passed" };
  if (intent.version !== r.intentVersion)
    return {
      status: "voided",
      why: `intent changed (v${r.intentVersion} → v${intent.version}) after the proposal`,
    };
  return null;
}

/**
 * Closes a pending request as expired or voided by compare-and-set on its status, in
 * the caller's transaction (which holds the intent's lock). Returns the audit event to
 * append, or null when someone else closed or decided it first: no change, no event.
 */
export async function closeRequest(
  tx: Prisma.TransactionClient,
  actor: Actor | null,
  r: Resolution,
  status: "expired" | "voided",
  why: string,
  now: Date,
): Promise<AuditInput | null> {
  await lockResolution(tx, r.id);
  const { count } = await tx.resolution.updateMany({
    where: { id: r.id, status: "pending_approval" },
    data: { status, decidedAt: now },
  });
  if (count !== 1) return null;
  return {
    actor: actor ? auditActor(actor) : SYSTEM_ACTOR,
    action: status === "expired" ? "resolution.expired" : "resolution.voided",
    tenantId: r.tenantId,
    targetType: "intent",
    targetId: r.intentId,
    reason: why,
    evidenceRef: `resolution:${r.id}`,
    requestId: actor?.requestId,
    details: { resolutionId: r.id, kind: r.kind },
    occurredAt: now,
  };
}

/** "Already denied by Ann at …": what a person who came second is told, naming what happened. */
export function alreadyDecided(r: WithVotes): ResolutionError {
  const names = (decision: "approved" | "denied") =>
    r.approvals
      .filter((a) => a.decision === decision)
      .map((a) => a.approver?.name ?? "an approver")
      .join(" and ");
  switch (r.status) {
    case "applied":
      return new ResolutionError(
        "stale",
        r.approvals.length > 0
          ? `This request was already applied (approved by ${names("approved")}, ${formatUtc(r.decidedAt, "minute")}).`
          : "This request was already applied.",
      );
    case "denied": {
      const denial = r.approvals.find((a) => a.decision === "denied");
      return new ResolutionError(
        "stale",
        `This request was already denied by ${names("denied")} at ${formatUtc(r.decidedAt, "minute")}${denial ? `: “${denial.reason}”` : ""}. Nothing was applied.`,
      );
    }
    case "expired":
      return new ResolutionError(
        "stale",
        `This request already expired at ${formatUtc(r.expiresAt, "minute")}; nothing was applied.`,
      );
    case "voided":
      return new ResolutionError(
        "stale",
        "This request is void: the intent changed after it was proposed, so nothing was applied.",
      );
    default:
      return new ResolutionError("stale", `This request is already ${r.status.replace(/_/g, " ")}.`);
  }
}

/**
 * The one-open-request rule, checked under the intent's lock before a new proposal: a
 * live pending request refuses it (naming the request and its progress); a stale one is
 * closed first (its event is added to `events`).
 */
export async function settleOpenRequest(
  tx: Prisma.TransactionClient,
  actor: Actor,
  intent: EffectIntent,
  now: Date,
  events: AuditInput[],
): Promise<void> {
  const open = await tx.resolution.findFirst({
    where: { intentId: intent.id, status: "pending_approval" },
    include: { approvals: true, proposedBy: { select: { name: true } } },
  });
  if (!open) return;
  const stale = staleness(open, intent, now);
  if (stale) {
    const event = await closeRequest(tx, actor, open, stale.status, stale.why, now);
    if (event) events.push(event);
    return;
  }
  throw new ResolutionError(
    "pending",
    `A ${KIND_LABELS[open.kind]} request for this intent is already waiting for approval (${approvalProgress(open)}, proposed by ${open.proposedBy.name} at ${formatUtc(open.createdAt, "minute")}). An approver decides on it in Approvals; propose again only once it is decided or expired.`,
  );
}
