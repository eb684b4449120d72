import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareCompensation } from "@/lib/ledger/compensation";
import { beginDispatch, confirm, markUnknown, sweepExpiredLeases } from "@/lib/ledger/dispatch";
import { compareAndSet, LedgerError, prepare, type PrepareInput } from "@/lib/ledger/protocol";
import { seedReferenceData } from "@/lib/seed/demo";
import { freshPostgres, type TestDatabase } from "./support";

// The protocol against a real PostgreSQL, with writers really racing on separate connections.
let database: TestDatabase;
beforeAll(async () => {
  database = await freshPostgres();
  await seedReferenceData(database.prisma);
});
afterAll(async () => database.dispose());

let n = 0;
function input(overrides: Partial<PrepareInput> = {}): PrepareInput {
  n += 1;
  return {
    tenantId: "acme-shop",
    intentKey: `invoice:inv_p${n}:collect:v1`,
    providerId: "payments-sandbox",
    operation: "charge",
    workflowId: `wf_${n}`,
    stepId: "charge",
    request: { amount: 1000 + n, currency: "usd", metadata: { n } },
    summary: { amount_minor: String(1000 + n), currency: "USD" },
    amountMinor: BigInt(1000 + n),
    currency: "USD",
    ...overrides,
  };
}

async function expectLedgerError(promise: Promise<unknown>, code: LedgerError["code"]) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LedgerError);
  expect((error as LedgerError).code).toBe(code);
}

describe("prepare", () => {
  it("records one intent however many writers prepare the same key at once", async () => {
    const same = input();
    const results = await Promise.all(Array.from({ length: 8 }, () => prepare(database.prisma, same)));
    expect(new Set(results.map((r) => r.intent.id)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
  });

  it("treats the same request in another key order as the same request", async () => {
    const first = input({ request: { amount: 5, currency: "usd", metadata: { a: 1, b: 2 } } });
    await prepare(database.prisma, first);
    const again = await prepare(database.prisma, {
      ...first,
      request: { metadata: { b: 2, a: 1 }, currency: "usd", amount: 5 },
    });
    expect(again.created).toBe(false);
  });

  it("refuses the same key with a different request and counts the conflict", async () => {
    const first = input();
    await prepare(database.prisma, first);
    await expectLedgerError(
      prepare(database.prisma, { ...first, request: { amount: 999_999 } }),
      "key_reuse_conflict",
    );
    expect(await database.prisma.keyConflict.count({ where: { intentKey: first.intentKey } })).toBe(1);
    const intent = await database.prisma.effectIntent.findUniqueOrThrow({
      where: { tenantId_intentKey: { tenantId: first.tenantId, intentKey: first.intentKey } },
    });
    expect(intent.amountMinor).toBe(first.amountMinor);
  });
});

describe("dispatch and completion", () => {
  it("lets exactly one of many racing workers dispatch an intent", async () => {
    const { intent } = await prepare(database.prisma, input());
    const outcomes = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) =>
        beginDispatch(database.prisma, { intentId: intent.id, owner: `w${i}`, leaseMs: 30_000 }),
      ),
    );
    const won = outcomes.filter((o) => o.status === "fulfilled");
    expect(won).toHaveLength(1);
    for (const lost of outcomes.filter((o) => o.status === "rejected")) {
      expect((lost as PromiseRejectedResult).reason).toBeInstanceOf(LedgerError);
    }
    const after = await database.prisma.effectIntent.findUniqueOrThrow({
      where: { id: intent.id },
      include: { attempts: true },
    });
    expect(after).toMatchObject({ status: "dispatched", attemptCount: 1, version: 1 });
    expect(after.attempts).toHaveLength(1);
  });

  it("lets only the lease holder record the receipt", async () => {
    const { intent } = await prepare(database.prisma, input());
    const { attempt } = await beginDispatch(database.prisma, {
      intentId: intent.id,
      owner: "holder",
      leaseMs: 30_000,
    });
    await expectLedgerError(
      confirm(database.prisma, {
        intentId: intent.id,
        owner: "intruder",
        attemptId: attempt.id,
        providerResultId: "ch_x",
        responseDigest: "0".repeat(64),
      }),
      "lease_lost",
    );
    const done = await confirm(database.prisma, {
      intentId: intent.id,
      owner: "holder",
      attemptId: attempt.id,
      providerResultId: "ch_ok",
      responseDigest: "1".repeat(64),
    });
    expect(done).toMatchObject({ status: "confirmed", providerResultId: "ch_ok", leaseOwner: null });
  });

  it("freezes an unknown intent: no worker may dispatch it again", async () => {
    const { intent } = await prepare(database.prisma, input());
    const { attempt } = await beginDispatch(database.prisma, {
      intentId: intent.id,
      owner: "w",
      leaseMs: 30_000,
    });
    await markUnknown(database.prisma, {
      intentId: intent.id,
      owner: "w",
      attemptId: attempt.id,
      errorClass: "timeout",
    });
    await expectLedgerError(
      beginDispatch(database.prisma, { intentId: intent.id, owner: "w2", leaseMs: 30_000 }),
      "frozen",
    );
  });

  it("gives one of two racing compare-and-sets a conflict, never a silent overwrite", async () => {
    const { intent } = await prepare(database.prisma, input());
    const { attempt } = await beginDispatch(database.prisma, {
      intentId: intent.id,
      owner: "w",
      leaseMs: 30_000,
    });
    const unknown = await markUnknown(database.prisma, {
      intentId: intent.id,
      owner: "w",
      attemptId: attempt.id,
      errorClass: "timeout",
    });
    // Two operators acting on the same version of the unknown intent.
    const results = await Promise.allSettled([
      database.prisma.$transaction((tx) =>
        compareAndSet(tx, unknown, "accept_receipt", { providerResultId: "ch_a" }),
      ),
      database.prisma.$transaction((tx) => compareAndSet(tx, unknown, "mark_rejected")),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const lost = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect((lost.reason as LedgerError).code).toBe("stale");
  });

  it("sweeps expired leases into unknown, and only expired ones", async () => {
    const now = new Date();
    const a = (await prepare(database.prisma, input())).intent;
    const b = (await prepare(database.prisma, input())).intent;
    await beginDispatch(database.prisma, { intentId: a.id, owner: "dead", leaseMs: 1_000 }, now);
    await beginDispatch(database.prisma, { intentId: b.id, owner: "alive", leaseMs: 600_000 }, now);
    const swept = await sweepExpiredLeases(database.prisma, new Date(now.getTime() + 5_000));
    expect(swept).toContain(a.id);
    expect(swept).not.toContain(b.id);
    const lost = await database.prisma.effectIntent.findUniqueOrThrow({
      where: { id: a.id },
      include: { attempts: true },
    });
    expect(lost.status).toBe("unknown");
    expect(lost.attempts[0]).toMatchObject({ outcome: "unknown", errorClass: "worker_lost" });
  });
});

describe("compensation", () => {
  it("moves the original to compensating, then compensated when the refund is confirmed", async () => {
    const charge = (await prepare(database.prisma, input())).intent;
    const d = await beginDispatch(database.prisma, { intentId: charge.id, owner: "w", leaseMs: 30_000 });
    await confirm(database.prisma, {
      intentId: charge.id,
      owner: "w",
      attemptId: d.attempt.id,
      providerResultId: "ch_orig",
      responseDigest: "2".repeat(64),
    });

    const refundInput = input({
      intentKey: `${charge.intentKey}:refund`,
      operation: "refund",
      compensatesId: charge.id,
    });
    const { intent: refund } = await prepareCompensation(database.prisma, {
      ...refundInput,
      compensatesId: charge.id,
    });
    expect((await database.prisma.effectIntent.findUniqueOrThrow({ where: { id: charge.id } })).status).toBe(
      "compensating",
    );
    // Preparing it again is the same compensation, not a second one.
    expect(
      (await prepareCompensation(database.prisma, { ...refundInput, compensatesId: charge.id })).intent.id,
    ).toBe(refund.id);

    const r = await beginDispatch(database.prisma, { intentId: refund.id, owner: "w", leaseMs: 30_000 });
    await confirm(database.prisma, {
      intentId: refund.id,
      owner: "w",
      attemptId: r.attempt.id,
      providerResultId: "re_1",
      responseDigest: "3".repeat(64),
    });
    expect((await database.prisma.effectIntent.findUniqueOrThrow({ where: { id: charge.id } })).status).toBe(
      "compensated",
    );
  });

  it("refuses to compensate an effect that never happened", async () => {
    const rejected = (await prepare(database.prisma, input())).intent;
    await expectLedgerError(
      prepareCompensation(database.prisma, {
        ...input({ intentKey: `${rejected.intentKey}:refund` }),
        compensatesId: rejected.id,
      }),
      "refused",
    );
  });
});
