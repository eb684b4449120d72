import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EffectIntent } from "@/prisma/generated/client";
import type { Actor } from "@/lib/auth/actor";
import { providerIdempotencyKey } from "@/lib/ledger/keys";
import { setReconcilePolicy } from "@/lib/reconcile/policy";
import { reconcilePass, reconcileUntilIdle, type ReconcilerOptions } from "@/lib/reconcile/reconcile";
import { proposeResolution } from "@/lib/resolution/resolve";
import type { Scenario } from "@/tools/simulator/scenarios";
import { toolEnv } from "@/tools/env";
import { startReconciler } from "@/test/support/processes";
import {
  enableAcmeReconciler,
  expectChainVerifies,
  ledgerFixture,
  race,
  type LedgerFixture,
} from "./fixtures";

// The reconciler against the sandbox provider process: each outcome of the policy,
// two reconcilers at once, a person and the reconciler at once. The sandbox's own
// record of effects and requests is the truth every assertion is checked against.
const RUNS = toolEnv().CONCURRENCY_RUNS;
const HOUR = 3_600_000;

let f: LedgerFixture;
let reconciler: Actor;
const db = () => f.database.prisma;
const intent = (id: string) => db().effectIntent.findUniqueOrThrow({ where: { id } });
const row = (id: string) => db().reconciliation.findUniqueOrThrow({ where: { intentId: id } });

beforeAll(async () => {
  f = await ledgerFixture("rc");
  reconciler = await enableAcmeReconciler(f);
}, 120_000);
afterAll(async () => {
  await expectChainVerifies(f);
  await f.dispose();
});

function options(over: Partial<ReconcilerOptions> = {}): ReconcilerOptions {
  return { db: db(), settings: f.providerSettings(), actor: reconciler, owner: "rc-test", ...over };
}

/** A USD charge of acme-shop with a known truth at the sandbox, made `agoMs` ago; unknown in the ledger. */
async function charge(amountMinor: number, scenario: Scenario, agoMs?: number): Promise<EffectIntent> {
  const made = await f.charge(amountMinor, scenario, agoMs);
  expect(made.status).toBe("unknown");
  return made;
}

/** Runs passes until nothing is due (the reconciler's `--once`). */
const drain = (over: Partial<ReconcilerOptions> = {}) => reconcileUntilIdle(options(over));

/** The admin sets acme-shop's card-payment policy (audited, with the reason). */
const policy = (mode: "on" | "dry_run" | "off", reason: string) =>
  setReconcilePolicy(db(), f.actors.admin!, {
    tenantId: "acme-shop",
    providerId: "payments-sandbox",
    mode,
    redispatch: true,
    maxRedispatches: 2,
    reason,
  });

async function effectsFor(i: EffectIntent) {
  return (await f.sandbox.effects({ intentKey: i.intentKey })).filter((e) => !e.injected);
}

describe("one pass over each kind of evidence", () => {
  it("confirms, redispatches with the original key, retries later and escalates, each as the policy says", async () => {
    const found = await charge(2_500, "charged_answer_lost");
    const foundLarge = await charge(80_000, "charged_answer_lost");
    const absent = await charge(3_000, "never_sent_worker_lost");
    const fresh = await charge(4_000, "never_sent_worker_lost", 1_000);
    const forgotten = await charge(5_000, "never_sent_worker_lost", 30 * HOUR);
    const conflicting = await charge(6_000, "never_sent_worker_lost");
    // A stale caller charged another amount under this intent: the provider shows something else.
    await f.sandbox.control("/_effects", {
      kind: "charge",
      amount: 6_500,
      currency: "usd",
      customer: `cus_other`,
      metadata: {
        intent_key: conflicting.intentKey,
        idempotency_key: providerIdempotencyKey("acme-shop", conflicting.intentKey),
      },
      createdAt: Date.now() - 10 * 60_000,
    });

    const counts = await drain();
    expect(counts).toMatchObject({ picked: 6, confirmed: 1, redispatched: 1, escalated: 3, retryLater: 1 });

    // found_matching under the limit: confirmed with the provider's receipt, by the reconciler.
    const confirmed = await intent(found.id);
    const [foundEffect] = await effectsFor(found);
    expect(confirmed).toMatchObject({
      status: "confirmed",
      providerResultId: foundEffect!.id,
      settledBy: "reconciler",
    });
    const accept = await db().resolution.findFirstOrThrow({ where: { intentId: found.id } });
    expect(accept).toMatchObject({ kind: "accept_receipt", status: "applied", proposedById: reconciler.id });
    const audit = await db().auditEvent.findMany({ where: { targetId: found.id }, orderBy: { seq: "asc" } });
    expect(audit.filter((e) => e.actorId === reconciler.id).map((e) => e.action)).toEqual([
      "lookup.run",
      "resolution.applied",
    ]);

    // found_matching above the limit: handed to people, the lookup attached, nothing applied.
    const large = await intent(foundLarge.id);
    expect(large).toMatchObject({ status: "unknown", needsOperator: true });
    expect((await row(foundLarge.id)).lastReason).toMatch(/auto-resolve limit/);
    expect((await row(foundLarge.id)).lastLookupId).not.toBeNull();

    // absent within retention: the same intent sent again with its own key, once.
    const sent = await intent(absent.id);
    expect(sent).toMatchObject({
      status: "confirmed",
      settledBy: "reconciler",
      attemptCount: absent.attemptCount + 1,
    });
    const absentEffects = await effectsFor(absent);
    expect(absentEffects).toHaveLength(1);
    expect(absentEffects[0]!.idempotencyKey).toBe(providerIdempotencyKey("acme-shop", absent.intentKey));
    expect(sent.providerResultId).toBe(absentEffects[0]!.id);

    // not visible yet: looked up, to be looked at again later; nothing changed.
    expect(await intent(fresh.id)).toMatchObject({
      status: "unknown",
      needsOperator: false,
      version: fresh.version,
    });
    const waiting = await row(fresh.id);
    expect(waiting).toMatchObject({
      state: "active",
      lastOutcome: "not_visible_yet",
      lastAction: "retry_later",
    });
    expect(waiting.nextAt.getTime()).toBeGreaterThan(Date.now());
    expect(await effectsFor(fresh)).toHaveLength(0);

    // Absent, but the provider no longer keeps the key: never sent again; a person decides.
    expect(await intent(forgotten.id)).toMatchObject({ status: "unknown", needsOperator: true });
    expect((await row(forgotten.id)).lastReason).toMatch(/forgets the key/);
    expect(await effectsFor(forgotten)).toHaveLength(0);

    // Something else under our key: escalated with the evidence.
    expect(await intent(conflicting.id)).toMatchObject({ status: "unknown", needsOperator: true });
    expect(await row(conflicting.id)).toMatchObject({ state: "escalated", lastOutcome: "found_conflicting" });

    // Nothing is due now: a second pass picks nothing and the ledger stays as it is.
    expect((await reconcilePass(options())).picked).toBe(0);
  });

  it("in dry run looks up and records what it would do, and changes nothing", async () => {
    await policy("dry_run", "watch before trusting it");
    try {
      const found = await charge(2_000, "charged_answer_lost");
      const counts = await drain();
      expect(counts).toMatchObject({ picked: 1, dryRun: 1, confirmed: 0 });
      expect(await intent(found.id)).toMatchObject({ status: "unknown", version: found.version });
      expect(await row(found.id)).toMatchObject({ state: "active", lastAction: "would_confirm" });
      expect(
        await db().auditEvent.count({ where: { targetId: found.id, action: "reconciler.dry_run" } }),
      ).toBe(1);
    } finally {
      await policy("on", "trusted");
    }
  });

  it("with the kill switch off takes nothing up, and leaves what it had to people", async () => {
    const before = await charge(2_100, "charged_answer_lost", 1_000); // not visible yet: stays active
    await drain();
    expect((await row(before.id)).state).toBe("active");
    await policy("off", "provider incident: hands off");
    try {
      const after = await charge(2_200, "charged_answer_lost");
      await db().reconciliation.update({ where: { intentId: before.id }, data: { nextAt: new Date() } });
      const counts = await drain();
      expect(counts).toMatchObject({ picked: 1, skipped: 1, confirmed: 0 });
      expect(await row(before.id)).toMatchObject({ state: "dropped" });
      expect(await db().reconciliation.findUnique({ where: { intentId: after.id } })).toBeNull();
      expect((await intent(after.id)).status).toBe("unknown");
    } finally {
      await policy("on", "incident over");
    }
  });

  it("never acts on an intent a person has claimed", async () => {
    const found = await charge(2_300, "charged_answer_lost");
    await db().effectIntent.update({
      where: { id: found.id },
      data: { claimedById: f.actors.operator!.id, claimExpiresAt: new Date(Date.now() + HOUR) },
    });
    await drain();
    expect(await row(found.id)).toMatchObject({ state: "active", lastAction: "skipped" });
    expect(await intent(found.id)).toMatchObject({ status: "unknown", version: found.version });
    expect(await db().lookup.count({ where: { intentId: found.id } })).toBe(0);
    expect((await row(found.id)).nextAt.getTime()).toBeGreaterThan(Date.now() + HOUR - 60_000);
  });
});

describe("at the same moment", () => {
  it("two reconcilers handle each intent once", async () => {
    for (let run = 0; run < Math.max(3, Math.ceil(RUNS / 4)); run++) {
      const intents = await Promise.all([
        ...Array.from({ length: 4 }, (_, i) => charge(1_000 + i, "charged_answer_lost")),
        ...Array.from({ length: 2 }, (_, i) => charge(1_100 + i, "never_sent_worker_lost")),
      ]);
      const [a, b] = await Promise.all([
        reconcilePass(options({ owner: "rc-a", batch: 3 })),
        reconcilePass(options({ owner: "rc-b", batch: 3 })),
      ]);
      const rest = await drain();
      expect(a.picked + b.picked + rest.picked).toBe(intents.length);
      for (const i of intents) {
        const now = await intent(i.id);
        expect(now.status).toBe("confirmed");
        // One lookup before acting; one resolution or one redispatch; one effect at the provider.
        expect(await db().lookup.count({ where: { intentId: i.id } })).toBe(1);
        expect(await effectsFor(i)).toHaveLength(1);
        expect(
          await db().auditEvent.count({
            where: { targetId: i.id, action: { in: ["resolution.applied", "reconciler.redispatched"] } },
          }),
        ).toBe(1);
      }
    }
  });

  it("a person and the reconciler resolving one intent: exactly one wins", async () => {
    const operator = f.actors.operator!;
    for (let run = 0; run < RUNS; run++) {
      const found = await charge(2_400, "charged_answer_lost");
      const lookup = await f.lookUp(found.id, operator);
      const [person] = await race<unknown>([
        () =>
          proposeResolution(db(), operator, {
            intentId: found.id,
            kind: "accept_receipt",
            reason: "found it myself",
            lookupId: lookup.id,
            expectedVersion: found.version,
            submissionKey: randomUUID(),
          }),
        () => reconcilePass(options({ owner: `rc-race-${run}` })),
      ]);
      const applied = await db().resolution.findMany({ where: { intentId: found.id, status: "applied" } });
      expect(applied).toHaveLength(1);
      const now = await intent(found.id);
      expect(now.status).toBe("confirmed");
      expect(now.settledBy).toBe(applied[0]!.proposedById === reconciler.id ? "reconciler" : "person");
      expect(person!.ok).toBe(applied[0]!.proposedById === operator.id);
      expect(
        await db().auditEvent.count({ where: { targetId: found.id, action: "resolution.applied" } }),
      ).toBe(1);
    }
  });
});

describe("a reconciler that dies", () => {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it("after the provider answered a redispatch leaves nothing half-done; the next one settles it once", async () => {
    const absent = await charge(3_100, "never_sent_worker_lost");
    // Dies after the provider charged, before the ledger heard: the intent stays dispatched under its lease.
    await expect(
      drain({
        leaseMs: 1_000,
        crash: (point) => {
          if (point === "after_response") throw new Error("reconciler lost");
        },
      }),
    ).rejects.toThrow("reconciler lost");
    expect((await intent(absent.id)).status).toBe("dispatched");
    expect(await effectsFor(absent)).toHaveLength(1);

    // The next reconciler, once the lease has run out and the provider's search shows the charge.
    await sleep(1_100);
    await f.sandbox.advanceClock(2 * 60_000);
    try {
      await drain({ now: () => new Date(Date.now() + 2 * 60_000) });
    } finally {
      await f.sandbox.control("/_clock", { reset: true });
    }
    const settled = await intent(absent.id);
    expect(settled).toMatchObject({ status: "confirmed", settledBy: "reconciler" });
    const effects = await effectsFor(absent);
    expect(effects).toHaveLength(1);
    expect(settled.providerResultId).toBe(effects[0]!.id);
  });

  it("killed at any moment as a process, the next process picks up and each effect happens once", async () => {
    const url = f.database.target.kind === "postgres" ? f.database.target.url : "";
    const env = {
      DATABASE_URL: url,
      SANDBOX_URL: f.sandbox.url,
      RECONCILE_BATCH: "1",
      RECONCILE_INTERVAL_MS: "100",
      RECONCILE_LEASE_MS: "1500",
    };
    const intents = await Promise.all([
      ...Array.from({ length: 5 }, (_, i) => charge(1_200 + i, "charged_answer_lost")),
      ...Array.from({ length: 3 }, (_, i) => charge(1_300 + i, "never_sent_worker_lost")),
    ]);
    const ids = intents.map((i) => i.id);
    const first = startReconciler(env);
    // Kill it while it works: once it has handled some, not all.
    for (let waited = 0; waited < 30_000; waited += 50) {
      const handled = await db().reconciliation.count({
        where: { intentId: { in: ids }, lastAction: { not: null } },
      });
      if (handled >= 2) break;
      await sleep(50);
    }
    first.child.kill("SIGKILL");
    expect((await first.done).signal).toBe("SIGKILL");
    await sleep(1_600); // its leases run out

    const second = startReconciler(env, ["--once"]);
    expect((await second.done).code).toBe(0);
    const last = second.lines.at(-1)!;
    expect(Object.keys(last)).toEqual(
      expect.arrayContaining(["picked", "confirmed", "redispatched", "escalated", "retryLater", "skipped"]),
    );
    for (const i of intents) {
      const now = await intent(i.id);
      // Either settled, or (killed mid-redispatch) waiting for the provider's search to show it.
      expect(["confirmed", "unknown"]).toContain(now.status);
      expect((await effectsFor(i)).length).toBeLessThanOrEqual(1);
      if (now.status === "confirmed") expect(now.providerResultId).toBe((await effectsFor(i))[0]!.id);
    }
    expect(await db().effectIntent.count({ where: { id: { in: ids }, status: "dispatched" } })).toBe(0);
  });
});
