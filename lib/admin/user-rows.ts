import type { Prisma, User } from "@/prisma/generated/client";
import { ROLE_LABELS, type Role } from "@/lib/auth/roles";
import { formatUtc } from "@/lib/format";
import { ResolutionError } from "@/lib/resolution/errors";

type Tx = Prisma.TransactionClient;

/** What the audit log keeps of a user before and after a change: never a password or its hash. */
export function userView(u: Pick<User, "email" | "name" | "roles" | "disabled" | "passwordHash">) {
  return {
    email: u.email,
    name: u.name,
    roles: [...u.roles],
    disabled: u.disabled,
    signIn: u.passwordHash ? "password" : "sso",
  };
}

export const roleNames = (roles: readonly Role[]) =>
  roles.length ? roles.map((r) => ROLE_LABELS[r]).join(", ") : "no roles";

export const sameRoles = (a: readonly Role[], b: readonly Role[]) =>
  a.length === b.length && a.every((r) => b.includes(r));

/**
 * Locks the target user's row and the acting admin's, in id order (one order everywhere,
 * so two admins' changes queue instead of deadlocking), then reads the target as it is
 * now. Holding the actor's row too is what keeps two admins from taking each other's
 * admin role away at the same moment: the second waits, then finds it is no admin.
 */
export async function lockUsers(tx: Tx, actorId: string, targetId: string): Promise<User> {
  await tx.$queryRaw`SELECT id FROM users WHERE id IN (${actorId}::uuid, ${targetId}::uuid) ORDER BY id FOR UPDATE`;
  const user = await tx.user.findUnique({ where: { id: targetId } });
  if (!user) throw new ResolutionError("not_found", "No such user.");
  return user;
}

/** "by ada@example.com at 2026-12-01 10:00 UTC", from the newest audit event of these kinds on the user. */
export async function lastChangeOf(tx: Tx, userId: string, actions: string[]): Promise<string> {
  const event = await tx.auditEvent.findFirst({
    where: { targetType: "user", targetId: userId, action: { in: actions } },
    orderBy: { seq: "desc" },
    select: { actorEmail: true, occurredAt: true },
  });
  return event ? ` by ${event.actorEmail ?? "the system"} at ${formatUtc(event.occurredAt, "minute")}` : "";
}

/** The reconciler and other machine accounts: their roles are fixed, they never sign in. */
export function refuseSystem(user: User, what: string) {
  if (user.system)
    throw new ResolutionError(
      "invalid",
      `${user.name} is a system account (the reconciler): ${what}. Only disabling or enabling it is allowed.`,
    );
}
