import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { updateProviderProfile } from "@/lib/admin/providers";
import { createUser } from "@/lib/admin/users";
import type { Actor } from "@/lib/auth/actor";
import type { Role } from "@/lib/auth/roles";
import { thresholdInput } from "@/lib/resolution/schemas";
import { setThreshold } from "@/lib/resolution/thresholds";
import { adminWorld, eventsOn, refused, settle } from "./admin-support";
import type { TestDatabase } from "./support";

// The rest of what admins change, on PostgreSQL: creating users by single sign-on and at
// once, provider profiles (bounds, compare-and-set, before and after with the reason) and
// approval thresholds in major units.

let world: Awaited<ReturnType<typeof adminWorld>>;
let database: TestDatabase;
let admin: Actor;
let admin2: Actor;
let operator: Actor;
const db = () => database.prisma;

beforeAll(async () => {
  world = await adminWorld();
  ({ database, admin, admin2, operator } = world);
});
afterAll(async () => world.close());

describe("creating users", () => {
  it("creates a single-sign-on user without a password only when SSO is configured", async () => {
    const sso = {
      email: "sso@example.com",
      name: "Sso Person",
      roles: ["auditor"] as Role[],
      signIn: "sso" as const,
    };
    await refused(createUser(db(), admin, sso, { ssoAvailable: false }), "invalid", /not configured/);
    const { user, initialPassword } = await createUser(db(), admin, sso, { ssoAvailable: true });
    expect(initialPassword).toBeNull();
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).passwordHash).toBeNull();
  });

  it("two admins creating one email at the same moment: exactly one user", async () => {
    const input = {
      email: "twice@example.com",
      name: "Twice",
      roles: ["auditor"] as Role[],
      signIn: "password" as const,
    };
    const settled = await settle(
      [admin, admin2].map((a) => () => createUser(db(), a, input, { ssoAvailable: false })),
    );
    expect(settled.filter((s) => s.status === "fulfilled")).toHaveLength(1);
    expect(await db().user.count({ where: { email: "twice@example.com" } })).toBe(1);
  });

  it("refuses non-admins, and admins who also hold a role an admin may not", async () => {
    const input = {
      email: "x@example.com",
      name: "X",
      roles: ["auditor"] as Role[],
      signIn: "password" as const,
    };
    await refused(createUser(db(), operator, input, { ssoAvailable: false }), "forbidden", /Only admins/);
    expect(await db().user.count({ where: { email: "x@example.com" } })).toBe(0);
  });
});

describe("provider profiles and thresholds", () => {
  const base = async () => {
    const p = await db().providerProfile.findUniqueOrThrow({ where: { id: "payments-sandbox" } });
    return {
      providerId: p.id,
      baseUrl: p.baseUrl,
      responseWindowSeconds: p.responseWindowSeconds,
      keyRetentionSeconds: p.keyRetentionSeconds,
      visibilityDelaySeconds: p.visibilityDelaySeconds,
      rateLimitPerSecond: p.rateLimitPerSecond,
      expectedUpdatedAt: p.updatedAt,
      reason: "Provider's documentation changed",
    };
  };

  it("audits a change with before, after and the reason; of two admins at once exactly one wins", async () => {
    const input = await base();
    const settled = await settle([
      () => updateProviderProfile(db(), admin, { ...input, responseWindowSeconds: 45 }),
      () =>
        updateProviderProfile(db(), admin2, {
          ...input,
          rateLimitPerSecond: 40,
          baseUrl: "https://api.example.com",
        }),
    ]);
    expect(settled.filter((s) => s.status === "fulfilled")).toHaveLength(1);
    expect((settled.find((s) => s.status === "rejected") as PromiseRejectedResult).reason).toMatchObject({
      code: "stale",
    });
    const events = await eventsOn(database, "payments-sandbox", "settings.provider_profile_changed");
    expect(events).toHaveLength(1);
    expect(events[0]!.reason).toBe("Provider's documentation changed");
    const d = events[0]!.details as {
      before: Record<string, unknown>;
      after: Record<string, unknown>;
      changed: string[];
    };
    expect(d.before).toMatchObject({ responseWindowSeconds: 30, rateLimitPerSecond: 25, baseUrl: null });
    expect(d.changed.length).toBeGreaterThan(0);
    for (const field of d.changed) expect(d.after[field]).not.toEqual(d.before[field]);
  });

  it("refuses what is out of bounds or contradicts the provider, and writes nothing for no change", async () => {
    const input = await base();
    const before = await eventsOn(database, "payments-sandbox");
    await refused(
      updateProviderProfile(db(), admin, { ...input, baseUrl: "file:///etc/passwd" }),
      "invalid",
      /http or https/,
    );
    await refused(
      updateProviderProfile(db(), admin, { ...input, rateLimitPerSecond: 0 }),
      "invalid",
      /Rate limit/,
    );
    await refused(
      updateProviderProfile(db(), admin, { ...input, keyRetentionSeconds: null }),
      "invalid",
      /Key retention/,
    );
    await refused(
      updateProviderProfile(db(), admin, {
        ...input,
        visibilityDelaySeconds: 3_600,
        keyRetentionSeconds: 3_600,
      }),
      "invalid",
      /shorter than the key retention/,
    );
    const mailer = await db().providerProfile.findUniqueOrThrow({ where: { id: "mailer-sandbox" } });
    await refused(
      updateProviderProfile(db(), admin, {
        ...input,
        providerId: mailer.id,
        expectedUpdatedAt: mailer.updatedAt,
        keyRetentionSeconds: 86_400,
      }),
      "invalid",
      /keeps no idempotency keys/,
    );
    await refused(updateProviderProfile(db(), operator, input), "forbidden", /Only admins/);
    expect(await updateProviderProfile(db(), admin, input)).toMatchObject({ changed: [] });
    expect(await eventsOn(database, "payments-sandbox")).toHaveLength(before.length);
  });

  it("takes thresholds in major units and records the reason with before and after", async () => {
    const usd = thresholdInput.parse({
      tenantId: "acme-shop",
      currency: "USD",
      threshold: "1,500.00",
      dualThreshold: "20000",
      autoResolveBelow: "99.99",
      reason: "Raise for the sale",
    });
    expect(usd).toMatchObject({
      thresholdMinor: 150_000n,
      dualThresholdMinor: 2_000_000n,
      autoResolveBelowMinor: 9_999n,
    });
    expect(
      thresholdInput.parse({
        tenantId: "acme-shop",
        currency: "JPY",
        threshold: "150,000",
        reason: "whole yen",
      }),
    ).toMatchObject({ thresholdMinor: 150_000n, dualThresholdMinor: null });
    const jpy = thresholdInput.safeParse({
      tenantId: "acme-shop",
      currency: "JPY",
      threshold: "150000.50",
      reason: "no sen",
    });
    expect(jpy.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["threshold", expect.stringMatching(/whole JPY/)],
    ]);
    const cents = thresholdInput.safeParse({
      tenantId: "acme-shop",
      currency: "USD",
      threshold: "10.001",
      reason: "too fine",
    });
    expect(cents.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["threshold", expect.stringMatching(/at most 2 decimals/)],
    ]);
    await setThreshold(db(), admin, usd);
    const [event] = await db().auditEvent.findMany({
      where: { action: "settings.threshold_changed", targetId: "acme-shop/USD" },
    });
    expect(event).toMatchObject({ reason: "Raise for the sale" });
    expect(event!.details).toMatchObject({
      before: { thresholdMinor: "100000", dualThresholdMinor: "1000000", autoResolveBelowMinor: null },
      after: { thresholdMinor: "150000", dualThresholdMinor: "2000000", autoResolveBelowMinor: "9999" },
    });
  });
});
