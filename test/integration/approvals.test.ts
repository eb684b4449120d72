import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import type { Role } from "@/prisma/generated/enums";
import { AuthError } from "@/lib/auth/errors";
import { compareAndSet } from "@/lib/ledger/protocol";
import { decide, closeStaleRequests } from "@/lib/resolution/approvals";
import { claimIntent } from "@/lib/resolution/claims";
import { ResolutionError } from "@/lib/resolution/errors";
import { lookupForOperator } from "@/lib/resolution/lookups";
import { proposeResolution } from "@/lib/resolution/resolve";
import { setThreshold } from "@/lib/resolution/thresholds";
import type { SandboxProcess } from "@/test/support/processes";
import { expectChainVerifies, ledgerFixture, type LedgerFixture } from "./fixtures";
import type { TestDatabase } from "./support";

// The two-person rule, separation of duties, expiry and voiding, through the services.
let f: LedgerFixture;
let database: TestDatabase;
let sandbox: SandboxProcess;
let actors: Record<string, Actor>;

beforeAll(async () => {
  f = await ledgerFixture("a");
  ({ database, sandbox, actors } = f);
}, 60_000);
afterAll(async () => {
  await expectChainVerifies(f);
  await f.dispose();
});

const unknownCharge = (amountMinor: number) => f.charge(amountMinor);
const addUser = async (roles: Role[]) => (await f.addUsers(roles.join("-"), 1, roles))[0]!;

async function proposeAccept(amountMinor: number, by = actors.operator!) {
  const p = await f.proposeAccept(amountMinor, by);
  return {
    intent: await database.prisma.effectIntent.findUniqueOrThrow({ where: { id: p.intentId } }),
    resolution: await database.prisma.resolution.findUniqueOrThrow({ where: { id: p.resolutionId } }),
  };
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
    // One person holding both roles proposes (after their own lookup): they still may not approve.
    const both = await addUser(["operator", "approver"]);
    const { intent, resolution } = await proposeAccept(250_000, both);
    await expectRefused(
      decide(database.prisma, both, { resolutionId: resolution.id, decision: "approved", reason: "self" }),
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
      /already applied \(approved by Amara Approver/,
    );
    expect(
      await database.prisma.auditEvent.count({
        where: { targetId: intent.id, action: "resolution.applied" },
      }),
    ).toBe(1);
  });

  it("refuses an approver who ran the lookup the proposal rests on", async () => {
    const both = await addUser(["operator", "approver"]);
    const intent = await unknownCharge(300_000);
    const { lookup } = await lookupForOperator(
      database.prisma,
      { defaultBaseUrl: sandbox.url, stripeApiKey: "sk_test_sandbox", timeoutMs: 3_000 },
      both,
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
      decide(database.prisma, both, {
        resolutionId: p.resolution.id,
        decision: "approved",
        reason: "mine",
      }),
      /ran the lookup/,
    );
  });

  it("refuses people without the duty's role, and admins whatever else they hold", async () => {
    const { resolution, intent } = await proposeAccept(250_000);
    const adminApprover = await addUser(["approver", "admin"]);
    const adminOperator = await addUser(["operator", "admin"]);
    const refusedBy = async (promise: Promise<unknown>, message: RegExp) => {
      const error = await promise.then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(AuthError);
      expect((error as Error).message).toMatch(message);
    };
    await refusedBy(
      decide(database.prisma, actors.operator2!, {
        resolutionId: resolution.id,
        decision: "approved",
        reason: "x1234",
      }),
      /Only approvers may approve/,
    );
    await refusedBy(
      decide(database.prisma, adminApprover, {
        resolutionId: resolution.id,
        decision: "approved",
        reason: "x1234",
      }),
      /admin role.*separation of duties/,
    );
    const fresh = await unknownCharge(1_000);
    await refusedBy(
      proposeResolution(database.prisma, adminOperator, {
        intentId: fresh.id,
        kind: "escalate",
        reason: "admins may not resolve",
        expectedVersion: fresh.version,
        submissionKey: randomUUID(),
      }),
      /admin role.*separation of duties/,
    );
    await refusedBy(
      proposeResolution(database.prisma, actors.approver!, {
        intentId: fresh.id,
        kind: "escalate",
        reason: "approvers do not propose",
        expectedVersion: fresh.version,
        submissionKey: randomUUID(),
      }),
      /Only operators may resolve/,
    );
    await refusedBy(
      claimIntent(database.prisma, actors.auditor!, { intentId: fresh.id }),
      /Only operators may claim/,
    );
    await refusedBy(
      setThreshold(database.prisma, actors.operator!, {
        tenantId: "acme-shop",
        currency: "USD",
        thresholdMinor: 1n,
        dualThresholdMinor: null,
        reason: "operators cannot",
      }),
      /Only admins/,
    );
    // A disabled account is refused at once, whatever its roles.
    await database.prisma.user.update({ where: { id: adminOperator.id }, data: { disabled: true } });
    await refusedBy(claimIntent(database.prisma, adminOperator, { intentId: fresh.id }), /not active/);
    // Nothing changed: the request still waits, the intent is as it was, no event for any refusal.
    expect(
      (await database.prisma.resolution.findUniqueOrThrow({ where: { id: resolution.id } })).status,
    ).toBe("pending_approval");
    expect(await status(intent.id)).toBe("unknown");
    expect(await database.prisma.resolution.count({ where: { intentId: fresh.id } })).toBe(0);
    expect(await database.prisma.auditEvent.count({ where: { targetId: fresh.id } })).toBe(0);
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
    expect(await closeStaleRequests(database.prisma, later)).toBeGreaterThanOrEqual(1);
    expect(
      (await database.prisma.resolution.findUniqueOrThrow({ where: { id: other.resolution.id } })).status,
    ).toBe("expired");
  });

  it("voids the approval when the intent changed after the proposal", async () => {
    const { intent, resolution } = await proposeAccept(200_000);
    // A system path flags the intent meanwhile: its version moves on.
    await database.prisma.$transaction((tx) =>
      compareAndSet(tx, intent, "escalate", { needsOperator: true }),
    );
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
      reason: "lower for the test",
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
        reason: "dual below single",
      }),
      /at or above/,
    );
  });
});
