import type { PrismaClient } from "@/prisma/generated/client";
import type { Role } from "@/prisma/generated/enums";
import { appendAudit, type AuditActor } from "@/lib/audit/append";
import { sha256Hex } from "@/lib/digest";
import { normalizeEmail } from "./email";
import { FREE_ATTEMPTS, MAX_LOCK_MINUTES } from "./lockout";
import { burnPasswordCheck, verifyPassword } from "./password";
import { startSession } from "./sessions";

export type SignedInUser = { id: string; email: string; name: string; roles: Role[] };

/**
 * One answer for every refusal — unknown email, wrong password, locked account,
 * throttled client — so the answer says nothing about which accounts exist.
 */
export type SignInResult =
  { ok: true; user: SignedInUser; sessionId: string; expiresAt: Date } | { ok: false };

/** Attempts one client address may make in a window before it is refused outright. */
export const CLIENT_ATTEMPTS = 30;
export const CLIENT_WINDOW_MS = 15 * 60_000;

export { normalizeEmail };

const NOBODY: AuditActor = { id: null, email: null, roles: [] };

/**
 * Counts one attempt from a client address, before anything is checked, and says
 * whether it is still within the window's allowance. Atomic: simultaneous attempts all count.
 */
async function countClientAttempt(prisma: PrismaClient, clientDigest: string, now: Date): Promise<boolean> {
  const since = new Date(now.getTime() - CLIENT_WINDOW_MS);
  const [row] = await prisma.$queryRaw<{ attempts: number }[]>`
    INSERT INTO sign_in_throttle (client_digest, window_start, attempts) VALUES (${clientDigest}, ${now}, 1)
    ON CONFLICT (client_digest) DO UPDATE SET
      attempts = CASE WHEN sign_in_throttle.window_start < ${since} THEN 1 ELSE sign_in_throttle.attempts + 1 END,
      window_start = CASE WHEN sign_in_throttle.window_start < ${since} THEN ${now} ELSE sign_in_throttle.window_start END
    RETURNING attempts`;
  return (row?.attempts ?? 0) <= CLIENT_ATTEMPTS;
}

/**
 * Reserves one attempt on the account by compare-and-set, before the password is
 * checked: every attempt counts at once, however many run at the same moment. The
 * attempt that reaches FREE_ATTEMPTS locks the account in the same statement (1 minute,
 * doubling with each further failure, at most an hour), so attempts running beside it
 * reserve nothing; a success lifts the lock. A locked or disabled account reserves
 * nothing. Returns the hash to check and the lock this attempt set, or null.
 */
async function reserveAccountAttempt(prisma: PrismaClient, userId: string, now: Date) {
  const [row] = await prisma.$queryRaw<
    { failed_sign_ins: number; password_hash: string; locked_until: Date | null }[]
  >`
    UPDATE users SET
      failed_sign_ins = failed_sign_ins + 1,
      locked_until = CASE WHEN failed_sign_ins + 1 >= ${FREE_ATTEMPTS}
        THEN ${now}::timestamptz + LEAST(interval '1 minute' * ${MAX_LOCK_MINUTES},
             interval '1 minute' * power(2, LEAST(failed_sign_ins + 1 - ${FREE_ATTEMPTS}, 20)))
        ELSE NULL END,
      updated_at = ${now}
     WHERE id = ${userId}::uuid AND NOT disabled AND password_hash IS NOT NULL
       AND (locked_until IS NULL OR locked_until <= ${now})
    RETURNING failed_sign_ins, password_hash, locked_until`;
  return row
    ? { attempt: row.failed_sign_ins, passwordHash: row.password_hash, lockedUntil: row.locked_until }
    : null;
}

/**
 * Checks a password sign-in, starts a session on success, and records the outcome in
 * the audit log. Every path costs one scrypt derivation (a dummy one where there is no
 * password to check), so the time taken does not tell the paths apart either. Past
 * FREE_ATTEMPTS consecutive failures the account locks (doubling, up to an hour); while
 * locked, and beyond the allowance, passwords are not even checked. An unknown email is
 * audited by digest only: people do type passwords into the email field.
 */
export async function signInWithPassword(
  prisma: PrismaClient,
  input: {
    email: string;
    password: string;
    clientDigest: string;
    requestId?: string;
    sessionSeconds: number;
  },
  now = new Date(),
): Promise<SignInResult> {
  const email = normalizeEmail(input.email);
  const requestId = input.requestId ?? null;
  const refuse = async (actor: AuditActor, userId: string | null, details: Record<string, unknown>) => {
    await prisma.$transaction((tx) =>
      appendAudit(tx, {
        actor,
        action: "auth.sign_in_failed",
        targetType: "user",
        targetId: userId,
        requestId,
        details: { ...details, emailDigest: sha256Hex(email) },
        occurredAt: now,
      }),
    );
    return { ok: false } as const;
  };

  if (!(await countClientAttempt(prisma, input.clientDigest, now))) {
    await burnPasswordCheck(input.password);
    return refuse(NOBODY, null, { cause: "client_throttled" });
  }
  const user = await prisma.user.findUnique({ where: { email } });
  if (!user) {
    await burnPasswordCheck(input.password);
    return refuse(NOBODY, null, { cause: "unknown_email" });
  }
  const actor = { id: user.id, email: user.email, roles: user.roles };
  const reserved = await reserveAccountAttempt(prisma, user.id, now);
  if (!reserved) {
    await burnPasswordCheck(input.password);
    const cause = user.disabled ? "disabled" : !user.passwordHash ? "no_password" : "locked";
    return refuse(actor, user.id, { cause, lockedUntil: user.lockedUntil?.toISOString() ?? null });
  }
  if (!(await verifyPassword(input.password, reserved.passwordHash))) {
    return refuse(actor, user.id, {
      cause: "wrong_password",
      consecutiveFailures: reserved.attempt,
      lockedUntil: reserved.lockedUntil?.toISOString() ?? null,
    });
  }

  const session = await prisma.$transaction(async (tx) => {
    await tx.user.update({
      where: { id: user.id },
      data: { failedSignIns: 0, lockedUntil: null, lastSignInAt: now },
    });
    // A successful sign-in gives the client address its attempt back.
    await tx.signInThrottle.updateMany({
      where: { clientDigest: input.clientDigest, attempts: { gt: 0 } },
      data: { attempts: { decrement: 1 } },
    });
    const started = await startSession(tx, user.id, "password", input.sessionSeconds, now);
    await appendAudit(tx, {
      actor,
      action: "auth.sign_in",
      targetType: "user",
      targetId: user.id,
      requestId,
      details: { method: "password", sessionId: started.id },
      occurredAt: now,
    });
    return started;
  });
  return {
    ok: true,
    user: { id: user.id, email: user.email, name: user.name, roles: user.roles },
    sessionId: session.id,
    expiresAt: session.expiresAt,
  };
}
