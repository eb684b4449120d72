import { randomBytes } from "node:crypto";
import Stripe from "stripe";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sweepExpiredLeases } from "@/lib/ledger/dispatch";
import { providerIdempotencyKey } from "@/lib/ledger/keys";
import { providerAdapter, type ProviderSettings } from "@/lib/providers/registry";
import type { LookupMethod } from "@/lib/providers/types";
import { seedReferenceData } from "@/lib/seed/demo";
import type { EffectJob } from "@/lib/effects/types";
import { runWorker, startSandbox, startWorker, type SandboxProcess } from "@/test/support/processes";
import { freshPostgres, type TestDatabase } from "./support";

/**
 * The ugly path (SPEC "The ugly path"): real worker processes killed at each named
 * point, a real sandbox provider process, a real PostgreSQL. Every case asserts both
 * sides — the ledger's state and the provider's own count of effects for the key —
 * and that a lookup classifies the resulting unknown to the provider's truth.
 */

let database: TestDatabase;
let sandbox: SandboxProcess;
let dbUrl: string;

beforeAll(async () => {
  database = await freshPostgres();
  dbUrl = (database.target as { url: string }).url;
  await seedReferenceData(database.prisma);
});
afterAll(async () => database.dispose());
beforeEach(async () => {
  sandbox = await startSandbox();
});
afterEach(async () => sandbox.stop());

const TENANT = "acme-shop";
const MINUTE = 60_000;

function chargeJob(amountMinor = 4_200): EffectJob {
  const invoice = `inv_${randomBytes(4).toString("hex")}`;
  return {
    kind: "charge",
    tenantId: TENANT,
    intentKey: `invoice:${invoice}:collect:v1`,
    workflowId: `wf_${invoice}`,
    stepId: "charge-card",
    amountMinor,
    currency: "EUR",
    customer: "cus_matrix",
    paymentMethod: "pm_card_visa",
    description: `Invoice ${invoice}`,
    customerRef: `invoice/${invoice}`,
  };
}

function emailJob(): EffectJob {
  const order = `ord_${randomBytes(4).toString("hex")}`;
  return {
    kind: "email",
    tenantId: TENANT,
    intentKey: `order:${order}:receipt:v1`,
    workflowId: `wf_${order}`,
    stepId: "send-receipt",
    to: `buyer.${order}@example.com`,
    template: "receipt",
    variables: { order },
    customerRef: `order/${order}`,
  };
}

const workerEnv = (extra: Record<string, string> = {}) => ({
  DATABASE_URL: dbUrl,
  SANDBOX_URL: sandbox.url,
  LEASE_MS: "1000",
  CLIENT_TIMEOUT_MS: "1500",
  ...extra,
});

const intentOf = (job: EffectJob) =>
  database.prisma.effectIntent.findUniqueOrThrow({
    where: { tenantId_intentKey: { tenantId: job.tenantId, intentKey: job.intentKey } },
    include: { attempts: { orderBy: { attemptNo: "asc" } } },
  });

const effectsOf = (job: EffectJob) => sandbox.effects({ intentKey: job.intentKey });

/** The lease sweeper, run with a clock past every lease. */
const sweep = () => sweepExpiredLeases(database.prisma, new Date(Date.now() + 5_000));

async function lookup(job: EffectJob, method: LookupMethod, now = new Date()) {
  const intent = await intentOf(job);
  const settings: ProviderSettings = {
    defaultBaseUrl: sandbox.url,
    stripeApiKey: "sk_test_sandbox",
    timeoutMs: 2_000,
  };
  const provider = await database.prisma.providerProfile.findUniqueOrThrow({
    where: { id: intent.providerId },
  });
  return providerAdapter(provider, settings).lookup(intent, intent.attempts, method, now);
}

/** Moves the provider's clock and ours past the payments search lag. */
async function afterSearchLag() {
  await sandbox.advanceClock(MINUTE + 1_000);
  return new Date(Date.now() + MINUTE + 1_000);
}

/** Asserts that a lookup tells the truth the provider holds for this intent. */
async function expectLookupMatchesTruth(job: EffectJob, method: LookupMethod, now: Date) {
  const truth = await effectsOf(job);
  const result = await lookup(job, method, now);
  if (truth.length === 1) {
    expect(result.outcome).toBe("found_matching");
    expect(result.providerResultId).toBe(truth[0]!.id);
  } else {
    expect(truth).toHaveLength(0);
    expect(result.outcome).toBe("absent");
  }
  return result;
}

describe("worker killed at each crash point", () => {
  it("before dispatch: nothing was sent; a restarted worker sends it once", async () => {
    const job = chargeJob();
    const killed = await runWorker(job, workerEnv({ CRASH_AT: "before_dispatch" }));
    expect(killed.signal).toBe("SIGKILL");
    expect((await intentOf(job)).status).toBe("prepared");
    expect(await effectsOf(job)).toHaveLength(0);

    const again = await runWorker(job, workerEnv());
    expect(again.result).toMatchObject({ outcome: "confirmed" });
    const intent = await intentOf(job);
    expect(intent.status).toBe("confirmed");
    const effects = await effectsOf(job);
    expect(effects).toHaveLength(1);
    expect(intent.providerResultId).toBe(effects[0]!.id);
  });

  it("right after dispatch: the lease runs out, the intent is unknown and frozen, and the provider has nothing", async () => {
    const job = chargeJob();
    expect((await runWorker(job, workerEnv({ CRASH_AT: "after_dispatch" }))).signal).toBe("SIGKILL");
    expect((await intentOf(job)).status).toBe("dispatched");

    // A restarted worker may not take over a live lease…
    expect((await runWorker(job, workerEnv())).result).toMatchObject({ outcome: "busy" });
    // …and once the lease is gone the sweeper makes it unknown, which no worker may resend.
    await sweep();
    const intent = await intentOf(job);
    expect(intent.status).toBe("unknown");
    expect(intent.attempts.at(-1)).toMatchObject({ outcome: "unknown", errorClass: "worker_lost" });
    expect((await runWorker(job, workerEnv())).result).toMatchObject({ outcome: "frozen" });
    expect(await effectsOf(job)).toHaveLength(0);

    // Right away a search cannot prove absence; after the visibility delay it can.
    expect((await lookup(job, "idempotency_key")).outcome).toBe("not_visible_yet");
    await expectLookupMatchesTruth(job, "idempotency_key", await afterSearchLag());
  });

  it("after the provider accepted: one charge exists, the ledger is unknown, a lookup finds it", async () => {
    const job = chargeJob();
    await sandbox.fault({ match: { intentKey: job.intentKey }, fault: "delay", delayMs: 4_000 });
    const worker = startWorker(job, workerEnv({ CLIENT_TIMEOUT_MS: "10000" }));
    for (let i = 0; i < 100 && (await effectsOf(job)).length === 0; i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(await effectsOf(job)).toHaveLength(1);
    worker.child.kill("SIGKILL");
    await worker.done;

    expect((await intentOf(job)).status).toBe("dispatched");
    await sweep();
    expect((await intentOf(job)).status).toBe("unknown");
    expect((await runWorker(job, workerEnv())).result).toMatchObject({ outcome: "frozen" });
    expect(await effectsOf(job)).toHaveLength(1);
    await expectLookupMatchesTruth(job, "idempotency_key", await afterSearchLag());
  });

  it("after the response arrived: one charge, unknown in the ledger, found by key and by domain attributes", async () => {
    const job = chargeJob(9_999);
    expect((await runWorker(job, workerEnv({ CRASH_AT: "after_response" }))).signal).toBe("SIGKILL");
    await sweep();
    const intent = await intentOf(job);
    expect(intent).toMatchObject({ status: "unknown", providerResultId: null });
    expect(await effectsOf(job)).toHaveLength(1);
    const now = await afterSearchLag();
    await expectLookupMatchesTruth(job, "idempotency_key", now);
    await expectLookupMatchesTruth(job, "domain_attributes", now);
    // No provider id ever reached the ledger, so that method cannot answer.
    expect((await lookup(job, "provider_request_id", now)).outcome).toBe("inconclusive");
  });

  it("during receipt persistence: the receipt transaction rolls back, the charge stays single", async () => {
    const job = chargeJob();
    expect((await runWorker(job, workerEnv({ CRASH_AT: "during_receipt" }))).signal).toBe("SIGKILL");
    const crashed = await intentOf(job);
    expect(crashed).toMatchObject({ status: "dispatched", providerResultId: null });
    expect(crashed.attempts.at(-1)?.outcome).toBe("in_flight");
    await sweep();
    expect((await intentOf(job)).status).toBe("unknown");
    expect((await runWorker(job, workerEnv())).result).toMatchObject({ outcome: "frozen" });
    expect(await effectsOf(job)).toHaveLength(1);
    await expectLookupMatchesTruth(job, "idempotency_key", await afterSearchLag());
  });

  it("an email whose worker died after the send: one message, found by recipient digest", async () => {
    const job = emailJob();
    expect((await runWorker(job, workerEnv({ CRASH_AT: "after_response" }))).signal).toBe("SIGKILL");
    await sweep();
    expect((await intentOf(job)).status).toBe("unknown");
    expect((await runWorker(job, workerEnv())).result).toMatchObject({ outcome: "frozen" });
    expect(await effectsOf(job)).toHaveLength(1);
    await sandbox.advanceClock(6_000);
    const result = await expectLookupMatchesTruth(job, "domain_attributes", new Date(Date.now() + 6_000));
    // Evidence keeps a masked recipient and a digest, never the address itself.
    const evidence = JSON.stringify(result.evidence);
    expect(evidence).not.toContain((job as { to: string }).to);
    expect(evidence).not.toContain((job as { to: string }).to.split("@")[0]);
  });
});

describe("concurrency and provider faults", () => {
  it("two workers on one intent: one dispatches, the other is refused, one charge", async () => {
    const job = chargeJob();
    await sandbox.fault({ match: { intentKey: job.intentKey }, fault: "delay", delayMs: 1_000 });
    const [a, b] = [
      startWorker(job, workerEnv({ WORKER_ID: "worker-a", CLIENT_TIMEOUT_MS: "5000" })),
      startWorker(job, workerEnv({ WORKER_ID: "worker-b", CLIENT_TIMEOUT_MS: "5000" })),
    ];
    await Promise.all([a.done, b.done]);
    const outcomes = [a.result?.outcome, b.result?.outcome].sort();
    expect(outcomes[0]).toMatch(/^(already_confirmed|busy)$/);
    expect(outcomes[1]).toBe("confirmed");
    const intent = await intentOf(job);
    expect(intent.status).toBe("confirmed");
    expect(intent.attempts).toHaveLength(1);
    expect(await effectsOf(job)).toHaveLength(1);
  });

  it("a response later than the client deadline: unknown, never retried, found by lookup", async () => {
    const job = chargeJob();
    await sandbox.fault({ match: { intentKey: job.intentKey }, fault: "delay", delayMs: 2_500 });
    const run = await runWorker(job, workerEnv({ CLIENT_TIMEOUT_MS: "800" }));
    expect(run.result).toMatchObject({ outcome: "unknown", detail: "timeout" });
    await new Promise((r) => setTimeout(r, 2_000)); // let the slow provider finish
    expect((await runWorker(job, workerEnv())).result).toMatchObject({ outcome: "frozen" });
    expect(await effectsOf(job)).toHaveLength(1);
    expect((await sandbox.requests()).filter((r) => r.intentKey === job.intentKey)).toHaveLength(1);
    await expectLookupMatchesTruth(job, "idempotency_key", await afterSearchLag());
  });

  it("429 twice, then success: retried with the same key, one charge", async () => {
    const job = chargeJob();
    await sandbox.fault({ match: { intentKey: job.intentKey }, fault: "http_429", times: 2 });
    expect((await runWorker(job, workerEnv())).result).toMatchObject({ outcome: "confirmed" });
    const intent = await intentOf(job);
    expect(intent.attempts.map((a) => [a.outcome, a.errorClass])).toEqual([
      ["rejected", "http_429"],
      ["rejected", "http_429"],
      ["succeeded", null],
    ]);
    const requests = (await sandbox.requests()).filter((r) => r.intentKey === job.intentKey);
    expect(new Set(requests.map((r) => r.idempotencyKey))).toEqual(
      new Set([providerIdempotencyKey(TENANT, job.intentKey)]),
    );
    expect(await effectsOf(job)).toHaveLength(1);
  });

  it("429 on every attempt: rejected (nothing ran), safe to retry later with the same key", async () => {
    const job = chargeJob();
    await sandbox.fault({ match: { intentKey: job.intentKey }, fault: "http_429", times: 3 });
    expect((await runWorker(job, workerEnv())).result).toMatchObject({
      outcome: "rejected",
      detail: "http_429",
    });
    expect(await effectsOf(job)).toHaveLength(0);
    expect((await runWorker(job, workerEnv())).result).toMatchObject({ outcome: "confirmed" });
    expect(await effectsOf(job)).toHaveLength(1);
  });

  it("500 from the idempotent payments provider: retried with the same key, one charge", async () => {
    const job = chargeJob();
    await sandbox.fault({ match: { intentKey: job.intentKey }, fault: "http_500", times: 1 });
    expect((await runWorker(job, workerEnv())).result).toMatchObject({ outcome: "confirmed" });
    expect((await intentOf(job)).attempts).toHaveLength(2);
    expect(await effectsOf(job)).toHaveLength(1);
  });

  it("500 from the mailer, which has no idempotency: unknown, not retried; the lookup says absent", async () => {
    const job = emailJob();
    await sandbox.fault({ match: { intentKey: job.intentKey }, fault: "http_500", times: 1 });
    expect((await runWorker(job, workerEnv())).result).toMatchObject({
      outcome: "unknown",
      detail: "http_500",
    });
    expect((await intentOf(job)).attempts).toHaveLength(1);
    expect(await effectsOf(job)).toHaveLength(0);
    await sandbox.advanceClock(6_000);
    await expectLookupMatchesTruth(job, "domain_attributes", new Date(Date.now() + 6_000));
  });

  it("a late-visible effect is 'not visible yet', never 'absent', until the search catches up", async () => {
    const job = chargeJob();
    // The connection drops after the charge, on the first try and the SDK's own retry.
    await sandbox.fault({ match: { intentKey: job.intentKey }, fault: "commit_then_drop", times: 2 });
    expect((await runWorker(job, workerEnv())).result).toMatchObject({
      outcome: "unknown",
      detail: "connection_lost",
    });
    expect(await effectsOf(job)).toHaveLength(1);
    const early = await lookup(job, "idempotency_key");
    expect(early.outcome).toBe("not_visible_yet");
    await expectLookupMatchesTruth(job, "idempotency_key", await afterSearchLag());
  });

  it("a retry after the key-retention window: the provider forgot the key, the ledger still refuses to resend", async () => {
    const job = chargeJob();
    await sandbox.fault({ match: { intentKey: job.intentKey }, fault: "commit_then_drop", times: 2 });
    expect((await runWorker(job, workerEnv())).result).toMatchObject({ outcome: "unknown" });
    await sandbox.advanceClock(25 * 60 * MINUTE);

    // The danger is real: the provider no longer deduplicates this key…
    const stripe = new Stripe("sk_test_sandbox", {
      host: "127.0.0.1",
      port: new URL(sandbox.url).port,
      protocol: "http",
      maxNetworkRetries: 0,
    });
    const key = providerIdempotencyKey(TENANT, job.intentKey);
    const probe = await stripe.charges.create(
      { amount: 1, currency: "eur", metadata: { intent_key: "probe" } },
      { idempotencyKey: key },
    );
    expect(probe.id).toMatch(/^ch_/); // a different request under the same key was accepted, not refused
    // …so only the ledger's freeze stands between a retry and a double charge.
    expect((await runWorker(job, workerEnv())).result).toMatchObject({ outcome: "frozen" });
    expect(await effectsOf(job)).toHaveLength(1);
    // A search by metadata still finds the original, whatever the provider's key memory.
    await expectLookupMatchesTruth(job, "idempotency_key", new Date(Date.now() + 25 * 60 * MINUTE));
  });
});
