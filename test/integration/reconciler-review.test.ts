import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Prisma, type EffectIntent } from "@/prisma/generated/client";
import type { Actor } from "@/lib/auth/actor";
import { seedReferenceData } from "@/lib/seed/demo";
import { beginDispatch, markUnknown } from "@/lib/ledger/dispatch";
import { prepare } from "@/lib/ledger/protocol";
import { takeProviderToken } from "@/lib/providers/rate-limit";
import { setReconcilePolicy } from "@/lib/reconcile/policy";
import { enqueueUnknown, pickDue } from "@/lib/reconcile/queue";
import { reconcilePass, reconcileUntilIdle, type ReconcilerOptions } from "@/lib/reconcile/reconcile";
import { claimIntent } from "@/lib/resolution/claims";
import { proposeResolution } from "@/lib/resolution/resolve";
import { runScenario, type Scenario } from "@/tools/simulator/scenarios";
import { enableAcmeReconciler, expectChainVerifies, ledgerFixture, type LedgerFixture } from "./fixtures";
import { freshPglite } from "./support";

// The reconciler attacked where people, admins and other reconcilers act while it works
// (a review's findings, kept as tests), on PostgreSQL with the sandbox provider process.

const PROVIDER = "payments-sandbox";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let f: LedgerFixture;
let reconciler: Actor;
const db = () => f.database.prisma;
const intent = (id: string) => db().effectIntent.findUniqueOrThrow({ where: { id } });
const row = (id: string) => db().reconciliation.findUnique({ where: { intentId: id } });

beforeAll(async () => {
  f = await ledgerFixture("rv");
  reconciler = await enableAcmeReconciler(f);
}, 120_000);
afterAll(async () => {
  await expectChainVerifies(f);
  await f.dispose();
});

// Every test starts with nothing due but its own intents: earlier tests' rows are parked.
beforeEach(async () => {
  await enqueueUnknown(db(), new Date());
  await db()
    .$executeRaw`UPDATE reconciliations SET next_at = now() + interval '10 years' WHERE state = 'active'`;
  await refillBucket();
});

function options(over: Partial<ReconcilerOptions> = {}): ReconcilerOptions {
  return { db: db(), settings: f.providerSettings(), actor: reconciler, owner: "rv-test", ...over };
}
const drain = (over: Partial<ReconcilerOptions> = {}) => reconcileUntilIdle(options(over));

function policy(
  p: { mode?: "on" | "dry_run" | "off"; redispatch?: boolean; maxRedispatches?: number; providerId?: string },
  reason: string,
) {
  return setReconcilePolicy(db(), f.actors.admin!, {
    tenantId: "acme-shop",
    providerId: p.providerId ?? PROVIDER,
    mode: p.mode ?? "on",
    redispatch: p.redispatch ?? true,
    maxRedispatches: p.maxRedispatches ?? 2,
    reason,
  });
}

async function charge(amountMinor: number, scenario: Scenario, agoMs?: number): Promise<EffectIntent> {
  const made = await f.charge(amountMinor, scenario, agoMs);
  expect(made.status).toBe("unknown");
  return made;
}

async function effectsFor(i: EffectIntent) {
  return (await f.sandbox.effects({ intentKey: i.intentKey })).filter((e) => !e.injected);
}

/** The shared token bucket owes `ms` worth of tokens: the next lookup of the provider waits that long. */
async function owe(ms: number, providerId = PROVIDER) {
  const { rateLimitPerSecond } = await db().providerProfile.findUniqueOrThrow({ where: { id: providerId } });
  const tokens = -((ms / 1000) * rateLimitPerSecond);
  await db().$executeRaw`
    INSERT INTO provider_rate_buckets (provider_id, tokens, refilled_at) VALUES (${providerId}, ${tokens}, clock_timestamp())
    ON CONFLICT (provider_id) DO UPDATE SET tokens = ${tokens}, refilled_at = clock_timestamp()`;
}
const refillBucket = () => db().$executeRaw`UPDATE provider_rate_buckets SET tokens = 1000`;

/** Waits until `owner` holds the intent's queue row (it has picked it and is working on it). */
async function untilPicked(intentId: string, owner: string) {
  for (let waited = 0; waited < 20_000; waited += 25) {
    const r = await row(intentId);
    if (r?.leasedBy === owner) return;
    await sleep(25);
  }
  throw new Error(`${owner} never picked ${intentId}`);
}

const reconcilerLookups = (intentId: string) =>
  db().lookup.count({ where: { intentId, actorId: reconciler.id } });

describe("policy and person changes while a lookup is under way", () => {
  it.each(["off", "dry_run"] as const)(
    "stops its confirmation when the policy is switched to %s while it looks up (re-read under the lock)",
    async (mode) => {
      const found = await charge(2_000 + (mode === "off" ? 1 : 2), "charged_answer_lost");
      await owe(3_000); // the lookup waits 3 s for a token: the window an admin acts in
      const pass = reconcilePass(options({ owner: `rv-kill-${mode}` }));
      await untilPicked(found.id, `rv-kill-${mode}`);
      await sleep(500); // the reconciler has read the policy ("on") and waits on the bucket
      await policy({ mode }, "provider incident: hands off now");
      try {
        await pass;
      } finally {
        await policy({ mode: "on" }, "incident over");
      }
      const now = await intent(found.id);
      const applied = await db().resolution.findMany({
        where: { intentId: found.id, proposedById: reconciler.id, status: "applied" },
      });
      expect(applied).toHaveLength(0);
      expect(now).toMatchObject({ status: "unknown", version: found.version });
    },
  );

  it("stops a redispatch when the kill switch is flipped during the lookup (re-checked under the lock)", async () => {
    const absent = await charge(3_001, "never_sent_worker_lost");
    await owe(3_000);
    const pass = reconcilePass(options({ owner: "rv-kill-rd" }));
    await untilPicked(absent.id, "rv-kill-rd");
    await sleep(500);
    await policy({ mode: "off" }, "hands off");
    try {
      await pass;
    } finally {
      await policy({ mode: "on" }, "incident over");
    }
    expect(await intent(absent.id)).toMatchObject({ status: "unknown", version: absent.version });
    expect(await effectsFor(absent)).toHaveLength(0);
  });

  it("leaves an intent a person claims during the lookup alone (claim re-checked under the lock)", async () => {
    const found = await charge(2_010, "charged_answer_lost");
    await owe(3_000);
    const pass = reconcilePass(options({ owner: "rv-claim" }));
    await untilPicked(found.id, "rv-claim");
    await sleep(500);
    await claimIntent(db(), f.actors.operator!, { intentId: found.id });
    await pass;
    expect(await intent(found.id)).toMatchObject({ status: "unknown", claimedById: f.actors.operator!.id });
    expect(await db().resolution.count({ where: { intentId: found.id } })).toBe(0);
  });

  it("lets a person escalating during the lookup win; its confirmation is refused", async () => {
    const found = await charge(2_020, "charged_answer_lost");
    await owe(3_000);
    const pass = reconcilePass(options({ owner: "rv-esc" }));
    await untilPicked(found.id, "rv-esc");
    await sleep(500);
    await proposeResolution(db(), f.actors.operator!, {
      intentId: found.id,
      kind: "escalate",
      reason: "customer disputes it",
      expectedVersion: found.version,
      submissionKey: randomUUID(),
    });
    await pass;
    expect(await intent(found.id)).toMatchObject({ status: "unknown", needsOperator: true });
    expect(await db().resolution.count({ where: { intentId: found.id, proposedById: reconciler.id } })).toBe(
      0,
    );
  });
});

describe("a person's waiting approval request", () => {
  it("never sends an intent again while a person's request for it waits for approval", async () => {
    const absent = await charge(2_600, "never_sent_worker_lost");
    // The operator has outside evidence that the charge happened; it needs an approver.
    const proposed = await proposeResolution(db(), f.actors.operator!, {
      intentId: absent.id,
      kind: "accept_receipt",
      reason: "The customer's bank statement shows this charge",
      externalEvidenceRef: "bank-statement:2026-11-30#4411",
      expectedVersion: absent.version,
      submissionKey: randomUUID(),
    });
    expect(proposed.resolution.status).toBe("pending_approval");

    await drain({ owner: "rv-pending" });
    const now = await intent(absent.id);
    expect((await db().resolution.findUniqueOrThrow({ where: { id: proposed.resolution.id } })).status).toBe(
      "pending_approval",
    );
    const effects = await effectsFor(absent);
    // A person's proposal waits for an approver: no one else (person or reconciler) changes the intent meanwhile.
    expect(effects).toHaveLength(0);
    expect(now).toMatchObject({ status: "unknown", version: absent.version });
  });

  it("waits for a person's pending request without asking the provider again and again", async () => {
    const found = await charge(150_000, "charged_answer_lost");
    const lookup = await f.lookUp(found.id, f.actors.operator!);
    const proposed = await proposeResolution(db(), f.actors.operator!, {
      intentId: found.id,
      kind: "accept_receipt",
      reason: "found at the provider",
      lookupId: lookup.id,
      expectedVersion: found.version,
      submissionKey: randomUUID(),
    });
    expect(proposed.resolution.status).toBe("pending_approval");

    for (let k = 0; k < 5; k++) {
      await refillBucket();
      await reconcilePass(options({ owner: "rv-churn", now: () => new Date(Date.now() + k * 31_000) }));
    }
    expect((await row(found.id))?.lastReason).toMatch(/waits for approval/);
    const lookups = await reconcilerLookups(found.id);
    // One lookup, then leave it to the approver (or look again when the request closes).
    expect(lookups).toBeLessThanOrEqual(1);
  });
});

describe("intents the reconciler stops seeing", () => {
  it("takes an intent up again when it is unknown again after people settled it", async () => {
    await policy({ redispatch: false }, "do not send anything again for now");
    let absent: EffectIntent;
    try {
      absent = await charge(3_400, "never_sent_worker_lost");
      await drain({ owner: "rv-again" });
      expect(await row(absent.id)).toMatchObject({ state: "escalated" });
    } finally {
      await policy({ redispatch: true }, "sending again is fine");
    }
    // A person marks it rejected on a fresh absent lookup (safe to retry with the same key)…
    const lookup = await f.lookUp(absent.id, f.actors.operator!);
    expect(lookup.outcome).toBe("absent");
    await proposeResolution(db(), f.actors.operator!, {
      intentId: absent.id,
      kind: "mark_rejected",
      reason: "absent at the provider",
      lookupId: lookup.id,
      expectedVersion: (await intent(absent.id)).version,
      submissionKey: randomUUID(),
    });
    expect((await intent(absent.id)).status).toBe("rejected");
    // …the workflow retries the step with the same key; the provider charges, the answer is lost again.
    await runScenario(db(), f.sandbox.url, f.jobs.get(absent.intentKey)!, "charged_answer_lost");
    expect(await intent(absent.id)).toMatchObject({ status: "unknown", needsOperator: false });
    expect(await effectsFor(absent)).toHaveLength(1);

    // Unknown, not escalated, the charge found at the provider, under the limit, policy on.
    expect((await drain({ owner: "rv-again" })).picked).toBeGreaterThan(0);

    expect((await intent(absent.id)).status).toBe("confirmed");
  });

  it("escalates through the ledger and the audit log when the provider offers no usable lookup", async () => {
    await db().providerProfile.create({
      data: {
        id: "payments-nolookup",
        name: "Payments without lookups",
        kind: "payments",
        supportsIdempotency: true,
        keyRetentionSeconds: 86_400,
        responseWindowSeconds: 30,
        visibilityDelaySeconds: 60,
        rateLimitPerSecond: 25,
        lookupMethods: [],
      },
    });
    await policy({ providerId: "payments-nolookup" }, "reconcile it too");
    const { intent: prepared } = await prepare(db(), {
      tenantId: "acme-shop",
      intentKey: `invoice:nolookup_${randomUUID().slice(0, 6)}:collect:v1`,
      providerId: "payments-nolookup",
      operation: "charge",
      workflowId: "wf_nolookup",
      stepId: "charge",
      request: { path: "/v1/charges", params: { amount: 1_000 } },
      summary: { amount_minor: "1000", currency: "USD" },
      amountMinor: 1_000n,
      currency: "USD",
    });
    const d = await beginDispatch(db(), { intentId: prepared.id, owner: "w-nolookup", leaseMs: 60_000 });
    await markUnknown(db(), {
      intentId: prepared.id,
      owner: "w-nolookup",
      attemptId: d.attempt.id,
      errorClass: "timeout",
    });

    await drain({ owner: "rv-nolookup" });
    const now = await intent(prepared.id);
    const events = await db().auditEvent.count({ where: { targetId: prepared.id, actorId: reconciler.id } });
    expect(now.needsOperator).toBe(true);
    expect(events).toBeGreaterThan(0);
  });

  it("escalates an absent intent it cannot rebuild exactly, after one lookup", async () => {
    const absent = await charge(3_300, "never_sent_worker_lost");
    // As every unknown charge recorded before this release: nothing to send it again with.
    await db().effectIntent.update({ where: { id: absent.id }, data: { replayParams: Prisma.DbNull } });

    for (let k = 0; k < 5; k++) {
      await refillBucket();
      await reconcilePass(options({ owner: "rv-legacy", now: () => new Date(Date.now() + k * 31_000) }));
    }
    expect((await row(absent.id))?.lastReason).toMatch(/cannot send it again/);
    const now = await intent(absent.id);
    const lookups = await reconcilerLookups(absent.id);
    // It cannot be sent again: a person must be told, once.
    expect(now.needsOperator).toBe(true);
    expect(lookups).toBeLessThanOrEqual(1);
  });
});

describe("what is sent again", () => {
  it("never sends a request that does not rebuild to the recorded digest", async () => {
    const absent = await charge(3_500, "never_sent_worker_lost");
    const summary = absent.requestSummary as Record<string, string>;
    await db().effectIntent.update({
      where: { id: absent.id },
      data: { requestSummary: { ...summary, description: `${summary.description} (edited)` } },
    });
    const posts = async () =>
      (await f.sandbox.requests()).filter((r) => r.intentKey === absent.intentKey && r.method === "POST")
        .length;
    const before = await posts();
    await reconcilePass(options({ owner: "rv-digest" }));
    expect(await posts()).toBe(before);
    expect(await effectsFor(absent)).toHaveLength(0);
    expect((await row(absent.id))?.lastReason).toMatch(/does not match the recorded request digest/);
  });

  it("leaves an absent amount above the auto-resolve limit to a person", async () => {
    const large = await charge(900_000, "never_sent_worker_lost");
    await drain({ owner: "rv-large" });
    const now = await intent(large.id);
    expect(now.status).toBe("unknown");
  });
});

describe("several reconcilers", () => {
  it("hands a batch that outlasts its lease to the reconciler that took it over, one lookup each", async () => {
    await db().providerProfile.update({ where: { id: PROVIDER }, data: { rateLimitPerSecond: 2 } });
    try {
      const intents = await Promise.all(
        Array.from({ length: 4 }, (_, i) => charge(1_500 + i, "charged_answer_lost")),
      );
      await owe(0);
      // A takes all four for 1 s; at 2 lookups/s it needs about 2 s for them.
      const a = reconcilePass(options({ owner: "rv-a", batch: 4, leaseMs: 1_000 }));
      await sleep(1_300);
      const b = reconcilePass(options({ owner: "rv-b", batch: 4, leaseMs: 60_000 }));
      const [ca, cb] = await Promise.all([a, b]);
      const perIntent = await Promise.all(intents.map((i) => reconcilerLookups(i.id)));
      for (const i of intents) expect((await intent(i.id)).status).toBe("confirmed"); // the ledger guard holds
      expect(ca.picked + cb.picked).toBeGreaterThanOrEqual(intents.length);
      expect(Math.max(...perIntent)).toBe(1);
    } finally {
      await db().providerProfile.update({ where: { id: PROVIDER }, data: { rateLimitPerSecond: 25 } });
    }
  });
});

describe("audit and data", () => {
  it("audits the lapsed lease that turns a dispatched intent unknown", async () => {
    const { intent: prepared } = await prepare(db(), {
      tenantId: "acme-shop",
      intentKey: `invoice:lapsed_${randomUUID().slice(0, 6)}:collect:v1`,
      providerId: PROVIDER,
      operation: "charge",
      workflowId: "wf_lapsed",
      stepId: "charge",
      request: { path: "/v1/charges", params: { amount: 1_234 } },
      summary: { amount_minor: "1234", currency: "USD" },
      amountMinor: 1_234n,
      currency: "USD",
    });
    await beginDispatch(db(), { intentId: prepared.id, owner: "w-lapsed", leaseMs: 1 });
    await sleep(20);
    await reconcilePass(options({ owner: "rv-lapsed" }));
    const now = await intent(prepared.id);
    const events = await db().auditEvent.findMany({ where: { targetId: prepared.id } });
    expect(now.status).toBe("unknown");
    expect(events.filter((e) => e.beforeStatus === "dispatched" && e.afterStatus === "unknown")).toHaveLength(
      1,
    );
  });

  it("keeps the payment-method token out of the redacted summary", async () => {
    const made = await charge(1_111, "charged_answer_lost");
    const summary = made.requestSummary as Record<string, unknown>;
    // SPEC: "a redacted request summary (amount + currency, or recipient + template; never secrets …)".
    expect(Object.keys(summary)).not.toContain("payment_method");
  });
});

describe("limits", () => {
  it("never confirms above the approval threshold, even with a limit set above it behind the form's back", async () => {
    await db().approvalThreshold.update({
      where: { tenantId_currency: { tenantId: "acme-shop", currency: "USD" } },
      data: { autoResolveBelowMinor: 5_000_000n },
    });
    try {
      const large = await charge(150_000, "charged_answer_lost");
      await drain({ owner: "rv-limit" });
      expect(await intent(large.id)).toMatchObject({ status: "unknown", needsOperator: true });
      expect(await db().resolution.count({ where: { intentId: large.id, kind: "accept_receipt" } })).toBe(0);
    } finally {
      await db().approvalThreshold.update({
        where: { tenantId_currency: { tenantId: "acme-shop", currency: "USD" } },
        data: { autoResolveBelowMinor: 50_000n },
      });
    }
  });
});

describe("on PGlite (the demo's embedded database)", () => {
  it("runs the queue's and the token bucket's SQL there", async () => {
    const pg = await freshPglite();
    try {
      const users = await seedReferenceData(pg.prisma);
      const admin = users.find((u) => u.roles.includes("admin"))!;
      await setReconcilePolicy(
        pg.prisma,
        { id: admin.id, email: admin.email, roles: admin.roles },
        {
          tenantId: "acme-shop",
          providerId: PROVIDER,
          mode: "on",
          redispatch: true,
          maxRedispatches: 2,
          reason: "pglite",
        },
      );
      const { intent: prepared } = await prepare(pg.prisma, {
        tenantId: "acme-shop",
        intentKey: "invoice:pglite:collect:v1",
        providerId: PROVIDER,
        operation: "charge",
        workflowId: "wf",
        stepId: "charge",
        request: { amount: 1 },
        summary: { amount_minor: "1", currency: "USD" },
        amountMinor: 1n,
        currency: "USD",
      });
      const d = await beginDispatch(pg.prisma, { intentId: prepared.id, owner: "w", leaseMs: 60_000 });
      await markUnknown(pg.prisma, {
        intentId: prepared.id,
        owner: "w",
        attemptId: d.attempt.id,
        errorClass: "timeout",
      });
      expect(await enqueueUnknown(pg.prisma, new Date())).toBe(1);
      const picked = await pickDue(pg.prisma, "pg", 10, 60_000, new Date());
      expect(picked.map((p) => p.intentId)).toEqual([prepared.id]);
      expect(picked[0]!.deadline).not.toBeNull();
      await takeProviderToken(pg.prisma, PROVIDER, 25);
      await takeProviderToken(pg.prisma, PROVIDER, 25);
    } finally {
      await pg.dispose();
    }
  });
});
