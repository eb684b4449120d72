import { randomBytes } from "node:crypto";
import type { PrismaClient } from "@/prisma/generated/client";
import { appendAudit } from "@/lib/audit/append";
import { auditActor, type Actor } from "@/lib/auth/actor";
import { authorize, rolesConflict } from "@/lib/auth/authorize";
import { normalizeEmail } from "@/lib/auth/email";
import { hashPassword } from "@/lib/auth/password";
import { ROLES, type Role } from "@/lib/auth/roles";
import { isUniqueViolation } from "@/lib/db/errors";
import { transaction } from "@/lib/db/transaction";
import { ResolutionError } from "@/lib/resolution/errors";
import { lastChangeOf, lockUsers, refuseSystem, roleNames, sameRoles, userView } from "./user-rows";

/** Roles in their usual order, each once; refused when empty or when they break separation of duties. */
function grantable(roles: readonly Role[]): Role[] {
  const ordered = ROLES.filter((r) => roles.includes(r));
  if (ordered.length === 0) throw new ResolutionError("invalid", "Choose at least one role.");
  const conflict = rolesConflict(ordered);
  if (conflict) throw new ResolutionError("invalid", conflict);
  return ordered;
}

/** A one-time password for the admin to hand over: 144 random bits, shown once, stored only as its scrypt hash. */
function initialPassword(): string {
  return randomBytes(18).toString("base64url");
}

export type NewUser = {
  email: string;
  name: string;
  roles: Role[];
  /** "password": a one-time initial password, returned once; "sso": no password, single sign-on only. */
  signIn: "password" | "sso";
};

/**
 * An admin creates a user. With a password, the answer carries it once (the database
 * keeps only its hash, the audit log neither); without one, the person can sign in only
 * by single sign-on, so that must be configured (`ssoAvailable`).
 */
export async function createUser(
  db: PrismaClient,
  admin: Actor,
  input: NewUser,
  options: { ssoAvailable: boolean },
  now = new Date(),
) {
  const email = normalizeEmail(input.email);
  const roles = grantable(input.roles);
  if (input.signIn === "sso" && !options.ssoAvailable)
    throw new ResolutionError(
      "invalid",
      "Single sign-on is not configured here: give the user a one-time initial password.",
    );
  const password = input.signIn === "password" ? initialPassword() : null;
  // Hashed before the transaction: its body only touches the database.
  const passwordHash = password ? await hashPassword(password) : null;
  const taken = () => new ResolutionError("invalid", `A user with the email ${email} already exists.`);
  try {
    return await transaction(db, async (tx) => {
      await authorize(tx, admin, "administer");
      if (await tx.user.findUnique({ where: { email }, select: { id: true } })) throw taken();
      const user = await tx.user.create({
        data: { email, name: input.name, roles, passwordHash, createdAt: now, updatedAt: now },
      });
      await appendAudit(tx, {
        actor: auditActor(admin),
        action: "user.created",
        targetType: "user",
        targetId: user.id,
        requestId: admin.requestId,
        details: { before: null, after: userView(user) },
        occurredAt: now,
      });
      return {
        user: { id: user.id, email: user.email, name: user.name, roles: user.roles },
        initialPassword: password,
      };
    });
  } catch (error) {
    // Two admins creating one email at once: the unique index decides.
    if (isUniqueViolation(error)) throw taken();
    throw error;
  }
}

/**
 * An admin sets a user's roles. A compare-and-set on the roles the admin's form showed
 * (`expectedRoles`), under the row locks of lockUsers: of two admins changing one user's
 * roles from the same screen at the same moment exactly one wins, and the other is told
 * what the roles are now — never a silent overwrite. Refused: a combination separation
 * of duties forbids, a system account, and an admin taking their own admin role away.
 */
export async function setUserRoles(
  db: PrismaClient,
  admin: Actor,
  input: { userId: string; roles: Role[]; expectedRoles: Role[]; reason: string },
  now = new Date(),
) {
  const roles = grantable(input.roles);
  return transaction(db, async (tx) => {
    const user = await lockUsers(tx, admin.id, input.userId);
    await authorize(tx, admin, "administer");
    refuseSystem(user, "its roles are fixed");
    if (!sameRoles(user.roles, input.expectedRoles)) {
      const by = await lastChangeOf(tx, user.id, ["user.created", "user.roles_changed"]);
      throw new ResolutionError(
        "stale",
        `${user.name}'s roles were changed meanwhile${by}: now ${roleNames(user.roles)}. Nothing was changed; choose again.`,
      );
    }
    if (sameRoles(user.roles, roles)) return { user, changed: false };
    if (user.id === admin.id && user.roles.includes("admin") && !roles.includes("admin"))
      throw new ResolutionError(
        "invalid",
        "You cannot take away your own admin role: another admin must (so no one locks the console out).",
      );
    const updated = await tx.user.update({ where: { id: user.id }, data: { roles, updatedAt: now } });
    await appendAudit(tx, {
      actor: auditActor(admin),
      action: "user.roles_changed",
      targetType: "user",
      targetId: user.id,
      reason: input.reason,
      requestId: admin.requestId,
      details: { email: user.email, before: { roles: user.roles }, after: { roles: updated.roles } },
      occurredAt: now,
    });
    return { user: updated, changed: true };
  });
}
