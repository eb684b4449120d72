import "server-only";
import type { Prisma, PrismaClient } from "@/prisma/generated/client";
import { isLocked } from "@/lib/auth/lockout";

const SELECT = {
  id: true,
  email: true,
  name: true,
  roles: true,
  disabled: true,
  system: true,
  passwordHash: true,
  lastSignInAt: true,
  lockedUntil: true,
  failedSignIns: true,
  createdAt: true,
  updatedAt: true,
} as const;

/** A user's state in words: what the list and the user's page show. */
function stateOf(
  u: { disabled: boolean; system: boolean; lockedUntil: Date | null; failedSignIns: number },
  now: Date,
) {
  if (u.disabled) return u.system ? "Disabled — the reconciler is off" : "Disabled";
  if (isLocked(u.lockedUntil, now)) return `Locked until ${u.lockedUntil!.toISOString().slice(11, 16)} UTC`;
  if (u.failedSignIns > 0) return `${u.failedSignIns} failed sign-in(s)`;
  return "Active";
}

async function liveSessions(db: PrismaClient, now: Date, userId?: string) {
  const live = await db.session.groupBy({
    by: ["userId"],
    where: { revokedAt: null, expiresAt: { gt: now }, ...(userId ? { userId } : {}) },
    _count: true,
  });
  return new Map(live.map((l) => [l.userId, l._count]));
}

type Row = Prisma.UserGetPayload<{ select: typeof SELECT }>;

// The password hash never leaves this module: only whether there is one.
function view({ passwordHash, ...u }: Row, now: Date, live: Map<string, number>) {
  return {
    ...u,
    signsInWith: u.system ? ("never" as const) : passwordHash ? ("password" as const) : ("sso" as const),
    locked: isLocked(u.lockedUntil, now),
    state: stateOf(u, now),
    liveSessions: live.get(u.id) ?? 0,
  };
}

export type UserView = ReturnType<typeof view>;

/** Every user, people first by email, then system accounts, with their state and live sessions. */
export async function loadUsers(db: PrismaClient, now = new Date()): Promise<UserView[]> {
  const [users, live] = await Promise.all([
    db.user.findMany({ orderBy: [{ system: "asc" }, { email: "asc" }], select: SELECT }),
    liveSessions(db, now),
  ]);
  return users.map((u) => view(u, now, live));
}

/** One user, or null. */
export async function loadUser(db: PrismaClient, id: string, now = new Date()): Promise<UserView | null> {
  const u = await db.user.findUnique({ where: { id }, select: SELECT });
  return u ? view(u, now, await liveSessions(db, now, id)) : null;
}
