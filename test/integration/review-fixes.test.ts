import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appendAudit } from "@/lib/audit/append";
import { decide } from "@/lib/resolution/approvals";
import { sendLeftOverCompensations } from "@/lib/resolution/compensation";
import { ResolutionError } from "@/lib/resolution/errors";
import { proposeResolution } from "@/lib/resolution/resolve";
import { decisionInput, resolutionInput } from "@/lib/resolution/schemas";
import { expectChainVerifies, ledgerFixture, type LedgerFixture } from "./fixtures";

// Defects a second reader found in the guarded path, each pinned by a test.
let f: LedgerFixture;
beforeAll(async () => {
  f = await ledgerFixture("rf");
}, 120_000);
afterAll(async () => {
  await expectChainVerifies(f);
  await f.dispose();
});
const db = () => f.database.prisma;

describe("text that cannot be stored as it was hashed", () => {
  it("refuses a lone surrogate, NUL, bidi overrides and line separators in a reason", () => {
    for (const reason of [
      "amount wrong \ud800",
      "amount\u0000wrong",
      "amount \u202Egnorw",
      "amount\u2028wrong",
    ]) {
      const parsed = decisionInput.safeParse({ resolutionId: randomUUID(), decision: "denied", reason });
      expect(parsed.success, JSON.stringify(reason)).toBe(false);
    }
    const oneLine = resolutionInput.safeParse({
      intentId: randomUUID(),
      kind: "accept_receipt",
      reason: "found at the provider",
      externalEvidenceRef: "ticket\t42",
      expectedVersion: 1,
      submissionKey: randomUUID(),
    });
    expect(oneLine.success).toBe(false);
  });

  it("keeps the chain verifiable when an event's details hold text PostgreSQL cannot store", async () => {
    await db().$transaction((tx) =>
      appendAudit(tx, {
        actor: { id: null, email: null, roles: [] },
        action: "test.odd_text",
        reason: "lone \ud83d surrogate",
        details: { evidence: "nul\u0000byte", ["key\udc00"]: "x" },
      }),
    );
    await expectChainVerifies(f);
  });
});

describe("submission keys", () => {
  it("refuses a key reused for a different proposal instead of calling it done", async () => {
    const charge = await f.charge(1_000);
    const key = randomUUID();
    const first = await proposeResolution(db(), f.actors.operator!, {
      intentId: charge.id,
      kind: "escalate",
      reason: "ambiguous so far",
      expectedVersion: charge.version,
      submissionKey: key,
    });
    expect(first.applied).toBe(true);
    const lookup = await f.lookUp(charge.id);
    const second = await proposeResolution(db(), f.actors.operator!, {
      intentId: charge.id,
      kind: "accept_receipt",
      reason: "found it at the provider",
      lookupId: lookup.id,
      expectedVersion: first.intent.version,
      submissionKey: key,
    }).catch((e: unknown) => e);
    expect(second).toBeInstanceOf(ResolutionError);
    expect((second as ResolutionError).code).toBe("duplicate_submission");
    // The same submission again is still a harmless replay.
    const again = await proposeResolution(db(), f.actors.operator!, {
      intentId: charge.id,
      kind: "escalate",
      reason: "ambiguous so far",
      expectedVersion: charge.version,
      submissionKey: key,
    });
    expect(again.replayed).toBe(true);
  });
});

describe("a compensation approved but never sent", () => {
  it("is sent by the sweeper's pass, once, and settles the charge", async () => {
    const charge = await f.charge(4_200, "clean");
    const proposed = await proposeResolution(db(), f.actors.operator!, {
      intentId: charge.id,
      kind: "start_compensation",
      reason: "customer cancelled",
      expectedVersion: charge.version,
      submissionKey: randomUUID(),
    });
    // The approval commits, then the process stops before sending the refund.
    const decided = await decide(db(), f.actors.approver!, {
      resolutionId: proposed.resolution.id,
      decision: "approved",
      reason: "refund approved",
    });
    const refundId = decided.compensationIntentId!;
    expect((await db().effectIntent.findUniqueOrThrow({ where: { id: refundId } })).status).toBe("prepared");
    const later = new Date(Date.now() + 120_000);
    const [a, b] = await Promise.all([
      sendLeftOverCompensations(db(), f.providerSettings(), later),
      sendLeftOverCompensations(db(), f.providerSettings(), later),
    ]);
    expect(a.sent + b.sent).toBeGreaterThanOrEqual(1);
    const refund = await db().effectIntent.findUniqueOrThrow({ where: { id: refundId } });
    expect(refund.status).toBe("confirmed");
    expect((await db().effectIntent.findUniqueOrThrow({ where: { id: charge.id } })).status).toBe(
      "compensated",
    );
    expect(await f.sandbox.effects({ intentKey: refund.intentKey })).toHaveLength(1);
  });
});
