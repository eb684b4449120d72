import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EffectJob } from "@/lib/effects/types";
import { seedReferenceData } from "@/lib/seed/demo";
import { runScenario, type Scenario } from "@/tools/simulator/scenarios";
import type { Actor } from "@/lib/auth/actor";
import { claimIntent } from "@/lib/resolution/claims";
import { dispatchCompensation } from "@/lib/resolution/compensation";
import { ResolutionError } from "@/lib/resolution/errors";
import { lookupForOperator } from "@/lib/resolution/lookups";
import { applyIn } from "@/lib/resolution/apply";
import { proposeResolution } from "@/lib/resolution/resolve";
import { startSandbox, type SandboxProcess } from "@/test/support/processes";
import { freshPostgres, type TestDatabase } from "./support";

// The console's guarded services on PostgreSQL against a sandbox process.
let database: TestDatabase;
let sandbox: SandboxProcess;
let alice: Actor;
let bob: Actor;

beforeAll(async () => {
  database = await freshPostgres();
  sandbox = await startSandbox();
  const users = await seedReferenceData(database.prisma);
  const byEmail = (e: string) => users.find((u) => u.email === e)!;
  alice = { id: byEmail("operator@demo.test").id, email: "operator@demo.test", roles: ["operator"] };
  bob = { id: byEmail("operator2@demo.test").id, email: "operator2@demo.test", roles: ["operator"] };
}, 60_000);
afterAll(async () => {
  await sandbox.stop();
  await database.dispose();
});

let n = 0;
async function intentFor(scenario: Scenario, amountMinor = 2_000, agoMs?: number) {
  n += 1;
  const job: EffectJob = {
    kind: "charge",
    tenantId: "acme-shop",
    intentKey: `invoice:inv_r${n}:collect:v1`,
    workflowId: `wf_r${n}`,
    stepId: "charge",
    amountMinor,
    currency: "USD",
    customer: `cus_r${n}`,
    paymentMethod: "pm_card_visa",
    description: `r${n}`,
    customerRef: `invoice/inv_r${n}`,
  };
  await runScenario(database.prisma, sandbox.url, job, scenario, agoMs);
  return database.prisma.effectIntent.findUniqueOrThrow({
    where: { tenantId_intentKey: { tenantId: "acme-shop", intentKey: job.intentKey } },
  });
}

const settings = () => ({ defaultBaseUrl: sandbox.url, stripeApiKey: "sk_test_sandbox", timeoutMs: 3_000 });
const lookUp = async (intentId: string, actor = alice) =>
  (await lookupForOperator(database.prisma, settings(), actor, { intentId, method: "idempotency_key" }))
    .lookup;

async function expectError(promise: Promise<unknown>, code: ResolutionError["code"], message?: RegExp) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ResolutionError);
  expect((error as ResolutionError).code).toBe(code);
  if (message) expect((error as ResolutionError).message).toMatch(message);
}

describe("resolutions", () => {
  it("applies a double-submitted accept once", async () => {
    const intent = await intentFor("charged_answer_lost");
    const lookup = await lookUp(intent.id);
    expect(lookup.outcome).toBe("found_matching");
    const input = {
      intentId: intent.id,
      kind: "accept_receipt" as const,
      reason: "found it",
      lookupId: lookup.id,
      expectedVersion: intent.version,
      submissionKey: randomUUID(),
    };
    const results = await Promise.allSettled([
      proposeResolution(database.prisma, alice, input),
      proposeResolution(database.prisma, alice, input),
    ]);
    const ok = results
      .filter((r) => r.status === "fulfilled")
      .map((r) => (r as PromiseFulfilledResult<Awaited<ReturnType<typeof proposeResolution>>>).value);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const r of results.filter((r) => r.status === "rejected"))
      expect((r as PromiseRejectedResult).reason).toBeInstanceOf(ResolutionError);
    expect(await database.prisma.resolution.count({ where: { intentId: intent.id } })).toBe(1);
    // A later retry of the same submission is answered from the record, not applied again.
    const replay = await proposeResolution(database.prisma, alice, input);
    expect(replay.replayed).toBe(true);
    expect(
      await database.prisma.auditEvent.count({
        where: { targetId: intent.id, action: "resolution.applied" },
      }),
    ).toBe(1);
    expect((await database.prisma.effectIntent.findUniqueOrThrow({ where: { id: intent.id } })).status).toBe(
      "confirmed",
    );
  });

  it("holds a resolution above the threshold for approval without changing the intent", async () => {
    const intent = await intentFor("charged_answer_lost", 250_000);
    const lookup = await lookUp(intent.id);
    const r = await proposeResolution(database.prisma, alice, {
      intentId: intent.id,
      kind: "accept_receipt",
      reason: "found it",
      lookupId: lookup.id,
      expectedVersion: intent.version,
      submissionKey: randomUUID(),
    });
    expect(r).toMatchObject({
      applied: false,
      resolution: { status: "pending_approval", requiredApprovals: 1 },
    });
    expect(await database.prisma.effectIntent.findUniqueOrThrow({ where: { id: intent.id } })).toMatchObject({
      status: "unknown",
      version: intent.version,
    });
    const dual = await intentFor("charged_answer_lost", 1_500_000);
    const dualLookup = await lookUp(dual.id);
    const r2 = await proposeResolution(database.prisma, alice, {
      intentId: dual.id,
      kind: "accept_receipt",
      reason: "found it",
      lookupId: dualLookup.id,
      expectedVersion: dual.version,
      submissionKey: randomUUID(),
    });
    expect(r2.resolution.requiredApprovals).toBe(2);
  });

  it("refuses to mark rejected once the provider may have forgotten the key", async () => {
    const old = await intentFor("never_sent_worker_lost", 1_000, 26 * 3_600_000);
    const lookup = await lookUp(old.id);
    expect(lookup.outcome).toBe("absent");
    await expectError(
      proposeResolution(database.prisma, alice, {
        intentId: old.id,
        kind: "mark_rejected",
        reason: "absent",
        lookupId: lookup.id,
        expectedVersion: old.version,
        submissionKey: randomUUID(),
      }),
      "evidence",
      /forgotten this key.*Escalate/,
    );
    const escalated = await proposeResolution(database.prisma, alice, {
      intentId: old.id,
      kind: "escalate",
      reason: "key retention passed",
      expectedVersion: old.version,
      submissionKey: randomUUID(),
    });
    expect(escalated.intent).toMatchObject({ status: "unknown", needsOperator: true });
  });

  it("refuses evidence that a later lookup contradicts", async () => {
    const intent = await intentFor("charged_answer_lost");
    const first = await lookUp(intent.id);
    // Fake a newer conclusive lookup that disagrees.
    await database.prisma.lookup.create({
      data: {
        intentId: intent.id,
        tenantId: intent.tenantId,
        providerId: intent.providerId,
        method: "domain_attributes",
        outcome: "multiple_found",
        evidence: {},
        actorId: bob.id,
        startedAt: new Date(Date.now() + 1000),
      },
    });
    await expectError(
      proposeResolution(database.prisma, alice, {
        intentId: intent.id,
        kind: "accept_receipt",
        reason: "found it",
        lookupId: first.id,
        expectedVersion: intent.version,
        submissionKey: randomUUID(),
      }),
      "evidence",
      /later lookup/,
    );
  });

  it("respects another operator's claim; a takeover needs a reason and is audited", async () => {
    const intent = await intentFor("charged_answer_lost");
    await claimIntent(database.prisma, bob, { intentId: intent.id });
    await expectError(
      claimIntent(database.prisma, alice, { intentId: intent.id }),
      "claimed",
      /reason to take it over/,
    );
    await expectError(
      proposeResolution(database.prisma, alice, {
        intentId: intent.id,
        kind: "escalate",
        reason: "ambiguous",
        expectedVersion: intent.version,
        submissionKey: randomUUID(),
      }),
      "claimed",
    );
    await claimIntent(database.prisma, alice, { intentId: intent.id, takeOverReason: "Bob is off shift" });
    const event = await database.prisma.auditEvent.findFirstOrThrow({
      where: { targetId: intent.id, action: "intent.claim_taken_over" },
    });
    expect(event).toMatchObject({ actorId: alice.id, reason: "Bob is off shift" });
  });

  it("sends a compensation refund to the provider once, however often it is dispatched", async () => {
    const intent = await intentFor("clean", 4_200);
    expect(intent.status).toBe("confirmed");
    const proposed = await proposeResolution(database.prisma, alice, {
      intentId: intent.id,
      kind: "start_compensation",
      reason: "customer cancelled",
      expectedVersion: intent.version,
      submissionKey: randomUUID(),
    });
    expect(proposed).toMatchObject({ applied: false, resolution: { status: "pending_approval" } });

    // What the last approval does: apply in one transaction, then dispatch.
    const applied = await database.prisma.$transaction(async (tx) =>
      applyIn(
        tx,
        alice,
        await tx.effectIntent.findUniqueOrThrow({ where: { id: intent.id } }),
        proposed.resolution,
        new Date(),
      ),
    );
    const refundId = applied.resolution.compensationIntentId!;
    expect(applied.intent.status).toBe("compensating");
    const sandboxSettings = settings();
    const outcomes = await Promise.all(
      [1, 2, 3].map(() => dispatchCompensation(database.prisma, sandboxSettings, alice, refundId)),
    );
    expect(outcomes.filter((o) => o.outcome === "confirmed")).toHaveLength(1);

    const refunds = (await sandbox.effects()).filter(
      (e) => e.kind === "refund" && e.body.charge === intent.providerResultId,
    );
    expect(refunds).toHaveLength(1);
    expect(await database.prisma.effectIntent.findUniqueOrThrow({ where: { id: intent.id } })).toMatchObject({
      status: "compensated",
    });
    expect(await database.prisma.effectIntent.findUniqueOrThrow({ where: { id: refundId } })).toMatchObject({
      status: "confirmed",
      providerResultId: refunds[0]!.id,
    });
    // The dispatch and the receipt are audited in their own transitions' transactions, once each.
    for (const action of ["compensation.dispatched", "compensation.confirmed"]) {
      expect(await database.prisma.auditEvent.count({ where: { targetId: intent.id, action } })).toBe(1);
    }
  });
});
