import { toolEnv } from "@/tools/env";
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { EffectIntent } from "@/prisma/generated/client";
import { sweepExpiredLeases } from "@/lib/ledger/dispatch";
import type { Actor } from "@/lib/auth/actor";
import { closeStaleRequests, decide } from "@/lib/resolution/approvals";
import { claimIntent } from "@/lib/resolution/claims";
import { dispatchCompensation } from "@/lib/resolution/compensation";
import { lookupForOperator } from "@/lib/resolution/lookups";
import { proposeResolution } from "@/lib/resolution/resolve";
import type { Scenario } from "@/tools/simulator/scenarios";
import { workerDeps } from "@/tools/worker/deps";
import { runEffect } from "@/lib/effects/run-effect";
import type { EffectJob } from "@/lib/effects/types";
import { expectChainVerifies, isTypedRefusal, ledgerFixture, type LedgerFixture } from "./fixtures";

// Random interleavings of people, workers and provider faults on PostgreSQL against a
// sandbox process. fast-check chooses the intents, the steps and which of them run at
// the same moment; after every run the ledger, the audit chain and the provider's own
// record must still tell one true story.
const RUNS = toolEnv().PROPERTY_RUNS;

let f: LedgerFixture;
let operators: Actor[];
let approvers: Actor[];

beforeAll(async () => {
  f = await ledgerFixture("pi");
  // One person holds both roles: they may propose, look up and approve — never their own.
  const [both] = await f.addUsers("both", 1, ["operator", "approver"]);
  operators = [f.actors.operator!, f.actors.operator2!, both!];
  approvers = [f.actors.approver!, f.actors.approver2!, both!];
}, 120_000);
afterAll(async () => {
  await expectChainVerifies(f);
  await f.dispose();
});

const db = () => f.database.prisma;

/** What the runs did, so a run of nothing but refusals cannot pass unnoticed. */
const done = new Map<string, number>();
const count = (what: string) => done.set(what, (done.get(what) ?? 0) + 1);

type Command =
  | { kind: "lookup"; target: number; by: number }
  | {
      kind: "propose";
      target: number;
      by: number;
      /** What the latest evidence allows (most of the time), or anything at all. */
      resolution: "as_evidence_says" | "accept_receipt" | "mark_rejected" | "start_compensation" | "escalate";
      /** The same submission twice at once (a double click). */
      twice: boolean;
    }
  | { kind: "decide"; target: number; by: number; decision: "approved" | "denied" }
  | { kind: "claim"; target: number; by: number }
  | { kind: "expire" }
  | { kind: "sweep" }
  | { kind: "fault"; target: number; fault: "commit_then_drop" | "http_500" | "http_429" }
  | { kind: "redispatch"; target: number };

const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant("lookup" as const), target: fc.nat(9), by: fc.nat(2) }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("propose" as const),
      target: fc.nat(9),
      by: fc.nat(2),
      resolution: fc.oneof(
        { weight: 4, arbitrary: fc.constant("as_evidence_says" as const) },
        fc.constantFrom(
          "accept_receipt" as const,
          "mark_rejected" as const,
          "start_compensation" as const,
          "escalate" as const,
        ),
      ),
      twice: fc.boolean(),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("decide" as const),
      target: fc.nat(9),
      by: fc.nat(2),
      decision: fc.constantFrom("approved" as const, "denied" as const),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("claim" as const), target: fc.nat(9), by: fc.nat(2) }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: "expire" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "sweep" as const }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("fault" as const),
      target: fc.nat(9),
      fault: fc.constantFrom("commit_then_drop" as const, "http_500" as const, "http_429" as const),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("redispatch" as const), target: fc.nat(9) }) },
);

const world = fc.record({
  charges: fc.array(
    fc.record({
      amountMinor: fc.constantFrom(2_000, 250_000, 1_500_000),
      scenario: fc.constantFrom<Scenario>("charged_answer_lost", "never_sent_worker_lost", "clean"),
    }),
    { minLength: 1, maxLength: 3 },
  ),
  // Each step is a batch of commands run at the same moment.
  steps: fc.array(fc.array(command, { minLength: 1, maxLength: 4 }), { minLength: 4, maxLength: 12 }),
});

type Run = { charges: { intent: EffectIntent; job: EffectJob }[] };

/** Every intent of this run: the charges and whatever compensations they grew. */
async function targets(run: Run): Promise<EffectIntent[]> {
  const ids = run.charges.map((c) => c.intent.id);
  return db().effectIntent.findMany({
    where: { OR: [{ id: { in: ids } }, { compensatesId: { in: ids } }] },
    orderBy: { createdAt: "asc" },
  });
}

const pick = <T>(items: T[], n: number): T | undefined =>
  items.length ? items[n % items.length] : undefined;

async function execute(run: Run, c: Command): Promise<void> {
  const all = await targets(run);
  const intent = "target" in c ? pick(all, c.target) : undefined;
  switch (c.kind) {
    case "lookup":
      await lookupForOperator(db(), f.providerSettings(), operators[c.by]!, {
        intentId: intent!.id,
        method: "idempotency_key",
      });
      return;
    case "propose": {
      const lookup = await db().lookup.findFirst({
        where: { intentId: intent!.id },
        orderBy: { startedAt: "desc" },
      });
      const kind =
        c.resolution !== "as_evidence_says"
          ? c.resolution
          : intent!.status === "confirmed"
            ? "start_compensation"
            : lookup?.outcome === "found_matching"
              ? "accept_receipt"
              : lookup?.outcome === "absent"
                ? "mark_rejected"
                : "escalate";
      const input = {
        intentId: intent!.id,
        kind,
        reason: "as the evidence shows",
        lookupId:
          kind === "start_compensation" && intent!.status === "confirmed" ? null : (lookup?.id ?? null),
        expectedVersion: intent!.version,
        submissionKey: randomUUID(),
      };
      const results = await Promise.all(
        (c.twice ? [1, 2] : [1]).map(() => proposeResolution(db(), operators[c.by]!, input)),
      );
      if (results.length === 2) expect(results[0]!.resolution.id).toBe(results[1]!.resolution.id);
      const result = results[0]!;
      count(result.applied ? "applied at once" : "proposed for approval");
      if (result.compensationIntentId)
        await dispatchCompensation(db(), f.providerSettings(), operators[c.by]!, result.compensationIntentId);
      return;
    }
    case "decide": {
      const open = await db().resolution.findFirst({
        where: { intentId: intent!.id, status: "pending_approval" },
      });
      if (!open) return;
      const result = await decide(db(), approvers[c.by]!, {
        resolutionId: open.id,
        decision: c.decision,
        reason: "my decision",
      });
      count(`decided: ${result.outcome}`);
      if (result.compensationIntentId)
        await dispatchCompensation(db(), f.providerSettings(), approvers[c.by]!, result.compensationIntentId);
      return;
    }
    case "claim":
      await claimIntent(db(), operators[c.by]!, { intentId: intent!.id });
      return;
    case "expire":
      await closeStaleRequests(db(), new Date(Date.now() + 25 * 3_600_000));
      return;
    case "sweep":
      await sweepExpiredLeases(db(), new Date(Date.now() + 3_600_000));
      return;
    case "fault":
      await f.sandbox.fault({ match: { intentKey: intent!.intentKey }, fault: c.fault, times: 2 });
      return;
    case "redispatch": {
      // A workflow worker retries its charge with the same key (only a rejected one may go again).
      const charge = pick(run.charges, c.target)!;
      const deps = workerDeps({
        db: db(),
        sandboxUrl: f.sandbox.url,
        workerId: "pb-worker",
        clientTimeoutMs: 1_500,
      });
      await runEffect(deps, charge.job);
      return;
    }
  }
}

async function checkInvariants() {
  const resolutions = await db().resolution.findMany({ include: { approvals: true, lookup: true } });
  const events = await db().auditEvent.findMany({ where: { action: { startsWith: "resolution." } } });
  const eventsOf = (action: string, resolutionId: string) =>
    events.filter(
      (e) =>
        e.action === action && (e.details as { resolutionId?: string } | null)?.resolutionId === resolutionId,
    ).length;

  const appliedPerVersion = new Map<string, number>();
  for (const r of resolutions) {
    // Never both denied and applied, and exactly one event for each thing that happened to it.
    expect(eventsOf("resolution.applied", r.id) + eventsOf("resolution.denied", r.id)).toBeLessThanOrEqual(1);
    expect(eventsOf("resolution.applied", r.id), r.id).toBe(r.status === "applied" ? 1 : 0);
    expect(eventsOf("resolution.denied", r.id)).toBe(r.status === "denied" ? 1 : 0);
    expect(eventsOf("resolution.expired", r.id)).toBe(r.status === "expired" ? 1 : 0);
    expect(eventsOf("resolution.voided", r.id)).toBe(r.status === "voided" ? 1 : 0);
    expect(eventsOf("resolution.proposed", r.id)).toBe(r.requiredApprovals > 0 ? 1 : 0);
    const votes = r.approvals.filter((a) => a.decision === "approved");
    expect(eventsOf("resolution.approved", r.id)).toBe(votes.length);
    expect(r.approvals.filter((a) => a.decision === "denied").length).toBe(r.status === "denied" ? 1 : 0);
    // Two-person rule: distinct approvers, never the proposer or the cited lookup's actor.
    for (const a of r.approvals) {
      expect(a.approverId).not.toBe(r.proposedById);
      if (r.lookup) expect(a.approverId).not.toBe(r.lookup.actorId);
    }
    expect(new Set(r.approvals.map((a) => a.approverId)).size).toBe(r.approvals.length);
    if (r.status === "applied") {
      expect(votes.length).toBe(r.requiredApprovals);
      const key = `${r.intentId}@${r.intentVersion}`;
      appliedPerVersion.set(key, (appliedPerVersion.get(key) ?? 0) + 1);
    }
  }
  for (const [key, n] of appliedPerVersion) expect(n, key).toBe(1);
  // One open request per intent, one compensation per effect.
  const pending = resolutions.filter((r) => r.status === "pending_approval").map((r) => r.intentId);
  expect(new Set(pending).size).toBe(pending.length);
  const compensations = await db().effectIntent.findMany({ where: { compensatesId: { not: null } } });
  expect(new Set(compensations.map((c) => c.compensatesId)).size).toBe(compensations.length);
  // A compensated effect has a confirmed compensation.
  for (const original of await db().effectIntent.findMany({ where: { status: "compensated" } }))
    expect(compensations.find((c) => c.compensatesId === original.id)?.status).toBe("confirmed");
  // Every lookup was audited exactly once.
  const lookups = await db().lookup.findMany({ select: { id: true } });
  const lookupEvents = await db().auditEvent.findMany({
    where: { action: "lookup.run" },
    select: { evidenceRef: true },
  });
  expect(lookupEvents.map((e) => e.evidenceRef).sort()).toEqual(lookups.map((l) => `lookup:${l.id}`).sort());
  // The provider's own record: at most one effect per idempotency key.
  const effects = await f.sandbox.effects();
  const keys = effects.map((e) => e.idempotencyKey).filter(Boolean);
  expect(new Set(keys).size).toBe(keys.length);
}

it(
  "keeps every invariant under random interleavings of people, workers and faults",
  async () => {
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        const run: Run = { charges: [] };
        for (const c of w.charges) {
          const intent = await f.charge(c.amountMinor, c.scenario);
          const job = f.jobs.get(intent.intentKey)!;
          run.charges.push({ intent, job });
        }
        for (const batch of w.steps) {
          const settled = await Promise.allSettled(batch.map((c) => execute(run, c)));
          settled.forEach((s, i) =>
            count(`${batch[i]!.kind}:${s.status === "fulfilled" ? "ok" : "refused"}`),
          );
          for (const s of settled) if (s.status === "rejected" && !isTypedRefusal(s.reason)) throw s.reason;
        }
        await checkInvariants();
      }),
      { numRuns: RUNS, seed: toolEnv().PROPERTY_SEED, endOnFailure: true },
    );
    console.log("interleavings:", Object.fromEntries(done));
    // The runs must have reached the interesting paths, or they proved nothing.
    for (const path of ["applied at once", "proposed for approval", "decided: applied", "decided: denied"])
      expect(done.get(path) ?? 0, path).toBeGreaterThan(0);
    expect(await db().effectIntent.count({ where: { compensatesId: { not: null } } })).toBeGreaterThan(0);
  },
  15 * 60_000,
);
