import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userRolesInput } from "@/lib/admin/schemas";
import { setUserDisabled, unlockUser } from "@/lib/admin/user-access";
import { createUser, setUserRoles } from "@/lib/admin/users";
import type { Actor } from "@/lib/auth/actor";
import { authorize } from "@/lib/auth/authorize";
import { verifyPassword } from "@/lib/auth/password";
import type { Role } from "@/lib/auth/roles";
import { liveSessionUser, startSession } from "@/lib/auth/sessions";
import { reconcilerActor } from "@/lib/reconcile/actor";
import { adminWorld, eventsOn, expectNoSecrets, extraAdmin, person, refused, settle } from "./admin-support";
import type { TestDatabase } from "./support";

// User management as admins do it, on PostgreSQL (provider profiles, thresholds and the
// rest of creating users: admin-settings.test.ts):
// separation of duties, lock-out protection, the reconciler's account, two admins at
// once (compare-and-set: exactly one wins, never a lost update), and audit events with
// before and after that hold no secret.

let world: Awaited<ReturnType<typeof adminWorld>>;
let database: TestDatabase;
let admin: Actor;
let admin2: Actor;
let operator: Actor;
const db = () => database.prisma;
const rolesOf = async (id: string) => (await db().user.findUniqueOrThrow({ where: { id } })).roles;

beforeAll(async () => {
  world = await adminWorld();
  ({ database, admin, admin2, operator } = world);
});
afterAll(async () => world.close());

describe("creating users", () => {
  it("creates a user with a one-time password, normalising the email, audited without any secret", async () => {
    const { user, initialPassword } = await createUser(
      db(),
      admin,
      {
        email: "  New.Person@Example.COM ",
        name: "New Person",
        roles: ["approver", "operator"],
        signIn: "password",
      },
      { ssoAvailable: false },
    );
    expect(user).toMatchObject({ email: "new.person@example.com", roles: ["operator", "approver"] });
    expect(initialPassword).toMatch(/^[\w-]{24}$/);
    const stored = await db().user.findUniqueOrThrow({ where: { id: user.id } });
    expect(await verifyPassword(initialPassword!, stored.passwordHash!)).toBe(true);
    const [event] = await eventsOn(database, user.id, "user.created");
    expect(event).toMatchObject({ actorId: admin.id, requestId: "req-admin", targetType: "user" });
    expect(event!.details).toEqual({
      before: null,
      after: {
        email: "new.person@example.com",
        name: "New Person",
        roles: ["operator", "approver"],
        disabled: false,
        signIn: "password",
      },
    });
    expectNoSecrets([event!], [initialPassword!, stored.passwordHash!]);
    await refused(
      createUser(
        db(),
        admin,
        { email: "NEW.person@example.com", name: "Again", roles: ["auditor"], signIn: "password" },
        { ssoAvailable: false },
      ),
      "invalid",
      /already exists/,
    );
  });
});

describe("separation of duties", () => {
  it("refuses admin with operator or approver, in the form's schema and in the service", async () => {
    const target = await person(database, "sod@example.com", ["auditor"]);
    const change = { userId: target.id, expectedRoles: ["auditor"] as Role[], reason: "promote" };
    const combinations: Role[][] = [
      ["admin", "operator"],
      ["admin", "approver"],
      ["admin", "operator", "approver"],
    ];
    for (const roles of combinations) {
      const parsed = userRolesInput.safeParse({ ...change, roles });
      expect(parsed.error?.flatten().fieldErrors.roles?.[0]).toMatch(
        /Admin cannot be combined with .*separation of duties/,
      );
      await refused(
        setUserRoles(db(), admin, { ...change, roles }),
        "invalid",
        /an admin may not (resolve intents|approve or deny)/,
      );
      const input = { email: "sod2@example.com", name: "Sod", roles, signIn: "password" } as const;
      await refused(
        createUser(db(), admin, input, { ssoAvailable: false }),
        "invalid",
        /separation of duties/,
      );
    }
    await refused(
      setUserRoles(db(), operator, { ...change, roles: ["approver"] }),
      "forbidden",
      /Only admins/,
    );
    expect(await rolesOf(target.id)).toEqual(["auditor"]);
    expect(await eventsOn(database, target.id)).toHaveLength(0);
    // Admin with auditor is fine: an auditor only reads.
    await setUserRoles(db(), admin, { ...change, roles: ["auditor", "admin"] });
    expect(await rolesOf(target.id)).toEqual(["auditor", "admin"]);
  });
});

describe("lock-out protection and the reconciler's account", () => {
  it("an admin may not take away their own admin role nor disable themselves", async () => {
    await refused(
      setUserRoles(db(), admin, {
        userId: admin.id,
        roles: ["auditor"],
        expectedRoles: ["admin"],
        reason: "oops",
      }),
      "invalid",
      /your own admin role/,
    );
    await refused(
      setUserDisabled(db(), admin, { userId: admin.id, disabled: true, reason: "oops" }),
      "invalid",
      /your own account/,
    );
    expect(await db().user.findUniqueOrThrow({ where: { id: admin.id } })).toMatchObject({
      roles: ["admin"],
      disabled: false,
    });
  });

  it("two admins taking each other's admin role at the same moment: one wins, an admin remains", async () => {
    for (let round = 0; round < 10; round++) {
      const [a, b] = [
        await extraAdmin(database, `Left ${round}`),
        await extraAdmin(database, `Right ${round}`),
      ];
      const demote = (by: Actor, who: Actor) => () =>
        setUserRoles(db(), by, {
          userId: who.id,
          roles: ["auditor"],
          expectedRoles: ["admin"],
          reason: "demote",
        });
      const settled = await settle([demote(a, b), demote(b, a)]);
      expect(settled.filter((s) => s.status === "fulfilled")).toHaveLength(1);
      const rejected = settled.find((s) => s.status === "rejected")!;
      expect(String((rejected as PromiseRejectedResult).reason)).toMatch(/Only admins may/);
      expect([await rolesOf(a.id), await rolesOf(b.id)].filter((r) => r.includes("admin"))).toHaveLength(1);
    }
  });

  it("shows the reconciler's roles fixed and no lock, but lets admins switch it off and on", async () => {
    const reconciler = await reconcilerActor(db());
    await refused(
      setUserRoles(db(), admin, {
        userId: reconciler.id,
        roles: ["auditor"],
        expectedRoles: ["operator"],
        reason: "no",
      }),
      "invalid",
      /system account.*Only disabling or enabling/,
    );
    await refused(unlockUser(db(), admin, { userId: reconciler.id }), "invalid", /system account/);
    await setUserDisabled(db(), admin, {
      userId: reconciler.id,
      disabled: true,
      reason: "Stop the reconciler",
    });
    await expect(authorize(db(), reconciler, "look_up")).rejects.toThrow(/not active/);
    await setUserDisabled(db(), admin, { userId: reconciler.id, disabled: false, reason: "Start it again" });
    expect(await authorize(db(), reconciler, "look_up")).toEqual(["operator"]);
    const events = await eventsOn(database, reconciler.id);
    expect(events.map((e) => [e.action, e.reason])).toEqual([
      ["user.disabled", "Stop the reconciler"],
      ["user.enabled", "Start it again"],
    ]);
    expect(events[0]!.details).toMatchObject({
      system: true,
      before: { disabled: false },
      after: { disabled: true },
    });
  });
});

describe("two admins changing one user's roles at the same moment", () => {
  it("exactly one wins each time; the other is told the roles now; no update is lost", async () => {
    const target = await person(database, "raced@example.com", ["auditor"]);
    const choices: Role[][] = [["operator"], ["approver"], ["operator", "approver"], ["auditor"], ["admin"]];
    for (let round = 0; round < 25; round++) {
      const expectedRoles = await rolesOf(target.id);
      const options = choices.filter((c) => c.join() !== expectedRoles.join());
      const [one, two] = [options[round % options.length]!, options[(round + 1) % options.length]!];
      const settled = await settle([
        () =>
          setUserRoles(db(), admin, {
            userId: target.id,
            roles: one,
            expectedRoles,
            reason: `round ${round} a`,
          }),
        () =>
          setUserRoles(db(), admin2, {
            userId: target.id,
            roles: two,
            expectedRoles,
            reason: `round ${round} b`,
          }),
      ]);
      const won = settled.flatMap((s, i) => (s.status === "fulfilled" ? [i] : []));
      expect(won).toHaveLength(1);
      const loser = settled[1 - won[0]!] as PromiseRejectedResult;
      expect(loser.reason).toMatchObject({ code: "stale" });
      expect(String(loser.reason)).toMatch(/changed meanwhile by .*: now /);
      expect(await rolesOf(target.id)).toEqual(won[0] === 0 ? one : two);
    }
    // The audit trail is one unbroken story: each change starts where the last ended.
    const events = await eventsOn(database, target.id, "user.roles_changed");
    expect(events).toHaveLength(25);
    let roles: string[] = ["auditor"];
    for (const e of events) {
      const d = e.details as { before: { roles: string[] }; after: { roles: string[] } };
      expect(d.before.roles).toEqual(roles);
      roles = d.after.roles;
    }
    expect(roles).toEqual(await rolesOf(target.id));
  });
});

describe("disabling, enabling and unlocking", () => {
  it("disabling ends every live session at once; enabling lets them sign in again", async () => {
    const user = await person(database, "leaver@example.com", ["operator"]);
    const sessions = await Promise.all([1, 2].map(() => startSession(db(), user.id, "password", 3600)));
    const result = await setUserDisabled(db(), admin, {
      userId: user.id,
      disabled: true,
      reason: "Left the company",
    });
    expect(result).toEqual({ disabled: true, sessionsRevoked: 2 });
    for (const s of sessions) expect(await liveSessionUser(db(), s.id, user.id)).toBeNull();
    const revoked = await db().session.findMany({ where: { userId: user.id } });
    expect(revoked.every((s) => s.revokedAt && s.revokedWhy === `account disabled by ${admin.email}`)).toBe(
      true,
    );
    await refused(
      setUserDisabled(db(), admin2, { userId: user.id, disabled: true, reason: "me too" }),
      "stale",
      /already disabled by admin@demo\.test/,
    );
    await setUserDisabled(db(), admin, { userId: user.id, disabled: false, reason: "Came back" });
    const fresh = await startSession(db(), user.id, "password", 3600);
    expect(await liveSessionUser(db(), fresh.id, user.id)).toMatchObject({ id: user.id });
    const events = await eventsOn(database, user.id);
    expect(events.map((e) => e.action)).toEqual(["user.disabled", "user.enabled"]);
    expect(events[0]!.details).toMatchObject({
      before: { disabled: false },
      after: { disabled: true },
      sessionsRevoked: 2,
    });
  });

  it("unlocking clears failed sign-ins and the lock, once", async () => {
    const lockedUntil = new Date(Date.now() + 3_600_000);
    const user = await person(database, "locked@example.com", ["auditor"]);
    await db().user.update({ where: { id: user.id }, data: { failedSignIns: 7, lockedUntil } });
    expect(await unlockUser(db(), admin, { userId: user.id })).toEqual({ cleared: 7 });
    expect(await db().user.findUniqueOrThrow({ where: { id: user.id } })).toMatchObject({
      failedSignIns: 0,
      lockedUntil: null,
    });
    await refused(unlockUser(db(), admin2, { userId: user.id }), "stale", /no failed sign-ins/);
    const [event] = await eventsOn(database, user.id, "user.unlocked");
    expect(event!.details).toMatchObject({
      before: { failedSignIns: 7, lockedUntil: lockedUntil.toISOString() },
      after: { failedSignIns: 0, lockedUntil: null },
    });
  });
});
