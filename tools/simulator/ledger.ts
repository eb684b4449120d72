import type { PrismaClient } from "@/prisma/generated/client";
import { spawnSandbox, type SandboxProcess } from "@/tools/sandbox/process";
import { seedReferenceData } from "@/lib/seed/demo";
import { buildHistory, type HistorySummary } from "./history";
import { checkUnknownsAgainstTruth, simulate, type SimulationSummary, type TruthCheck } from "./simulate";

export type DemoLedgerOptions = {
  intents: number;
  seed: number;
  faults: "none" | "mixed";
  /** Use this sandbox; otherwise start one (keeping its state in stateFile). */
  sandboxUrl?: string | null;
  stateFile?: string | null;
  /** Also weeks of past operator and approver work on it (the demo's audit history). */
  history?: boolean;
  log?: (line: string) => void;
};

/**
 * Reference data when missing, then a simulated ledger against a real sandbox
 * process, then a check that every unknown's lookup agrees with the provider.
 * Used by `npm run simulate`, `npm run db:seed` and `npm run demo`.
 */
export async function buildSimulatedLedger(
  db: PrismaClient,
  options: DemoLedgerOptions,
): Promise<{
  summary: SimulationSummary;
  truth: TruthCheck;
  history: HistorySummary | null;
  sandboxUrl: string;
}> {
  const log = options.log ?? (() => undefined);
  if ((await db.tenant.count()) === 0) {
    // Users exist from before the month of traffic, so the audit log reads in time order.
    await seedReferenceData(db, { at: new Date(Date.now() - 35 * 86_400_000) });
    log("Seeded users, tenants, providers and approval thresholds");
  }
  let spawned: SandboxProcess | null = null;
  const sandboxUrl =
    options.sandboxUrl ?? (spawned = await spawnSandbox({ stateFile: options.stateFile })).url;
  try {
    log(
      `Simulating ${options.intents} workflow steps against the sandbox at ${sandboxUrl} (faults: ${options.faults})…`,
    );
    let lastTenth = 0;
    const summary = await simulate({
      db,
      sandboxUrl,
      intents: options.intents,
      seed: options.seed,
      faults: options.faults,
      onProgress: (done, total) => {
        const tenth = Math.floor((done / total) * 10);
        if (tenth > lastTenth) {
          lastTenth = tenth;
          log(`  ${done}/${total} steps`);
        }
      },
    });
    const settings = { defaultBaseUrl: sandboxUrl, stripeApiKey: "sk_test_sandbox", timeoutMs: 5_000 };
    const truth = await checkUnknownsAgainstTruth(db, settings);
    log(`Lookups for ${truth.checked} unknown intents: ${truth.agreed} agree with the provider's own record`);
    for (const d of truth.disagreements.slice(0, 10))
      log(`  DISAGREES ${d.intentKey}: lookup ${d.outcome}, provider truth ${d.truth}`);
    let history: HistorySummary | null = null;
    if (options.history) {
      history = await buildHistory(db, settings, options.seed);
      log(
        `History: ${history.resolved} resolved directly, ${history.approved} approved, ${history.denied} denied, ${history.expired} expired, ${history.pendingNow} waiting for an approver now`,
      );
    }
    return { summary, truth, history, sandboxUrl };
  } finally {
    await spawned?.stop();
  }
}
