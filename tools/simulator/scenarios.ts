import type { PrismaClient } from "@/prisma/generated/client";
import { sweepExpiredLeases } from "@/lib/ledger/dispatch";
import { workerDeps } from "@/tools/worker/deps";
import { runEffect } from "@/lib/effects/run-effect";
import type { EffectJob, JobResult } from "@/lib/effects/types";

/**
 * One effect with a known truth at the provider, made through the real protocol:
 * for tests and demos that need "an unknown whose charge happened" and its kin.
 */
export type Scenario = "clean" | "charged_answer_lost" | "never_sent_worker_lost";

async function control(sandboxUrl: string, path: string, body: unknown) {
  const response = await fetch(`${sandboxUrl}${path}`, { method: "POST", body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`sandbox ${path}: ${response.status}`);
}

export async function runScenario(
  db: PrismaClient,
  sandboxUrl: string,
  job: EffectJob,
  scenario: Scenario,
  /** How long ago it happened (past the provider's search lag, so lookups can see it). */
  agoMs = 5 * 60_000,
): Promise<JobResult> {
  const at = Date.now() - agoMs;
  await control(sandboxUrl, "/_clock", { set: new Date(at).toISOString() });
  try {
    if (scenario === "charged_answer_lost") {
      await control(sandboxUrl, "/_faults", {
        match: { intentKey: job.intentKey },
        fault: "commit_then_drop",
        times: 2,
      });
    }
    const started = Date.now();
    const deps = workerDeps({
      db,
      sandboxUrl,
      workerId: "scenario-worker",
      leaseMs: 30_000,
      // A clean effect's answer must arrive, however loaded the machine: only the faults lose it.
      clientTimeoutMs: scenario === "clean" ? 15_000 : undefined,
      now: () => new Date(at + (Date.now() - started)),
      crash: (point) => {
        if (scenario === "never_sent_worker_lost" && point === "after_dispatch")
          throw new Error("worker lost");
      },
    });
    try {
      return await runEffect(deps, job);
    } catch (error) {
      if (scenario !== "never_sent_worker_lost") throw error;
      // Another scenario's sweep may hold this intent's row (sweeps skip locked rows): wait
      // until one of them has turned it unknown.
      for (let tries = 0; tries < 100; tries++) {
        await sweepExpiredLeases(db, new Date(at + 60_000));
        const now = await db.effectIntent.findUnique({
          where: { tenantId_intentKey: { tenantId: job.tenantId, intentKey: job.intentKey } },
          select: { status: true },
        });
        if (now?.status !== "dispatched") break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return { intentKey: job.intentKey, intentId: null, outcome: "unknown", detail: "worker_lost" };
    }
  } finally {
    await control(sandboxUrl, "/_clock", { reset: true });
  }
}
