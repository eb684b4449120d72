import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { decide } from "@/lib/resolution/approvals";
import { dispatchCompensation } from "@/lib/resolution/compensation";
import { proposeResolution } from "@/lib/resolution/resolve";
import { startSandbox, type SandboxProcess } from "@/test/support/processes";
import { ledgerFixture, type LedgerFixture } from "./fixtures";

// The console reaches a provider the way its profile says — for compensations as for
// lookups — never through a default wired into the code.
let f: LedgerFixture;
let elsewhere: SandboxProcess;
beforeAll(async () => {
  f = await ledgerFixture("pr");
  elsewhere = await startSandbox();
}, 120_000);
afterAll(async () => {
  await elsewhere.stop();
  await f.dispose();
});

it("sends a compensation to the base URL of the charge's provider profile", async () => {
  const charge = await f.charge(4_200, "clean");
  // The tenant's payments provider moves: its profile now names another host.
  await f.database.prisma.providerProfile.update({
    where: { id: charge.providerId },
    data: { baseUrl: elsewhere.url },
  });
  const proposed = await proposeResolution(f.database.prisma, f.actors.operator!, {
    intentId: charge.id,
    kind: "start_compensation",
    reason: "customer cancelled",
    expectedVersion: charge.version,
    submissionKey: randomUUID(),
  });
  const decided = await decide(f.database.prisma, f.actors.approver!, {
    resolutionId: proposed.resolution.id,
    decision: "approved",
    reason: "refund approved",
  });
  const before = (await f.sandbox.requests()).length;
  await dispatchCompensation(
    f.database.prisma,
    f.providerSettings(),
    f.actors.approver!,
    decided.compensationIntentId!,
  );
  const there = (await elsewhere.requests()).filter((r) => r.path.startsWith("/v1/refunds"));
  expect(there.length).toBeGreaterThanOrEqual(1);
  const here = (await f.sandbox.requests()).slice(before).filter((r) => r.path.startsWith("/v1/refunds"));
  expect(here).toHaveLength(0);
  const refund = await f.database.prisma.effectIntent.findUniqueOrThrow({
    where: { id: decided.compensationIntentId! },
  });
  expect(refund.providerId).toBe(charge.providerId);
});
