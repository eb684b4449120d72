import "server-only";
import type { PrismaClient } from "@/prisma/generated/client";
import type { Role } from "@/lib/auth/roles";
import { mayPerform } from "@/lib/auth/authorize";
import { KIND_LABELS, staleness } from "@/lib/resolution/requests";

/**
 * The approval queue, read-only: what waits, who may still decide each request, and
 * how many a given approver may decide. The rules are lib/resolution/approvals.ts's
 * (the proposer, the person whose lookup it cites and anyone who already voted never
 * decide; an admin never approves); they are only mirrored here to show them, and the
 * service checks them again when someone decides.
 */

export type Person = { id: string; name: string };

/** Everyone who may decide at all: approvers, never admins, never disabled or system accounts. */
export async function approversOnDuty(db: PrismaClient): Promise<Person[]> {
  const people = await db.user.findMany({
    where: { roles: { has: "approver" }, disabled: false, system: false },
    select: { id: true, name: true, roles: true },
    orderBy: { name: "asc" },
  });
  return people.filter((p) => mayPerform(p.roles, "decide")).map(({ id, name }) => ({ id, name }));
}

type Excluded = {
  proposedById: string;
  lookup: { actorId: string | null } | null;
  approvals: { approverId: string }[];
};

/** Whether this person may still decide on this request (before the service re-checks it). */
export function mayStillDecide(r: Excluded, person: { id: string; roles: readonly Role[] }): boolean {
  return (
    mayPerform(person.roles, "decide") &&
    r.proposedById !== person.id &&
    r.lookup?.actorId !== person.id &&
    !r.approvals.some((a) => a.approverId === person.id)
  );
}

export function whoMayStillDecide(r: Excluded, onDuty: Person[]): Person[] {
  return onDuty.filter(
    (p) =>
      p.id !== r.proposedById &&
      p.id !== r.lookup?.actorId &&
      !r.approvals.some((a) => a.approverId === p.id),
  );
}

/** Requests still open: pending, within their window, on the intent version they were proposed on. */
export async function waitingRequests(db: PrismaClient, now = new Date()) {
  const pending = await db.resolution.findMany({
    where: { status: "pending_approval" },
    orderBy: { createdAt: "asc" },
    include: {
      intent: { include: { provider: { select: { name: true } } } },
      proposedBy: { select: { name: true } },
      lookup: { include: { actor: { select: { name: true, system: true } } } },
      approvals: { include: { approver: { select: { name: true } } }, orderBy: { createdAt: "asc" } },
    },
  });
  return pending.filter((r) => !staleness(r, r.intent, now));
}

export type WaitingRequest = Awaited<ReturnType<typeof waitingRequests>>[number];

export type WaitingSummary = {
  /** How many open requests this person may decide. */
  count: number;
  /** Those requests, oldest first, as a person is told about them. */
  requests: { id: string; label: string }[];
  /** Changes whenever the queue does (a request arrives, leaves, or gets a vote). */
  signature: string;
};

export function requestLabel(r: { kind: keyof typeof KIND_LABELS; intent: { intentKey: string } }) {
  return `${KIND_LABELS[r.kind]} for ${r.intent.intentKey}`;
}

/** What the navigation's count and the queue's live refresh poll. */
export async function waitingSummary(
  db: PrismaClient,
  person: { id: string; roles: readonly Role[] },
  now = new Date(),
): Promise<WaitingSummary> {
  if (!mayPerform(person.roles, "decide")) return { count: 0, requests: [], signature: "" };
  const open = await db.resolution.findMany({
    where: { status: "pending_approval" },
    orderBy: { createdAt: "asc" },
    select: {
      id: true,
      kind: true,
      expiresAt: true,
      intentVersion: true,
      proposedById: true,
      intent: { select: { intentKey: true, version: true } },
      lookup: { select: { actorId: true } },
      approvals: { select: { approverId: true } },
    },
  });
  const live = open.filter((r) => !staleness(r, r.intent, now));
  const mine = live.filter((r) => mayStillDecide(r, person));
  return {
    count: mine.length,
    requests: mine.map((r) => ({ id: r.id, label: requestLabel(r) })),
    signature: live.map((r) => `${r.id}:${r.approvals.length}`).join(","),
  };
}
