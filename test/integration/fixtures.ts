import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { EffectIntent } from "@/prisma/generated/client";
import type { Role } from "@/prisma/generated/enums";
import { hashPassword } from "@/lib/auth/password";
import { AuthError } from "@/lib/auth/errors";
import { verifyAuditChain } from "@/lib/audit/verify";
import { LedgerError } from "@/lib/ledger/protocol";
import type { Actor } from "@/lib/auth/actor";
import { ResolutionError } from "@/lib/resolution/errors";
import { lookupForOperator } from "@/lib/resolution/lookups";
import { proposeResolution } from "@/lib/resolution/resolve";
import { reconcilerActor } from "@/lib/reconcile/actor";
import { setReconcilePolicy } from "@/lib/reconcile/policy";
import { setThreshold } from "@/lib/resolution/thresholds";
import { seedReferenceData } from "@/lib/seed/demo";
import { runScenario, type Scenario } from "@/tools/simulator/scenarios";
import type { EffectJob } from "@/lib/effects/types";
import { startSandbox, type SandboxProcess } from "@/test/support/processes";
import { freshPostgres, type TestDatabase } from "./support";

/**
 * A migrated PostgreSQL database with the demo's reference data, a sandbox provider
 * process, and helpers to make intents whose truth the sandbox knows.
 */
export type LedgerFixture = {
  database: TestDatabase;
  sandbox: SandboxProcess;
  actors: Record<string, Actor>;
  /** Creates extra users with the given roles (e.g. many approvers for a race). */
  addUsers(prefix: string, count: number, roles: Role[]): Promise<Actor[]>;
  /** A USD charge of acme-shop made through the real protocol under the given fault scenario. */
  charge(amountMinor: number, scenario?: Scenario, agoMs?: number): Promise<EffectIntent>;
  /** The workflow step behind each charge, by intent key: a worker retrying it sends the same request. */
  jobs: Map<string, EffectJob>;
  lookUp(intentId: string, actor?: Actor): Promise<{ id: string; outcome: string }>;
  /** Proposes accepting the receipt of an unknown charge (after a lookup by the proposer). */
  proposeAccept(
    amountMinor: number,
    by?: Actor,
  ): Promise<{ intentId: string; resolutionId: string; requiredApprovals: number }>;
  providerSettings(): { defaultBaseUrl: string; stripeApiKey: string; timeoutMs: number };
  dispose(): Promise<void>;
};

export async function ledgerFixture(prefix: string): Promise<LedgerFixture> {
  const database = await freshPostgres();
  const sandbox = await startSandbox();
  const actors: Record<string, Actor> = {};
  for (const u of await seedReferenceData(database.prisma))
    actors[u.email.split("@")[0]!] = { id: u.id, email: u.email, roles: u.roles };
  const providerSettings = () => ({
    defaultBaseUrl: sandbox.url,
    stripeApiKey: "sk_test_sandbox",
    timeoutMs: 3_000,
  });
  let n = 0;

  const fixture: LedgerFixture = {
    database,
    sandbox,
    actors,
    jobs: new Map(),
    async addUsers(name, count, roles) {
      const passwordHash = await hashPassword(randomUUID());
      const users = Array.from({ length: count }, (_, i) => ({
        id: randomUUID(),
        email: `${name}${i}-${randomUUID().slice(0, 6)}@test.example`,
        name: `${name} ${i}`,
        roles,
        passwordHash,
      }));
      await database.prisma.user.createMany({ data: users });
      return users.map((u) => ({ id: u.id, email: u.email, roles }));
    },
    async charge(amountMinor, scenario = "charged_answer_lost", agoMs) {
      n += 1;
      const id = `${prefix}${n}_${randomUUID().slice(0, 6)}`;
      const job: EffectJob = {
        kind: "charge",
        tenantId: "acme-shop",
        intentKey: `invoice:inv_${id}:collect:v1`,
        workflowId: `wf_${id}`,
        stepId: "charge",
        amountMinor,
        currency: "USD",
        customer: `cus_${id}`,
        paymentMethod: "pm_card_visa",
        description: id,
        customerRef: `invoice/inv_${id}`,
      };
      fixture.jobs.set(job.intentKey, job);
      await runScenario(database.prisma, sandbox.url, job, scenario, agoMs);
      return database.prisma.effectIntent.findUniqueOrThrow({
        where: { tenantId_intentKey: { tenantId: "acme-shop", intentKey: job.intentKey } },
      });
    },
    async lookUp(intentId, actor = actors.operator!) {
      const { lookup } = await lookupForOperator(database.prisma, providerSettings(), actor, {
        intentId,
        method: "idempotency_key",
      });
      return lookup;
    },
    async proposeAccept(amountMinor, by = actors.operator!) {
      const intent = await fixture.charge(amountMinor);
      const lookup = await fixture.lookUp(intent.id, by);
      const proposed = await proposeResolution(database.prisma, by, {
        intentId: intent.id,
        kind: "accept_receipt",
        reason: "found at the provider",
        lookupId: lookup.id,
        expectedVersion: intent.version,
        submissionKey: randomUUID(),
      });
      expect(proposed.resolution.status).toBe("pending_approval");
      return {
        intentId: intent.id,
        resolutionId: proposed.resolution.id,
        requiredApprovals: proposed.resolution.requiredApprovals,
      };
    },
    providerSettings,
    async dispose() {
      await sandbox.stop();
      await database.dispose();
    },
  };
  return fixture;
}

/** An expected refusal: what a person sees as a clear message, never a 500. */
export function isTypedRefusal(error: unknown): boolean {
  return error instanceof ResolutionError || error instanceof LedgerError || error instanceof AuthError;
}

export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** Runs everything at once; any failure that is not a typed refusal fails the test. */
export async function race<T>(tasks: (() => Promise<T>)[]): Promise<Settled<T>[]> {
  const settled = await Promise.all(
    tasks.map((t) =>
      t().then(
        (value): Settled<T> => ({ ok: true, value }),
        (error: unknown): Settled<T> => ({ ok: false, error }),
      ),
    ),
  );
  for (const s of settled) {
    if (!s.ok && !isTypedRefusal(s.error)) throw s.error;
  }
  return settled;
}

export async function expectChainVerifies(fixture: LedgerFixture) {
  const report = await verifyAuditChain(fixture.database.prisma);
  expect(report.firstBreak).toBeNull();
  expect(report.ok).toBe(true);
}

export async function auditCount(fixture: LedgerFixture, where: { action: string; targetId?: string }) {
  return fixture.database.prisma.auditEvent.count({ where });
}

/**
 * The reconciler for acme-shop's card payments, as an admin would set it up: the policy
 * on (sending absent intents again allowed, twice at most), and USD amounts below $500
 * confirmed on its own (approvals start at $1,000). Returns the reconciler's actor.
 */
export async function enableAcmeReconciler(fixture: LedgerFixture): Promise<Actor> {
  const db = fixture.database.prisma;
  const admin = fixture.actors.admin!;
  await setReconcilePolicy(db, admin, {
    tenantId: "acme-shop",
    providerId: "payments-sandbox",
    mode: "on",
    redispatch: true,
    maxRedispatches: 2,
    reason: "reconcile acme's card payments",
  });
  await setThreshold(db, admin, {
    tenantId: "acme-shop",
    currency: "USD",
    thresholdMinor: 100_000n,
    dualThresholdMinor: 1_000_000n,
    autoResolveBelowMinor: 50_000n,
    reason: "the reconciler confirms below $500",
  });
  return reconcilerActor(db);
}
