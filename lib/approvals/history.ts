import "server-only";
import type { PrismaClient } from "@/prisma/generated/client";
import { KIND_LABELS } from "@/lib/resolution/requests";

/** Decided and closed requests, read-only, for the queue's other tabs. */

const HOURS_24 = 24 * 3_600_000;

/** This approver's own decisions, newest first (the last day's, or the last 100). */
export async function decisionsBy(
  db: PrismaClient,
  approverId: string,
  o: { lastDay: boolean },
  now = new Date(),
) {
  return db.approval.findMany({
    where: { approverId, ...(o.lastDay ? { createdAt: { gte: new Date(now.getTime() - HOURS_24) } } : {}) },
    orderBy: { createdAt: "desc" },
    take: o.lastDay ? 20 : 100,
    include: {
      resolution: {
        include: {
          intent: { select: { tenantId: true, intentKey: true, status: true } },
          approvals: { select: { decision: true } },
        },
      },
    },
  });
}

export type Decision = Awaited<ReturnType<typeof decisionsBy>>[number];

/** What settled the intent after a request was made: the resolution applied, or the ledger event that moved it. */
export type Aftermath =
  | { by: "resolution"; kind: string; proposer: string; approvers: string[]; at: Date | null }
  | { by: "event"; actor: string; action: string; status: string; at: Date }
  | null;

const OPEN = new Set(["unknown", "prepared", "dispatched"]);

/** Voided and expired requests, newest first, each with why it closed and what happened to its intent since. */
export async function closedRequests(db: PrismaClient, take = 50) {
  const closed = await db.resolution.findMany({
    where: { status: { in: ["voided", "expired"] } },
    orderBy: [{ decidedAt: "desc" }, { createdAt: "desc" }],
    take,
    include: {
      intent: { select: { id: true, tenantId: true, intentKey: true, status: true, version: true } },
      proposedBy: { select: { name: true } },
      approvals: { include: { approver: { select: { name: true } } } },
    },
  });
  const ids = closed.map((r) => `resolution:${r.id}`);
  const closings = await db.auditEvent.findMany({
    where: { evidenceRef: { in: ids }, action: { in: ["resolution.voided", "resolution.expired"] } },
    select: { evidenceRef: true, reason: true },
  });
  const why = new Map(closings.map((e) => [e.evidenceRef, e.reason]));
  return Promise.all(
    closed.map(async (r) => ({
      request: r,
      why: why.get(`resolution:${r.id}`) ?? null,
      aftermath: OPEN.has(r.intent.status) ? null : await aftermathOf(db, r.intent.id, r.createdAt),
    })),
  );
}

export type ClosedRequest = Awaited<ReturnType<typeof closedRequests>>[number];

async function aftermathOf(db: PrismaClient, intentId: string, since: Date): Promise<Aftermath> {
  // Whatever applied after this request was made: a later request, or an earlier twin that won.
  const twin = await db.resolution.findFirst({
    where: { intentId, status: "applied", decidedAt: { gte: since } },
    orderBy: { decidedAt: "asc" },
    include: {
      proposedBy: { select: { name: true } },
      approvals: { where: { decision: "approved" }, include: { approver: { select: { name: true } } } },
    },
  });
  if (twin)
    return {
      by: "resolution",
      kind: KIND_LABELS[twin.kind],
      proposer: twin.proposedBy.name,
      approvers: twin.approvals.map((a) => a.approver.name),
      at: twin.decidedAt,
    };
  const moved = await db.auditEvent.findFirst({
    where: {
      targetType: "intent",
      targetId: intentId,
      occurredAt: { gte: since },
      afterStatus: { notIn: ["unknown", "prepared", "dispatched"] },
      NOT: { afterStatus: null },
    },
    orderBy: { occurredAt: "asc" },
    select: { actorEmail: true, actorId: true, action: true, afterStatus: true, occurredAt: true },
  });
  if (!moved) return null;
  const actor = moved.actorId
    ? await db.user.findUnique({ where: { id: moved.actorId }, select: { name: true, system: true } })
    : null;
  return {
    by: "event",
    actor: actor
      ? actor.system
        ? `${actor.name} (automatic)`
        : actor.name
      : (moved.actorEmail ?? "the system"),
    action: moved.action,
    status: moved.afterStatus!,
    at: moved.occurredAt,
  };
}
