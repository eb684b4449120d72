import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
