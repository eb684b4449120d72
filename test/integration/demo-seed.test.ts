import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInWithPassword } from "@/lib/auth/sign-in";
import { openDatabase } from "@/lib/db/connect";
import { ledgerOverview } from "@/lib/ledger/overview";
import { DEMO_PASSWORD, DEMO_USERS } from "@/lib/seed/demo";
import { buildSimulatedLedger } from "@/tools/simulator/ledger";
import type { HistorySummary } from "@/tools/simulator/history";
import type { SimulationSummary, TruthCheck } from "@/tools/simulator/simulate";
import { verifyAuditChain } from "@/lib/audit/verify";
import { reconcilerActor } from "@/lib/reconcile/actor";
import { reconcileUntilIdle } from "@/lib/reconcile/reconcile";
import { enableDemoReconciler } from "@/lib/seed/reconciler";
import { startSandbox, type SandboxProcess } from "@/test/support/processes";
import { freshPglite } from "./support";

// The demo path end to end on the embedded database: migrate, reference data, a
// ledger from simulated traffic against a sandbox process, sign in, read figures.
let database: Awaited<ReturnType<typeof freshPglite>>;
let sandbox: SandboxProcess;
let summary: SimulationSummary;
let truth: TruthCheck;
let history: HistorySummary | null;
beforeAll(async () => {
  database = await freshPglite();
  sandbox = await startSandbox();
  ({ summary, truth, history } = await buildSimulatedLedger(database.prisma, {
    intents: 300,
    seed: 11,
    faults: "mixed",
    sandboxUrl: sandbox.url,
    history: true,
  }));
}, 180_000);
afterAll(async () => {
  await sandbox.stop();
  await database.dispose();
});

describe("the demo ledger on the embedded database", () => {
  it("comes from real traffic: mostly confirmed, some rejected and unknown, never a duplicate effect", async () => {
    const { prisma } = database;
    expect(summary.intents).toBe(await prisma.effectIntent.count());
    expect(summary.intents).toBeGreaterThanOrEqual(295);
    expect(summary.confirmed / summary.intents).toBeGreaterThan(0.7);
    expect(summary.unknown).toBeGreaterThan(0);
    expect(summary.rejected).toBeGreaterThan(0);
    expect(summary.duplicateEffects).toBe(0);
    expect(await prisma.tenant.count()).toBe(3);
    expect((await prisma.providerProfile.findMany()).map((p) => p.kind).sort()).toEqual([
      "mailer",
      "payments",
    ]);
    // Unknowns of varied ages: the traffic is spread over a virtual month.
    const unknowns = await prisma.effectIntent.findMany({ where: { status: "unknown" } });
    const ages = unknowns.map((u) => Date.now() - u.createdAt.getTime());
    expect(Math.max(...ages) - Math.min(...ages)).toBeGreaterThan(86_400_000);
  });

  it("comes with weeks of audited operator and approver work, on an intact chain", async () => {
    expect(history!.resolved + history!.approved + history!.denied + history!.expired).toBeGreaterThan(0);
    const actions = new Set(
      (await database.prisma.auditEvent.findMany({ select: { action: true } })).map((e) => e.action),
    );
    for (const a of ["user.created", "intent.claimed", "lookup.run", "resolution.applied"])
      expect(actions).toContain(a);
    const report = await verifyAuditChain(database.prisma);
    expect(report.ok).toBe(true);
  });

  it("has a true answer at the provider for every unknown, and lookups find it", () => {
    expect(truth.checked).toBe(summary.unknown);
    expect(truth.disagreements).toEqual([]);
  });

  it("keeps personal data out of the ledger: recipients are masked, with a digest to match by", async () => {
    const emails = await database.prisma.effectIntent.findMany({
      where: { operation: "send_email" },
      take: 50,
    });
    expect(emails.length).toBeGreaterThan(0);
    for (const e of emails) {
      expect(e.recipient).toMatch(/^.\*\*\*@/);
      expect(e.requestSummary).toMatchObject({ recipient_digest: expect.stringMatching(/^[0-9a-f]{64}$/) });
      expect(JSON.stringify(e.requestSummary)).not.toMatch(/[a-z]{2,}\.[a-z0-9]{5}@/);
    }
  });

  it("lets every demo user sign in with the demo password", async () => {
    for (const u of DEMO_USERS) {
      const result = await signInWithPassword(database.prisma, {
        email: u.email,
        password: DEMO_PASSWORD,
        clientDigest: "0".repeat(64),
        sessionSeconds: 3600,
      });
      expect(result).toMatchObject({ ok: true, user: { roles: u.roles } });
    }
  });

  it("gives the landing page figures that add up to the ledger", async () => {
    const overview = await ledgerOverview(database.prisma);
    expect(overview.tenants).toHaveLength(3);
    expect(overview.total).toBe(await database.prisma.effectIntent.count());
    expect(overview.totals.unknown).toBe(
      await database.prisma.effectIntent.count({ where: { status: "unknown" } }),
    );
  });

  it("lets the reconciler settle what a lookup settles on the embedded database, and no more", async () => {
    const db = database.prisma;
    await enableDemoReconciler(db);
    const counts = await reconcileUntilIdle({
      db,
      settings: { defaultBaseUrl: sandbox.url, stripeApiKey: "sk_test_sandbox", timeoutMs: 3_000 },
      actor: await reconcilerActor(db),
      owner: "demo-test",
    });
    expect(counts.confirmed).toBeGreaterThan(0);
    // What is left unknown waits for people, each with the reason the reconciler gave.
    const left = await db.effectIntent.findMany({
      where: { status: "unknown" },
      include: { reconciliation: true },
    });
    for (const i of left) {
      expect(i.needsOperator || i.reconciliation?.state === "active").toBe(true);
      if (i.reconciliation?.state === "escalated") expect(i.reconciliation.lastReason).toBeTruthy();
    }
    expect((await verifyAuditChain(db)).ok).toBe(true);
  });

  it("survives a reopen of the embedded database", async () => {
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
