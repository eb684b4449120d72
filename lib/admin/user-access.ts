import type { PrismaClient } from "@/prisma/generated/client";
import { appendAudit } from "@/lib/audit/append";
import { auditActor, type Actor } from "@/lib/auth/actor";
import { authorize } from "@/lib/auth/authorize";
import { transaction } from "@/lib/db/transaction";
import { ResolutionError } from "@/lib/resolution/errors";
import { lastChangeOf, lockUsers, refuseSystem } from "./user-rows";

/**
 * An admin disables or re-enables a user. Disabling ends every live session of theirs
 * in the same transaction (and every request checks the account anyway); for the
 * reconciler's system account it is the off switch: every reconciler stops at its next
 * step. A compare-and-set on the state the admin saw: disabling a disabled user (someone
 * was quicker) is refused naming who, and changes nothing. An admin never disables
 * themselves.
 */
export async function setUserDisabled(
  db: PrismaClient,
  admin: Actor,
  input: { userId: string; disabled: boolean; reason: string },
  now = new Date(),
) {
  return transaction(db, async (tx) => {
    const user = await lockUsers(tx, admin.id, input.userId);
    await authorize(tx, admin, "administer");
    if (input.disabled && user.id === admin.id)
      throw new ResolutionError(
        "invalid",
        "You cannot disable your own account: another admin must (so no one locks the console out).",
      );
    if (user.disabled === input.disabled) {
      const by = await lastChangeOf(tx, user.id, ["user.disabled", "user.enabled"]);
      throw new ResolutionError(
        "stale",
        `${user.name} was already ${input.disabled ? "disabled" : "enabled"}${by}. Nothing was changed.`,
      );
    }
    await tx.user.update({ where: { id: user.id }, data: { disabled: input.disabled, updatedAt: now } });
    const { count: sessionsRevoked } = input.disabled
      ? await tx.session.updateMany({
          where: { userId: user.id, revokedAt: null, expiresAt: { gt: now } },
          data: { revokedAt: now, revokedWhy: `account disabled by ${admin.email}` },
        })
      : { count: 0 };
    await appendAudit(tx, {
      actor: auditActor(admin),
      action: input.disabled ? "user.disabled" : "user.enabled",
      targetType: "user",
      targetId: user.id,
      reason: input.reason,
      requestId: admin.requestId,
      details: {
        email: user.email,
        system: user.system,
        before: { disabled: user.disabled },
        after: { disabled: input.disabled },
        ...(input.disabled ? { sessionsRevoked } : {}),
      },
      occurredAt: now,
    });
    return { disabled: input.disabled, sessionsRevoked };
  });
}

/**
 * An admin lifts a lock that failed sign-ins put on an account (and clears the count),
 * for a person who proved who they are some other way. Refused when there is nothing to
 * clear (another admin, or a successful sign-in, was first) and for system accounts.
 */
export async function unlockUser(
  db: PrismaClient,
  admin: Actor,
  input: { userId: string },
  now = new Date(),
) {
  return transaction(db, async (tx) => {
    const user = await lockUsers(tx, admin.id, input.userId);
    await authorize(tx, admin, "administer");
    refuseSystem(user, "it has no password and never signs in");
    if (user.failedSignIns === 0 && user.lockedUntil === null) {
      const by = await lastChangeOf(tx, user.id, ["user.unlocked"]);
      throw new ResolutionError(
        "stale",
        `${user.name} has no failed sign-ins to clear${by ? ` (last unlocked${by})` : ""}. Nothing was changed.`,
      );
    }
    await tx.user.update({
      where: { id: user.id },
      data: { failedSignIns: 0, lockedUntil: null, updatedAt: now },
    });
    await appendAudit(tx, {
      actor: auditActor(admin),
      action: "user.unlocked",
      targetType: "user",
      targetId: user.id,
      requestId: admin.requestId,
      details: {
        email: user.email,
        before: { failedSignIns: user.failedSignIns, lockedUntil: user.lockedUntil?.toISOString() ?? null },
        after: { failedSignIns: 0, lockedUntil: null },
      },
      occurredAt: now,
    });
    return { cleared: user.failedSignIns };
  });
}
