import type { PrismaClient } from "@/lib/generated/prisma/client";
import type { Role } from "@/lib/generated/prisma/enums";
import { appendAudit } from "@/lib/audit/append";
import { sha256Hex } from "@/lib/ledger/digest";
import { isLocked, lockUntilAfterFailure } from "./lockout";
import { burnPasswordCheck, verifyPassword } from "./password";

export type SignedInUser = { id: string; email: string; name: string; roles: Role[] };

export type SignInResult =
  | { ok: true; user: SignedInUser }
  | { ok: false; reason: "invalid" }
  | { ok: false; reason: "locked"; retryAt: Date };

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * Checks a password sign-in and records the outcome in the audit log. Failed
 * attempts count towards a lock; while locked the password is not even checked,
 * so guessing stops. An unknown email is audited by digest only: people do type
 * passwords into the email field.
 */
export async function signInWithPassword(
  prisma: PrismaClient,
  input: { email: string; password: string; requestId?: string },
  now = new Date(),
): Promise<SignInResult> {
  const email = normalizeEmail(input.email);
  const user = await prisma.user.findUnique({ where: { email } });
  const requestId = input.requestId ?? null;

  if (!user || !user.passwordHash || user.disabled) {
    await burnPasswordCheck(input.password);
    await prisma.$transaction((tx) =>
      appendAudit(tx, {
        actor: user
          ? { id: user.id, email: user.email, roles: user.roles }
          : { id: null, email: null, roles: [] },
        action: "auth.sign_in_failed",
        targetType: "user",
        targetId: user?.id ?? null,
        requestId,
        details: {
          cause: user ? (user.disabled ? "disabled" : "no_password") : "unknown_email",
          emailDigest: sha256Hex(email),
        },
        occurredAt: now,
      }),
    );
    return { ok: false, reason: "invalid" };
  }

  const actor = { id: user.id, email: user.email, roles: user.roles };
  if (isLocked(user.lockedUntil, now)) {
    await prisma.$transaction((tx) =>
      appendAudit(tx, {
        actor,
        action: "auth.sign_in_failed",
        targetType: "user",
        targetId: user.id,
        requestId,
        details: { cause: "locked", lockedUntil: user.lockedUntil!.toISOString() },
        occurredAt: now,
      }),
    );
    return { ok: false, reason: "locked", retryAt: user.lockedUntil! };
  }

  if (!(await verifyPassword(input.password, user.passwordHash))) {
    const lockedUntil = await prisma.$transaction(async (tx) => {
      const updated = await tx.user.update({
        where: { id: user.id },
        data: { failedSignIns: { increment: 1 } },
      });
      const until = lockUntilAfterFailure(updated.failedSignIns, now);
      if (until) await tx.user.update({ where: { id: user.id }, data: { lockedUntil: until } });
      await appendAudit(tx, {
        actor,
        action: "auth.sign_in_failed",
        targetType: "user",
        targetId: user.id,
        requestId,
        details: {
          cause: "wrong_password",
          consecutiveFailures: updated.failedSignIns,
          lockedUntil: until?.toISOString() ?? null,
        },
        occurredAt: now,
      });
      return until;
    });
    return lockedUntil
      ? { ok: false, reason: "locked", retryAt: lockedUntil }
      : { ok: false, reason: "invalid" };
  }

  await prisma.$transaction(async (tx) => {
    await tx.user.update({
      where: { id: user.id },
      data: { failedSignIns: 0, lockedUntil: null, lastSignInAt: now },
    });
    await appendAudit(tx, {
      actor,
      action: "auth.sign_in",
      targetType: "user",
      targetId: user.id,
      requestId,
      details: { method: "password" },
      occurredAt: now,
    });
  });
  return { ok: true, user: { id: user.id, email: user.email, name: user.name, roles: user.roles } };
}
