import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "@/lib/auth/password";
import { signInWithPassword } from "@/lib/auth/sign-in";
import { FREE_ATTEMPTS } from "@/lib/auth/lockout";
import { freshPostgres, type TestDatabase } from "./support";

let database: TestDatabase;
beforeAll(async () => {
  database = await freshPostgres();
  const passwordHash = await hashPassword("correct horse");
  await database.prisma.user.createMany({
    data: [
      { email: "ok@demo.test", name: "Ok", roles: ["operator"], passwordHash },
      { email: "lock@demo.test", name: "Lock", roles: ["auditor"], passwordHash },
      { email: "off@demo.test", name: "Off", roles: ["admin"], passwordHash, disabled: true },
    ],
  });
});
afterAll(async () => database.dispose());

const at = (iso: string) => new Date(iso);

describe("password sign-in", () => {
  it("admits the right password, case-insensitively by email, and audits it", async () => {
    const result = await signInWithPassword(database.prisma, {
      email: "  OK@demo.test ",
      password: "correct horse",
      requestId: "req-1",
    });
    expect(result).toMatchObject({ ok: true, user: { email: "ok@demo.test", roles: ["operator"] } });
    const event = await database.prisma.auditEvent.findFirstOrThrow({ where: { requestId: "req-1" } });
    expect(event).toMatchObject({
      action: "auth.sign_in",
      actorEmail: "ok@demo.test",
      actorRoles: ["operator"],
    });
  });

  it("refuses a wrong password and counts it", async () => {
    const result = await signInWithPassword(database.prisma, { email: "ok@demo.test", password: "wrong" });
    expect(result).toEqual({ ok: false, reason: "invalid" });
    expect(
      (await database.prisma.user.findUniqueOrThrow({ where: { email: "ok@demo.test" } })).failedSignIns,
    ).toBe(1);
  });

  it("locks after repeated failures, refuses even the right password while locked, and lets in after", async () => {
    const t0 = at("2026-11-29T10:00:00Z");
    for (let i = 1; i < FREE_ATTEMPTS; i++) {
      expect(
        await signInWithPassword(database.prisma, { email: "lock@demo.test", password: `guess-${i}` }, t0),
      ).toEqual({ ok: false, reason: "invalid" });
    }
    const locked = await signInWithPassword(
      database.prisma,
      { email: "lock@demo.test", password: "guess-last" },
      t0,
    );
    expect(locked).toEqual({ ok: false, reason: "locked", retryAt: at("2026-11-29T10:01:00Z") });

    const whileLocked = await signInWithPassword(
      database.prisma,
      { email: "lock@demo.test", password: "correct horse" },
      at("2026-11-29T10:00:30Z"),
    );
    expect(whileLocked).toMatchObject({ ok: false, reason: "locked" });

    const after = await signInWithPassword(
      database.prisma,
      { email: "lock@demo.test", password: "correct horse" },
      at("2026-11-29T10:01:01Z"),
    );
    expect(after.ok).toBe(true);
    const user = await database.prisma.user.findUniqueOrThrow({ where: { email: "lock@demo.test" } });
    expect(user).toMatchObject({ failedSignIns: 0, lockedUntil: null });

    const failures = await database.prisma.auditEvent.count({
      where: { action: "auth.sign_in_failed", targetId: user.id },
    });
    expect(failures).toBe(FREE_ATTEMPTS + 1);
  });

  it("refuses a disabled account with the same answer as a wrong password", async () => {
    expect(
      await signInWithPassword(database.prisma, { email: "off@demo.test", password: "correct horse" }),
    ).toEqual({ ok: false, reason: "invalid" });
  });

  it("audits an unknown email by digest only, never the typed text", async () => {
    const typed = "my-secret-password@oops";
    expect(
      await signInWithPassword(database.prisma, { email: typed, password: "x", requestId: "req-unknown" }),
    ).toEqual({
      ok: false,
      reason: "invalid",
    });
    const event = await database.prisma.auditEvent.findFirstOrThrow({ where: { requestId: "req-unknown" } });
    expect(event.actorEmail).toBeNull();
    expect(JSON.stringify({ ...event, seq: String(event.seq) })).not.toContain("my-secret-password");
    expect(event.details).toMatchObject({
      cause: "unknown_email",
      emailDigest: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });
});
