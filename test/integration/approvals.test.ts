import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EffectJob } from "@/lib/worker/run-effect";
import { seedReferenceData } from "@/lib/seed/demo";
import { runScenario, type Scenario } from "@/lib/simulator/scenarios";
import type { Actor } from "@/lib/resolution/actor";
import { decide, expireStaleRequests } from "@/lib/resolution/approvals";
import { ResolutionError } from "@/lib/resolution/errors";
import { lookupForOperator } from "@/lib/resolution/lookups";
import { proposeResolution } from "@/lib/resolution/resolve";
import { setThreshold } from "@/lib/resolution/thresholds";
import { startSandbox, type SandboxProcess } from "@/test/support/processes";
import { freshPostgres, type TestDatabase } from "./support";

let database: TestDatabase;
let sandbox: SandboxProcess;
const actors: Record<string, Actor> = {};

beforeAll(async () => {
  database = await freshPostgres();
  sandbox = await startSandbox();
  for (const u of await seedReferenceData(database.prisma))
    actors[u.email.split("@")[0]!] = { id: u.id, email: u.email, roles: u.roles };
}, 60_000);
afterAll(async () => {
  await sandbox.stop();
  await database.dispose();
});

let n = 0;
async function unknownCharge(amountMinor: number, scenario: Scenario = "charged_answer_lost") {
  n += 1;
  const job: EffectJob = {
    kind: "charge",
    tenantId: "acme-shop",
    intentKey: `invoice:inv_a${n}:collect:v1`,
    workflowId: `wf_a${n}`,
    stepId: "charge",
    amountMinor,
    currency: "USD",
    customer: `cus_a${n}`,
    paymentMethod: "pm_card_visa",
    description: `a${n}`,
    customerRef: `invoice/inv_a${n}`,
  };
  await runScenario(database.prisma, sandbox.url, job, scenario);
  return database.prisma.effectIntent.findUniqueOrThrow({
    where: { tenantId_intentKey: { tenantId: "acme-shop", intentKey: job.intentKey } },
  });
}

async function proposeAccept(amountMinor: number, by = actors.operator!) {
  const intent = await unknownCharge(amountMinor);
  const { lookup } = await lookupForOperator(
    database.prisma,
    { defaultBaseUrl: sandbox.url, stripeApiKey: "sk_test_sandbox", timeoutMs: 3_000 },
    by,
    { intentId: intent.id, method: "idempotency_key" },
  );
  const proposed = await proposeResolution(database.prisma, by, {
    intentId: intent.id,
    kind: "accept_receipt",
    reason: "found at the provider",
    lookupId: lookup.id,
    expectedVersion: intent.version,
    submissionKey: randomUUID(),
  });
  expect(proposed.resolution.status).toBe("pending_approval");
  return { intent, resolution: proposed.resolution };
}

async function expectRefused(promise: Promise<unknown>, message: RegExp) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ResolutionError);
  expect((error as Error).message).toMatch(message);
}

const status = async (id: string) =>
  (await database.prisma.effectIntent.findUniqueOrThrow({ where: { id } })).status;

describe("two-person approval", () => {
  it("refuses the proposer and the lookup's actor, then applies once on a second person's approval", async () => {
    const { intent, resolution } = await proposeAccept(250_000);
    await expectRefused(
      decide(database.prisma, actors.operator!, {
        resolutionId: resolution.id,
        decision: "approved",
        reason: "self",
      }),
      /You proposed this/,
    );
    expect(await status(intent.id)).toBe("unknown");
    const done = await decide(database.prisma, actors.approver!, {
      resolutionId: resolution.id,
      decision: "approved",
      reason: "evidence is clear",
    });
    expect(done.outcome).toBe("applied");
    expect(await status(intent.id)).toBe("confirmed");
    await expectRefused(
      decide(database.prisma, actors.approver2!, {
        resolutionId: resolution.id,
        decision: "approved",
        reason: "again",
      }),
      /already applied/,
    );
    expect(
      await database.prisma.auditEvent.count({
        where: { targetId: intent.id, action: "resolution.applied" },
      }),
    ).toBe(1);
  });

  it("refuses an approver who ran the lookup the proposal rests on", async () => {
    const intent = await unknownCharge(300_000);
    const { lookup } = await lookupForOperator(
      database.prisma,
      { defaultBaseUrl: sandbox.url, stripeApiKey: "sk_test_sandbox", timeoutMs: 3_000 },
      actors.approver!,
      { intentId: intent.id, method: "idempotency_key" },
    );
    const p = await proposeResolution(database.prisma, actors.operator!, {
      intentId: intent.id,
      kind: "accept_receipt",
      reason: "found",
      lookupId: lookup.id,
      expectedVersion: intent.version,
      submissionKey: randomUUID(),
    });
    await expectRefused(
      decide(database.prisma, actors.approver!, {
        resolutionId: p.resolution.id,
        decision: "approved",
        reason: "mine",
      }),
      /ran the lookup/,
    );
  });

  it("ends a request on one denial", async () => {
    const { intent, resolution } = await proposeAccept(200_000);
    expect(
      (
        await decide(database.prisma, actors.approver!, {
          resolutionId: resolution.id,
          decision: "denied",
          reason: "amount looks wrong",
        })
      ).outcome,
    ).toBe("denied");
    await expectRefused(
      decide(database.prisma, actors.approver2!, {
        resolutionId: resolution.id,
        decision: "approved",
        reason: "fine",
      }),
      /already denied/,
    );
    expect(await status(intent.id)).toBe("unknown");
  });

  it("cannot approve an expired request", async () => {
    const { intent, resolution } = await proposeAccept(200_000);
    const later = new Date(Date.now() + 25 * 3_600_000);
    await expectRefused(
      decide(
        database.prisma,
        actors.approver!,
        { resolutionId: resolution.id, decision: "approved", reason: "late" },
        later,
      ),
      /expired/,
    );
    expect(
      (await database.prisma.resolution.findUniqueOrThrow({ where: { id: resolution.id } })).status,
    ).toBe("expired");
    expect(await status(intent.id)).toBe("unknown");
    expect(
      await database.prisma.auditEvent.count({
        where: { targetId: intent.id, action: "resolution.expired" },
      }),
    ).toBe(1);
    // The sweep on the approvals screen does the same for requests nobody looked at.
    const other = await proposeAccept(200_000);
    expect(await expireStaleRequests(database.prisma, later)).toBeGreaterThanOrEqual(1);
    expect(
      (await database.prisma.resolution.findUniqueOrThrow({ where: { id: other.resolution.id } })).status,
    ).toBe("expired");
  });

  it("voids the approval when the intent changed after the proposal", async () => {
    const { intent, resolution } = await proposeAccept(200_000);
    // Another operator escalates meanwhile: the intent's version moves on.
    await proposeResolution(database.prisma, actors.operator2!, {
      intentId: intent.id,
      kind: "escalate",
      reason: "second opinion",
      expectedVersion: intent.version,
      submissionKey: randomUUID(),
    });
    await expectRefused(
      decide(database.prisma, actors.approver!, {
        resolutionId: resolution.id,
        decision: "approved",
        reason: "ok",
      }),
      /changed after this was proposed/,
    );
    expect(
      (await database.prisma.resolution.findUniqueOrThrow({ where: { id: resolution.id } })).status,
    ).toBe("voided");
    expect(await status(intent.id)).toBe("unknown");
  });

  it("needs two different approvers above the dual threshold", async () => {
    const { intent, resolution } = await proposeAccept(1_500_000);
    expect(resolution.requiredApprovals).toBe(2);
    expect(
      (
        await decide(database.prisma, actors.approver!, {
          resolutionId: resolution.id,
          decision: "approved",
          reason: "one",
        })
      ).outcome,
    ).toBe("approved_waiting");
    expect(await status(intent.id)).toBe("unknown");
    await expectRefused(
      decide(database.prisma, actors.approver!, {
        resolutionId: resolution.id,
        decision: "approved",
        reason: "one again",
      }),
      /already decided/,
    );
    expect(
      (
        await decide(database.prisma, actors.approver2!, {
          resolutionId: resolution.id,
          decision: "approved",
          reason: "two",
        })
      ).outcome,
    ).toBe("applied");
    expect(await status(intent.id)).toBe("confirmed");
  });

  it("audits threshold changes with before and after, and applies the new threshold", async () => {
    await setThreshold(database.prisma, actors.admin!, {
      tenantId: "acme-shop",
      currency: "USD",
      thresholdMinor: 1_000n,
      dualThresholdMinor: 50_000n,
    });
    const event = await database.prisma.auditEvent.findFirstOrThrow({
      where: { action: "settings.threshold_changed" },
      orderBy: { seq: "desc" },
    });
    expect(event.details).toMatchObject({
      before: { thresholdMinor: "100000" },
      after: { thresholdMinor: "1000" },
    });
    const { resolution } = await proposeAccept(2_000);
    expect(resolution.requiredApprovals).toBe(1);
    await expectRefused(
      setThreshold(database.prisma, actors.admin!, {
        tenantId: "acme-shop",
        currency: "USD",
        thresholdMinor: 10n,
        dualThresholdMinor: 5n,
      }),
      /at or above/,
    );
  });
});
