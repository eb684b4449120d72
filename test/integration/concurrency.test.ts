import { toolEnv } from "@/tools/env";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compareAndSet } from "@/lib/ledger/protocol";
import type { Actor } from "@/lib/auth/actor";
import { decide, closeStaleRequests } from "@/lib/resolution/approvals";
import { claimIntent } from "@/lib/resolution/claims";
import { dispatchCompensation } from "@/lib/resolution/compensation";
import { ResolutionError } from "@/lib/resolution/errors";
import { proposeResolution } from "@/lib/resolution/resolve";
import { auditCount, expectChainVerifies, ledgerFixture, race, type LedgerFixture } from "./fixtures";

// Every conflicting pair of console actions, run at the same moment on PostgreSQL
// many times. Each run asserts the invariant, not a particular winner: whoever wins,
// exactly one outcome commits, with exactly one audit event, and the loser gets a
// typed refusal (never an unexpected error).
const RUNS = toolEnv().CONCURRENCY_RUNS;

let f: LedgerFixture;
let approvers: Actor[];
let operators: Actor[];

beforeAll(async () => {
  f = await ledgerFixture("cc");
  approvers = [f.actors.approver!, f.actors.approver2!, ...(await f.addUsers("approver", 6, ["approver"]))];
  operators = [f.actors.operator!, f.actors.operator2!, ...(await f.addUsers("operator", 2, ["operator"]))];
}, 120_000);
afterAll(async () => {
  await expectChainVerifies(f);
  await f.dispose();
});

const db = () => f.database.prisma;
const resolution = (id: string) => db().resolution.findUniqueOrThrow({ where: { id } });
const intent = (id: string) => db().effectIntent.findUniqueOrThrow({ where: { id } });
const approve = (by: Actor, resolutionId: string, now?: Date) =>
  decide(db(), by, { resolutionId, decision: "approved", reason: "the evidence holds" }, now);
const deny = (by: Actor, resolutionId: string) =>
  decide(db(), by, { resolutionId, decision: "denied", reason: "the amount looks wrong" });

describe("two approvers at the same moment", () => {
  it("approve + approve on a two-approval request applies it exactly once", async () => {
    for (let run = 0; run < RUNS; run++) {
      const p = await f.proposeAccept(1_500_000);
      expect(p.requiredApprovals).toBe(2);
      const results = await race([
        () => approve(approvers[0]!, p.resolutionId),
        () => approve(approvers[1]!, p.resolutionId),
      ]);
      // Both votes are valid: both count, and the second to commit applies.
      const outcomes = results.map((r) => (r.ok ? r.value.outcome : "refused")).sort();
      expect(outcomes).toEqual(["applied", "approved_waiting"]);
      expect((await resolution(p.resolutionId)).status).toBe("applied");
      expect((await intent(p.intentId)).status).toBe("confirmed");
      expect(await auditCount(f, { action: "resolution.applied", targetId: p.intentId })).toBe(1);
      const approvedEvents = await db().auditEvent.findMany({
        where: { action: "resolution.approved", targetId: p.intentId },
        orderBy: { seq: "asc" },
      });
      expect(approvedEvents.map((e) => (e.details as { approvals: number }).approvals)).toEqual([1, 2]);
    }
  });

  it("approve + deny: exactly one wins, never denied and applied", async () => {
    for (let run = 0; run < RUNS; run++) {
      const p = await f.proposeAccept(250_000);
      expect(p.requiredApprovals).toBe(1);
      const results = await race([
        () => approve(approvers[0]!, p.resolutionId),
        () => deny(approvers[1]!, p.resolutionId),
      ]);
      const winners = results.filter((r) => r.ok);
      expect(winners).toHaveLength(1);
      const loser = results.find((r) => !r.ok)!;
      expect(loser.ok).toBe(false);
      if (!loser.ok) expect((loser.error as Error).message).toMatch(/already (applied|denied)/);
      const r = await resolution(p.resolutionId);
      const i = await intent(p.intentId);
      if (r.status === "applied") expect(i.status).toBe("confirmed");
      else {
        expect(r.status).toBe("denied");
        expect(i.status).toBe("unknown");
      }
      const applied = await auditCount(f, { action: "resolution.applied", targetId: p.intentId });
      const denied = await auditCount(f, { action: "resolution.denied", targetId: p.intentId });
      expect(applied + denied).toBe(1);
    }
  });

  it("approve + deny on a two-approval request never ends denied and applied", async () => {
    for (let run = 0; run < RUNS; run++) {
      const p = await f.proposeAccept(1_500_000);
      await race([() => approve(approvers[0]!, p.resolutionId), () => deny(approvers[1]!, p.resolutionId)]);
      const r = await resolution(p.resolutionId);
      expect(r.status).not.toBe("applied");
      expect((await intent(p.intentId)).status).toBe("unknown");
      // Either the denial came first (the approval was refused) or after (it ends the request).
      expect(["denied", "pending_approval"]).toContain(r.status);
      if (r.status === "pending_approval") throw new Error("a denial must end the request");
    }
  });
});

describe("one open request per intent", () => {
  it("20 compensation proposals and 40 approvals on one charge: one request, one refund", async () => {
    for (let run = 0; run < Math.max(2, Math.ceil(RUNS / 3)); run++) {
      const charge = await f.charge(4_200, "clean");
      expect(charge.status).toBe("confirmed");
      const proposals = Array.from(
        { length: 20 },
        (_, i) => () =>
          proposeResolution(db(), operators[i % operators.length]!, {
            intentId: charge.id,
            kind: "start_compensation",
            reason: "customer cancelled the order",
            expectedVersion: charge.version,
            submissionKey: randomUUID(),
          }),
      );
      // Approvers try to approve whatever request is open, as soon as there is one.
      const approvals = Array.from({ length: 40 }, (_, i) => async () => {
        for (let tries = 0; tries < 50; tries++) {
          const open = await db().resolution.findFirst({ where: { intentId: charge.id } });
          if (open) return approve(approvers[i % approvers.length]!, open.id);
          await new Promise((r) => setTimeout(r, 5));
        }
        throw new Error("no request appeared");
      });
      const results = await race<unknown>([...proposals, ...approvals]);
      const proposed = results.slice(0, 20).filter((r) => r.ok);
      expect(proposed).toHaveLength(1);
      for (const r of results.slice(0, 20).filter((x) => !x.ok)) {
        if (r.ok) continue;
        expect(r.error).toBeInstanceOf(ResolutionError);
        expect((r.error as Error).message).toMatch(/already waiting|changed|already/);
      }
      const rows = await db().resolution.findMany({ where: { intentId: charge.id } });
      expect(rows).toHaveLength(1);
      expect(rows[0]!.status).toBe("applied");
      expect(await auditCount(f, { action: "resolution.applied", targetId: charge.id })).toBe(1);
      expect(await auditCount(f, { action: "resolution.proposed", targetId: charge.id })).toBe(1);
      const refunds = await db().effectIntent.findMany({ where: { compensatesId: charge.id } });
      expect(refunds).toHaveLength(1);
      // Every approver whose call applied it sends the refund; the provider sees one.
      const appliedBy = results
        .slice(20)
        .filter((r) => r.ok && (r.value as { outcome: string }).outcome === "applied");
      expect(appliedBy).toHaveLength(1);
      await Promise.all(
        [0, 1, 2].map(() =>
          dispatchCompensation(db(), f.providerSettings(), approvers[0]!, refunds[0]!.id).catch(() => null),
        ),
      );
      const effects = await f.sandbox.effects({ intentKey: refunds[0]!.intentKey });
      expect(effects).toHaveLength(1);
    }
  });

  it("propose + propose: one request or one applied resolution, the other refused by name", async () => {
    for (let run = 0; run < RUNS; run++) {
      const i = await f.charge(250_000);
      const [l1, l2] = [await f.lookUp(i.id, operators[0]), await f.lookUp(i.id, operators[1])];
      const results = await race([
        () =>
          proposeResolution(db(), operators[0]!, {
            intentId: i.id,
            kind: "accept_receipt",
            reason: "found it at the provider",
            lookupId: l1.id,
            expectedVersion: i.version,
            submissionKey: randomUUID(),
          }),
        () =>
          proposeResolution(db(), operators[1]!, {
            intentId: i.id,
            kind: "accept_receipt",
            reason: "found it too",
            lookupId: l2.id,
            expectedVersion: i.version,
            submissionKey: randomUUID(),
          }),
      ]);
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      const refused = results.find((r) => !r.ok);
      if (refused && !refused.ok) expect((refused.error as Error).message).toMatch(/already waiting.*0 of 1/);
      expect(await db().resolution.count({ where: { intentId: i.id } })).toBe(1);
      expect(await auditCount(f, { action: "resolution.proposed", targetId: i.id })).toBe(1);
    }
  });

  it("refuses a second proposal while one is pending, naming it and its progress", async () => {
    const p = await f.proposeAccept(1_500_000);
    await approve(approvers[0]!, p.resolutionId);
    const i = await intent(p.intentId);
    const error = await proposeResolution(db(), f.actors.operator2!, {
      intentId: i.id,
      kind: "escalate",
      reason: "let us wait for finance",
      expectedVersion: i.version,
      submissionKey: randomUUID(),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResolutionError);
    expect((error as ResolutionError).code).toBe("pending");
    expect((error as Error).message).toMatch(/accept receipt.*already waiting.*1 of 2 approvals/);
  });
});

describe("claims, expiry and voiding at the same moment", () => {
  it("claim + claim: exactly one holds it", async () => {
    for (let run = 0; run < RUNS; run++) {
      const i = await f.charge(1_000);
      const results = await race([
        () => claimIntent(db(), operators[0]!, { intentId: i.id }),
        () => claimIntent(db(), operators[1]!, { intentId: i.id }),
      ]);
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      const holder = (await intent(i.id)).claimedById;
      expect([operators[0]!.id, operators[1]!.id]).toContain(holder);
      expect(await auditCount(f, { action: "intent.claimed", targetId: i.id })).toBe(1);
    }
  });

  it("decide + expire: either applied or expired, with one event", async () => {
    for (let run = 0; run < RUNS; run++) {
      const p = await f.proposeAccept(250_000);
      const r0 = await resolution(p.resolutionId);
      const justBefore = new Date(r0.expiresAt!.getTime() - 1);
      const justAfter = new Date(r0.expiresAt!.getTime() + 1);
      await race<unknown>([
        () => approve(approvers[0]!, p.resolutionId, justBefore),
        () => closeStaleRequests(db(), justAfter),
      ]);
      const r = await resolution(p.resolutionId);
      expect(["applied", "expired"]).toContain(r.status);
      const applied = await auditCount(f, { action: "resolution.applied", targetId: p.intentId });
      const expired = await auditCount(f, { action: "resolution.expired", targetId: p.intentId });
      expect([applied, expired]).toEqual(r.status === "applied" ? [1, 0] : [0, 1]);
      expect((await intent(p.intentId)).status).toBe(r.status === "applied" ? "confirmed" : "unknown");
    }
  });

  it("decide + a change to the intent: the approval applies to what was proposed, or is void", async () => {
    for (let run = 0; run < RUNS; run++) {
      const p = await f.proposeAccept(250_000);
      const seen = await intent(p.intentId);
      // A system path changes the intent (flags it for an operator) at the same moment.
      const change = () =>
        db().$transaction((tx) => compareAndSet(tx, seen, "escalate", { needsOperator: true }));
      const results = await race<unknown>([() => approve(approvers[0]!, p.resolutionId), change]);
      const r = await resolution(p.resolutionId);
      const i = await intent(p.intentId);
      if (r.status === "applied") {
        expect(i.status).toBe("confirmed");
        expect(results[1]!.ok).toBe(false);
      } else {
        expect(r.status).toBe("voided");
        expect(i.status).toBe("unknown");
        expect(i.needsOperator).toBe(true);
        expect(await auditCount(f, { action: "resolution.voided", targetId: p.intentId })).toBe(1);
      }
      expect(await auditCount(f, { action: "resolution.applied", targetId: p.intentId })).toBe(
        r.status === "applied" ? 1 : 0,
      );
    }
  });
});
