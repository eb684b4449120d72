import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { providerIdempotencyKey } from "@/lib/ledger/keys";
import { reconcilerActor } from "@/lib/reconcile/actor";
import { reconcileUntilIdle } from "@/lib/reconcile/reconcile";
import { enableDemoReconciler } from "@/lib/seed/reconciler";
import { buildSimulatedLedger } from "@/tools/simulator/ledger";
import type { SimulationSummary, TruthCheck } from "@/tools/simulator/simulate";
import { startSandbox, type SandboxProcess } from "@/test/support/processes";
import { freshPostgres, type TestDatabase } from "./support";

// The simulator on PostgreSQL with the sandbox as its own process: the numbers it
// prints are checked against the provider's own record, not against our ledger.
let database: TestDatabase;
let sandbox: SandboxProcess;
let summary: SimulationSummary;
let truth: TruthCheck;
beforeAll(async () => {
  database = await freshPostgres();
  sandbox = await startSandbox();
  ({ summary, truth } = await buildSimulatedLedger(database.prisma, {
    intents: 500,
    seed: 5,
    faults: "mixed",
    sandboxUrl: sandbox.url,
  }));
}, 180_000);
afterAll(async () => {
  await sandbox.stop();
  await database.dispose();
});

describe("simulated traffic with mixed faults", () => {
  it("never makes a duplicate effect, and leaves real unknowns", async () => {
    expect(summary.duplicateEffects).toBe(0);
    expect(summary.unknown).toBeGreaterThan(0);
    const effects = (await sandbox.effects()).filter((e) => !e.injected);
    const perKey = new Map<string, number>();
    for (const e of effects) perKey.set(e.intentKey ?? e.id, (perKey.get(e.intentKey ?? e.id) ?? 0) + 1);
    expect([...perKey.values()].every((n) => n === 1)).toBe(true);
  });

  it("has exactly one provider effect behind every confirmed intent, with the receipt's id", async () => {
    const confirmed = await database.prisma.effectIntent.findMany({
      where: { status: { in: ["confirmed", "compensating", "compensated"] } },
    });
    const effects = new Map((await sandbox.effects()).map((e) => [e.id, e]));
    for (const intent of confirmed) {
      const effect = effects.get(intent.providerResultId ?? "");
      expect(effect?.intentKey).toBe(intent.intentKey);
    }
  });

  it("has no provider effect behind a rejected intent", async () => {
    const rejected = await database.prisma.effectIntent.findMany({ where: { status: "rejected" } });
    expect(rejected.length).toBeGreaterThan(0);
    const effected = new Set((await sandbox.effects()).map((e) => e.intentKey));
    for (const intent of rejected) expect(effected.has(intent.intentKey)).toBe(false);
  });

  it("classifies every unknown as the provider's truth has it", () => {
    expect(truth.checked).toBe(summary.unknown);
    expect(truth.disagreements).toEqual([]);
  });

  it("links confirmed refunds to the charges they compensate", async () => {
    const refunds = await database.prisma.effectIntent.findMany({
      where: { operation: "refund" },
      include: { compensates: true },
    });
    expect(refunds.length).toBeGreaterThan(0);
    for (const refund of refunds) {
      expect(refund.compensates).not.toBeNull();
      if (refund.status === "confirmed") expect(refund.compensates?.status).toBe("compensated");
      else expect(refund.compensates?.status).toBe("compensating");
    }
  });
});

describe("the reconciler over the simulated month", () => {
  it("leaves only what a person must judge, with no duplicate effect and every redispatch under its original key", async () => {
    const db = database.prisma;
    const unknownBefore = await db.effectIntent.count({ where: { status: "unknown" } });
    // Those a worker already flagged for people (a key used with other parameters) are theirs.
    const flagged = await db.effectIntent.count({ where: { status: "unknown", needsOperator: true } });
    await enableDemoReconciler(db);
    const actor = await reconcilerActor(db);
    const settings = { defaultBaseUrl: sandbox.url, stripeApiKey: "sk_test_sandbox", timeoutMs: 3_000 };
    const total = await reconcileUntilIdle({ db, settings, actor, owner: "month", batch: 100 });
    console.log(`reconciler over the month: ${JSON.stringify(total)} of ${unknownBefore} unknown`);
    expect(total.confirmed).toBeGreaterThan(0);
    expect(total.escalated).toBeGreaterThan(0);
    expect(total.picked).toBeGreaterThanOrEqual(unknownBefore - flagged);

    // Every unknown left is escalated to people with the reason, none left "in progress".
    const left = await db.effectIntent.findMany({
      where: { status: "unknown" },
      include: { reconciliation: true },
    });
    expect(left.length).toBeLessThan(unknownBefore);
    for (const i of left) {
      expect(i.needsOperator).toBe(true);
      if (i.reconciliation) {
        expect(i.reconciliation.state).toBe("escalated");
        expect(i.reconciliation.lastReason).toBeTruthy();
      }
    }
    expect(await db.effectIntent.count({ where: { status: "dispatched" } })).toBe(0);

    // The provider's own record: one effect per intent key, and what the ledger confirmed is it.
    const effects = (await sandbox.effects()).filter((e) => !e.injected);
    const perKey = new Map<string, number>();
    for (const e of effects) perKey.set(e.intentKey ?? e.id, (perKey.get(e.intentKey ?? e.id) ?? 0) + 1);
    expect([...perKey.entries()].filter(([, count]) => count > 1)).toEqual([]);
    const byId = new Map(effects.map((e) => [e.id, e]));
    const settled = await db.effectIntent.findMany({
      where: { settledBy: "reconciler", status: "confirmed" },
    });
    expect(settled.length).toBe(total.confirmed + (await redispatchedConfirmed()));
    for (const i of settled) expect(byId.get(i.providerResultId ?? "")?.intentKey).toBe(i.intentKey);

    // Every request the redispatches sent carried the intent's original key.
    const redispatched = await db.auditEvent.findMany({ where: { action: "reconciler.redispatched" } });
    const requests = await sandbox.requests();
    for (const event of redispatched) {
      const i = await db.effectIntent.findUniqueOrThrow({ where: { id: event.targetId! } });
      const sent = requests.filter((r) => r.intentKey === i.intentKey);
      expect(sent.length).toBeGreaterThan(0);
      for (const r of sent) expect(r.idempotencyKey).toBe(providerIdempotencyKey(i.tenantId, i.intentKey));
    }

    async function redispatchedConfirmed() {
      return db.auditEvent.count({ where: { action: "reconciler.redispatch.confirmed" } });
    }
  }, 180_000);
});
