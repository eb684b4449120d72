import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInWithPassword } from "@/lib/auth/sign-in";
import { openDatabase } from "@/lib/db/connect";
import { ledgerOverview } from "@/lib/ledger/overview";
import { DEMO_PASSWORD, DEMO_USERS, seedDemo, type SeedReport } from "@/lib/seed/demo";
import { freshPglite } from "./support";

// The demo path end to end on the embedded database: migrate, seed, sign in, read figures.
let database: Awaited<ReturnType<typeof freshPglite>>;
let report: SeedReport | null;
beforeAll(async () => {
  database = await freshPglite();
  report = await seedDemo(database.prisma, { seed: 1, now: new Date("2026-11-29T12:00:00Z") });
});
afterAll(async () => database.dispose());

describe("the demo seed on the embedded database", () => {
  it("writes a realistic ledger over 3 tenants and 2 providers", async () => {
    const { prisma } = database;
    expect(report).not.toBeNull();
    const total = await prisma.effectIntent.count();
    expect(total).toBeGreaterThanOrEqual(2000);
    expect(await prisma.tenant.count()).toBe(3);
    expect((await prisma.providerProfile.findMany()).map((p) => p.kind).sort()).toEqual([
      "mailer",
      "payments",
    ]);

    const byStatus: Record<string, number> = Object.fromEntries(
      (await prisma.effectIntent.groupBy({ by: ["status"], _count: { _all: true } })).map((g) => [
        g.status,
        g._count._all,
      ]),
    );
    const share = (status: string) => (byStatus[status] ?? 0) / total;
    expect(share("confirmed")).toBeGreaterThan(0.7);
    expect(share("unknown")).toBeGreaterThan(0.03);
    expect(share("unknown")).toBeLessThan(0.08);
    expect(byStatus.rejected).toBeGreaterThan(0);
    expect(byStatus.dispatched).toBeGreaterThan(0);

    const unknowns = await prisma.effectIntent.findMany({ where: { status: "unknown" } });
    const currencies = new Set(unknowns.map((u) => u.currency).filter(Boolean));
    expect(currencies.size).toBeGreaterThanOrEqual(3);
    const ages = unknowns.map((u) => Date.parse("2026-11-29T12:00:00Z") - u.createdAt.getTime());
    expect(Math.min(...ages)).toBeLessThan(3_600_000);
    expect(Math.max(...ages)).toBeGreaterThan(24 * 3_600_000);
    // Every unknown has the attempt that went missing.
    const orphan = await prisma.effectIntent.count({
      where: { status: "unknown", attempts: { none: { outcome: "unknown" } } },
    });
    expect(orphan).toBe(0);
  });

  it("keeps personal data out of the ledger: recipients are masked", async () => {
    const emails = await database.prisma.effectIntent.findMany({
      where: { operation: "send_email" },
      take: 50,
    });
    for (const e of emails) {
      expect(e.recipient).toMatch(/^.\*\*\*@/);
      expect(JSON.stringify(e.requestSummary)).not.toMatch(/[a-z]{2,}\.[a-z0-9]{4}@/);
    }
  });

  it("lets every demo user sign in with the demo password", async () => {
    for (const u of DEMO_USERS) {
      const result = await signInWithPassword(database.prisma, { email: u.email, password: DEMO_PASSWORD });
      expect(result).toMatchObject({ ok: true, user: { roles: u.roles } });
    }
  });

  it("gives the landing page figures that add up to the ledger", async () => {
    const overview = await ledgerOverview(database.prisma);
    expect(overview.tenants).toHaveLength(3);
    expect(overview.total).toBe(await database.prisma.effectIntent.count());
    expect(overview.tenants.reduce((s, t) => s + t.byStatus.unknown, 0)).toBe(overview.totals.unknown);
  });

  it("does not seed twice, and the data survives a reopen", async () => {
    expect(await seedDemo(database.prisma)).toBeNull();
    const before = await database.prisma.effectIntent.count();
    await database.close();
    const reopened = openDatabase({ kind: "pglite", dir: database.dir });
    try {
      expect(await reopened.prisma.effectIntent.count()).toBe(before);
    } finally {
      await reopened.close();
    }
    database = await freshPglite({ dir: database.dir });
  });
});
