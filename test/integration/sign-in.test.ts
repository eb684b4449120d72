import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { AuthError } from "@/lib/auth/errors";
import { FREE_ATTEMPTS, lockUntilAfterFailure } from "@/lib/auth/lockout";
import { hashPassword } from "@/lib/auth/password";
import { endSession, liveSessionUser, revokeSessions } from "@/lib/auth/sessions";
import { CLIENT_ATTEMPTS, signInWithPassword } from "@/lib/auth/sign-in";
import { freshPostgres, type TestDatabase } from "./support";

// Counts scrypt derivations, to prove every sign-in path costs exactly one.
const derivations = vi.hoisted(() => ({ count: 0 }));
vi.mock("node:crypto", async (original) => {
  const real = await original<typeof import("node:crypto")>();
  return {
    ...real,
    scrypt: (...args: Parameters<typeof real.scrypt>) => {
      derivations.count += 1;
      return (real.scrypt as (...a: unknown[]) => void)(...args);
    },
  };
});

let database: TestDatabase;
const PASSWORD = "correct horse";
beforeAll(async () => {
  database = await freshPostgres();
  const passwordHash = await hashPassword(PASSWORD);
  await database.prisma.user.createMany({
    data: [
      { email: "ok@demo.test", name: "Ok", roles: ["operator"], passwordHash },
      { email: "lock@demo.test", name: "Lock", roles: ["auditor"], passwordHash },
      { email: "race@demo.test", name: "Race", roles: ["approver"], passwordHash },
      { email: "off@demo.test", name: "Off", roles: ["admin"], passwordHash, disabled: true },
      { email: "admin@demo.test", name: "Admin", roles: ["admin"], passwordHash },
    ],
  });
});
afterAll(async () => database.dispose());

const at = (iso: string) => new Date(iso);
// Each test signs in from its own client address unless it says otherwise.
let client = "";
beforeEach(() => {
  client = randomUUID().replace(/-/g, "").padEnd(64, "0");
});
const signIn = (email: string, password: string, now?: Date, clientDigest = client, requestId?: string) =>
  signInWithPassword(
    database.prisma,
    { email, password, clientDigest, requestId, sessionSeconds: 3600 },
    now,
  );
const userBy = (email: string) => database.prisma.user.findUniqueOrThrow({ where: { email } });

describe("password sign-in", () => {
  it("admits the right password, case-insensitively by email, starts a session and audits it", async () => {
    const result = await signIn("  OK@demo.test ", PASSWORD, undefined, client, "req-1");
    expect(result).toMatchObject({ ok: true, user: { email: "ok@demo.test", roles: ["operator"] } });
    if (!result.ok) throw new Error("not signed in");
    const event = await database.prisma.auditEvent.findFirstOrThrow({ where: { requestId: "req-1" } });
    expect(event).toMatchObject({
      action: "auth.sign_in",
      actorEmail: "ok@demo.test",
      actorRoles: ["operator"],
    });
    expect(event.details).toMatchObject({ sessionId: result.sessionId });
    expect(await liveSessionUser(database.prisma, result.sessionId, result.user.id)).toMatchObject({
      email: "ok@demo.test",
    });
  });

  it("gives the same answer, at the same cost, for an unknown email, a wrong password, a locked and a disabled account", async () => {
    const answers = [];
    const costs = [];
    for (const [email, password] of [
      ["nobody@demo.test", PASSWORD],
      ["ok@demo.test", "wrong"],
      ["off@demo.test", PASSWORD],
    ] as const) {
      derivations.count = 0;
      answers.push(await signIn(email, password));
      costs.push(derivations.count);
    }
    await database.prisma.user.update({
      where: { email: "lock@demo.test" },
      data: { lockedUntil: new Date(Date.now() + 60_000) },
    });
    derivations.count = 0;
    answers.push(await signIn("lock@demo.test", PASSWORD));
    costs.push(derivations.count);
    await database.prisma.user.update({ where: { email: "lock@demo.test" }, data: { lockedUntil: null } });
    expect(answers).toEqual([{ ok: false }, { ok: false }, { ok: false }, { ok: false }]);
    expect(costs).toEqual([1, 1, 1, 1]);
  });

  it("locks after repeated failures, refuses even the right password while locked, and lets in after", async () => {
    const t0 = at("2026-11-29T10:00:00Z");
    for (let i = 1; i <= FREE_ATTEMPTS; i++)
      expect(await signIn("lock@demo.test", `guess-${i}`, t0)).toEqual({ ok: false });
    // The lock the database set is the one the policy names.
    expect((await userBy("lock@demo.test")).lockedUntil).toEqual(lockUntilAfterFailure(FREE_ATTEMPTS, t0));
    derivations.count = 0;
    expect(await signIn("lock@demo.test", PASSWORD, at("2026-11-29T10:00:30Z"))).toEqual({ ok: false });
    expect(derivations.count).toBe(1);
    // One more failure after the lock ends doubles it.
    expect(await signIn("lock@demo.test", "guess-again", at("2026-11-29T10:01:01Z"))).toEqual({ ok: false });
    expect((await userBy("lock@demo.test")).lockedUntil).toEqual(
      lockUntilAfterFailure(FREE_ATTEMPTS + 1, at("2026-11-29T10:01:01Z")),
    );
    const after = await signIn("lock@demo.test", PASSWORD, at("2026-11-29T10:03:02Z"));
    expect(after.ok).toBe(true);
    expect(await userBy("lock@demo.test")).toMatchObject({ failedSignIns: 0, lockedUntil: null });
  });

  it("counts simultaneous attempts: of 40 at once, at most the free ones are checked, and the account locks", async () => {
    const guesses = Array.from({ length: 40 }, (_, i) => (i === 20 ? PASSWORD : `guess-${i}`));
    const results = await Promise.all(
      guesses.map((g, i) =>
        signIn("race@demo.test", g, undefined, `${client.slice(0, 60)}${String(i).padStart(4, "0")}`),
      ),
    );
    const user = await userBy("race@demo.test");
    const checked = await database.prisma.auditEvent.count({
      where: {
        targetId: user.id,
        OR: [
          { action: "auth.sign_in" },
          { action: "auth.sign_in_failed", details: { path: ["cause"], equals: "wrong_password" } },
        ],
      },
    });
    expect(checked).toBeLessThanOrEqual(FREE_ATTEMPTS);
    // Whether or not the right password was among the checked ones, nothing beyond them got in.
    const admitted = results.filter((r) => r.ok).length;
    expect(admitted).toBeLessThanOrEqual(1);
    if (admitted === 0) {
      expect(user.lockedUntil!.getTime()).toBeGreaterThan(Date.now());
      expect(await signIn("race@demo.test", PASSWORD)).toEqual({ ok: false });
    }
  });

  it("throttles one client address across accounts, whatever the account", async () => {
    const attacker = client;
    for (let i = 0; i < CLIENT_ATTEMPTS; i++)
      await signIn(`nobody-${i}@demo.test`, "guess", undefined, attacker);
    expect(await signIn("ok@demo.test", PASSWORD, undefined, attacker)).toEqual({ ok: false });
    const event = await database.prisma.auditEvent.findFirstOrThrow({
      where: { action: "auth.sign_in_failed" },
      orderBy: { seq: "desc" },
    });
    expect(event.details).toMatchObject({ cause: "client_throttled" });
    // Another address is not affected; the window passes for the first.
    expect((await signIn("ok@demo.test", PASSWORD, undefined, "f".repeat(64))).ok).toBe(true);
    expect((await signIn("ok@demo.test", PASSWORD, new Date(Date.now() + 16 * 60_000), attacker)).ok).toBe(
      true,
    );
  });

  it("audits an unknown email by digest only, never the typed text", async () => {
    const typed = "my-secret-password@oops";
    expect(await signIn(typed, "x", undefined, client, "req-unknown")).toEqual({ ok: false });
    const event = await database.prisma.auditEvent.findFirstOrThrow({ where: { requestId: "req-unknown" } });
    expect(event.actorEmail).toBeNull();
    expect(JSON.stringify({ ...event, seq: String(event.seq) })).not.toContain("my-secret-password");
    expect(event.details).toMatchObject({
      cause: "unknown_email",
      emailDigest: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });
});

describe("sessions", () => {
  it("ends at sign-out, at once, and an admin can end all of a user's", async () => {
    const a = await signIn("ok@demo.test", PASSWORD);
    const b = await signIn("ok@demo.test", PASSWORD);
    if (!a.ok || !b.ok) throw new Error("not signed in");
    const ok = await userBy("ok@demo.test");
    expect(
      await endSession(database.prisma, { id: ok.id, email: ok.email, roles: ok.roles }, a.sessionId),
    ).toBe(true);
    expect(await liveSessionUser(database.prisma, a.sessionId, ok.id)).toBeNull();
    expect(await liveSessionUser(database.prisma, b.sessionId, ok.id)).not.toBeNull();
    // Signing out twice changes nothing and writes nothing.
    expect(
      await endSession(database.prisma, { id: ok.id, email: ok.email, roles: ok.roles }, a.sessionId),
    ).toBe(false);

    const admin = await userBy("admin@demo.test");
    const operator = { id: ok.id, email: ok.email, roles: ok.roles };
    await expect(
      revokeSessions(database.prisma, operator, { userId: ok.id, reason: "not mine to do" }),
    ).rejects.toBeInstanceOf(AuthError);
    expect(
      await revokeSessions(
        database.prisma,
        { id: admin.id, email: admin.email, roles: admin.roles },
        {
          userId: ok.id,
          reason: "laptop lost",
        },
      ),
    ).toBeGreaterThanOrEqual(1);
    expect(await liveSessionUser(database.prisma, b.sessionId, ok.id)).toBeNull();
    // A session of someone else, or of a disabled user, is never live.
    const c = await signIn("ok@demo.test", PASSWORD);
    if (!c.ok) throw new Error("not signed in");
    expect(await liveSessionUser(database.prisma, c.sessionId, admin.id)).toBeNull();
    await database.prisma.user.update({ where: { id: ok.id }, data: { disabled: true } });
    expect(await liveSessionUser(database.prisma, c.sessionId, ok.id)).toBeNull();
    await database.prisma.user.update({ where: { id: ok.id }, data: { disabled: false } });
  });
});
