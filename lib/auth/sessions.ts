import type { Prisma, PrismaClient } from "@/prisma/generated/client";
import { appendAudit, type AuditActor } from "@/lib/audit/append";
import { transaction } from "@/lib/db/transaction";
import { authorize } from "@/lib/auth/authorize";
import type { Actor } from "@/lib/auth/actor";

type Db = PrismaClient | Prisma.TransactionClient;

/** Starts a session row; the session cookie carries its id. */
export function startSession(
  db: Db,
  userId: string,
  method: "password" | "oidc",
  seconds: number,
  now = new Date(),
) {
  return db.session.create({
    data: { userId, method, createdAt: now, expiresAt: new Date(now.getTime() + seconds * 1000) },
  });
}

/**
 * The user behind a session, if the session is live: not revoked, not expired, its
 * user not disabled. Checked on every request, so revocation is immediate.
 */
export async function liveSessionUser(db: Db, sessionId: string, userId: string, now = new Date()) {
  const session = await db.session.findUnique({
    where: { id: sessionId },
    select: {
      userId: true,
      expiresAt: true,
      revokedAt: true,
      user: { select: { id: true, email: true, name: true, roles: true, disabled: true, system: true } },
    },
  });
  if (!session || session.userId !== userId || session.revokedAt || session.expiresAt <= now) return null;
  if (session.user.disabled || session.user.system) return null;
  return session.user;
}

/** Signing out ends this session at once (a stolen copy of the cookie stops working too). */
export async function endSession(
  db: PrismaClient,
  actor: AuditActor & { id: string },
  sessionId: string,
  requestId?: string,
  now = new Date(),
): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.session.updateMany({
      where: { id: sessionId, userId: actor.id, revokedAt: null },
      data: { revokedAt: now, revokedWhy: "signed out" },
    });
    if (count !== 1) return false;
    await appendAudit(tx, {
      actor,
      action: "auth.sign_out",
      targetType: "user",
      targetId: actor.id,
      requestId,
      details: { sessionId },
      occurredAt: now,
    });
    return true;
  });
}

/** An admin ends every live session of a user (a lost laptop, a departure). Audited. */
export async function revokeSessions(
  db: PrismaClient,
  admin: Actor,
  input: { userId: string; reason: string },
  now = new Date(),
): Promise<number> {
  return transaction(db, async (tx) => {
    await authorize(tx, admin, "administer");
    const user = await tx.user.findUnique({ where: { id: input.userId }, select: { id: true, email: true } });
    if (!user) return 0;
    const { count } = await tx.session.updateMany({
      where: { userId: user.id, revokedAt: null, expiresAt: { gt: now } },
      data: { revokedAt: now, revokedWhy: `revoked by ${admin.email}` },
    });
    await appendAudit(tx, {
      actor: { id: admin.id, email: admin.email, roles: admin.roles },
      action: "auth.sessions_revoked",
      targetType: "user",
      targetId: user.id,
      reason: input.reason,
      requestId: admin.requestId,
      details: { sessions: count, email: user.email },
      occurredAt: now,
    });
    return count;
  });
}
