import type { PrismaClient } from "@/prisma/generated/client";
import { providerIdempotencyKey } from "@/lib/ledger/keys";
import { sweepExpiredLeases } from "@/lib/ledger/dispatch";
import { providerAdapter, type ProviderSettings } from "@/lib/providers/registry";
import type { LookupMethod, LookupOutcome } from "@/lib/providers/types";
import type { Effect } from "@/tools/sandbox/state";
import { rng, type Rng } from "@/lib/seed/random";
import { workerDeps } from "@/tools/worker/deps";
import type { CrashPoint } from "@/lib/effects/crash-points";
import { runEffect } from "@/lib/effects/run-effect";
import type { EffectJob } from "@/lib/effects/types";

/**
 * Drives workflow steps (charges, emails, refunds) through the real protocol against
 * the sandbox provider, with a realistic mix of faults, over a virtual month: the
 * provider's clock and the ledger's follow the same virtual time, so unknown effects
 * have real ages and the provider's key retention applies to the old ones.
 */

export type FaultPlan =
  | "none"
  | "rate_limited"
  | "server_error_once"
  | "server_error_always"
  | "late_response"
  | "dropped_response"
  | "worker_lost_after_dispatch"
  | "worker_lost_after_response"
  | "conflicting_effect"
  | "duplicate_candidates";

export type SimulateOptions = {
  db: PrismaClient;
  sandboxUrl: string;
  intents: number;
  seed: number;
  faults: "none" | "mixed";
  concurrency?: number;
  /** Virtual span the steps are spread over (default: the last 30 days). */
  from?: Date;
  to?: Date;
  clientTimeoutMs?: number;
  onProgress?: (done: number, total: number) => void;
};

export type SimulationSummary = {
  intents: number;
  confirmed: number;
  rejected: number;
  unknown: number;
  compensating: number;
  compensated: number;
  dispatched: number;
  prepared: number;
  providerEffects: number;
  injectedEffects: number;
  duplicateEffects: number;
  faults: Partial<Record<FaultPlan, number>>;
};

type Step = { at: number; job: EffectJob; fault: FaultPlan };

const TENANTS = [
  ["acme-shop", 0.45],
  ["globex-travel", 0.35],
  ["initech-saas", 0.2],
] as const;
const CURRENCIES = [
  ["USD", 0.45],
  ["EUR", 0.3],
  ["GBP", 0.17],
  ["JPY", 0.08],
] as const;
const TEMPLATES = ["receipt", "payment-failed", "booking-confirmation", "invoice-due"];
const NAMES = [
  "jane",
  "omar",
  "li",
  "sofia",
  "kwame",
  "ines",
  "mateo",
  "yuki",
  "noah",
  "amelie",
  "ravi",
  "zoe",
];
const DOMAINS = ["example.com", "example.org", "mail.example.net"];
const LEASE_MS = 30_000;

function amountFor(r: Rng, currency: string): number {
  // Invoice collections: a fifth are large enough to need an approver.
  const major = r.chance(0.2) ? r.int(1_000, 25_000) : r.chance(0.3) ? r.int(100, 999) : r.int(5, 99);
  return currency === "JPY" ? major * 150 : major * 100 + r.int(0, 99);
}

function pickFault(r: Rng, kind: EffectJob["kind"], mode: SimulateOptions["faults"]): FaultPlan {
  if (mode === "none") return "none";
  const common: [FaultPlan, number][] = [
    ["none", 0.9],
    ["rate_limited", 0.02],
    ["server_error_once", 0.015],
    ["late_response", 0.015],
    ["dropped_response", 0.015],
    ["worker_lost_after_dispatch", 0.01],
    ["worker_lost_after_response", 0.01],
  ];
  if (kind === "charge") {
    common.push(
      ["server_error_always", 0.01],
      ["conflicting_effect", 0.006],
      ["duplicate_candidates", 0.004],
    );
  }
  return r.weighted(common);
}

function plan(options: SimulateOptions): Step[] {
  const r = rng(options.seed);
  const to = (options.to ?? new Date(Date.now() - 10 * 60_000)).getTime();
  const from = (options.from ?? new Date(to - 30 * 86_400_000)).getTime();
  const customers = Array.from({ length: 300 }, () => `cus_${r.id(12)}`);
  const steps: Step[] = [];
  const run = `s${options.seed}`;
  for (let n = 0; steps.length < options.intents; n++) {
    const [tenantId] = r.weighted(TENANTS.map((t) => [t, t[1]] as const));
    // A quarter of the traffic in the last day, so some unknowns are fresh enough
    // that the provider still remembers their keys.
    const lastDay = Math.max(from, to - 86_400_000);
    const at = r.chance(0.25)
      ? lastDay + Math.floor(r.next() * (to - lastDay))
      : from + Math.floor(r.next() * (to - from));
    const tag = `${tenantId.slice(0, 3)}${run}_${String(n).padStart(5, "0")}`;
    if (r.chance(0.65)) {
      const invoice = `inv_${tag}`;
      const currency = r.weighted(CURRENCIES);
      const job: EffectJob = {
        kind: "charge",
        tenantId,
        intentKey: `invoice:${invoice}:collect:v1`,
        workflowId: `wf_collect_${invoice}`,
        stepId: "charge-card",
        amountMinor: amountFor(r, currency),
        currency,
        customer: r.pick(customers),
        paymentMethod: r.chance(0.04) ? "pm_card_chargeDeclined" : "pm_card_visa",
        description: `Invoice ${invoice}`,
        customerRef: `invoice/${invoice}`,
      };
      const fault = pickFault(r, "charge", options.faults);
      steps.push({ at, job, fault });
      // Some charges are refunded later by a compensating step of the same workflow.
      const refundAt = at + r.int(12, 72) * 3_600_000;
      if (
        fault === "none" &&
        job.paymentMethod === "pm_card_visa" &&
        r.chance(0.05) &&
        refundAt < to &&
        steps.length < options.intents
      ) {
        steps.push({
          at: refundAt,
          job: {
            kind: "refund",
            tenantId,
            intentKey: `invoice:${invoice}:refund:v1`,
            workflowId: job.workflowId,
            stepId: "refund-charge",
            compensatesKey: job.intentKey,
            customerRef: job.customerRef,
          },
          fault: r.weighted([
            ["none", 0.8],
            ["late_response", 0.1],
            ["worker_lost_after_dispatch", 0.1],
          ] as const),
        });
      }
    } else {
      const order = `ord_${tag}`;
      const template = r.pick(TEMPLATES);
      const to = r.chance(0.02)
        ? `${r.pick(NAMES)}@bounce.example`
        : `${r.pick(NAMES)}.${r.id(5).toLowerCase()}@${r.pick(DOMAINS)}`;
      steps.push({
        at,
        job: {
          kind: "email",
          tenantId,
          intentKey: `order:${order}:${template}:v1`,
          workflowId: `wf_notify_${order}`,
          stepId: `send-${template}`,
          to,
          template,
          variables: { order },
          customerRef: `order/${order}`,
        },
        fault: pickFault(r, "email", options.faults),
      });
    }
  }
  return steps.sort((a, b) => a.at - b.at);
}

class WorkerLost extends Error {}

async function control(sandboxUrl: string, path: string, body: unknown) {
  const response = await fetch(`${sandboxUrl}${path}`, { method: "POST", body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`sandbox ${path}: ${response.status} ${await response.text()}`);
}

/** Tells the sandbox what should go wrong for this step, before the worker runs it. */
async function arrange(sandboxUrl: string, step: Step, clientTimeoutMs: number, at: number) {
  const match = { intentKey: step.job.intentKey };
  const rule = (fault: string, extra: Record<string, unknown> = {}) =>
    control(sandboxUrl, "/_faults", { match, fault, ...extra });
  switch (step.fault) {
    case "rate_limited":
      return rule("http_429", { times: 1 });
    case "server_error_once":
      return rule("http_500", { times: 1 });
    case "server_error_always":
      return rule("http_500", { times: 3 });
    case "late_response":
      return rule("delay", { delayMs: clientTimeoutMs + 300 });
    case "dropped_response":
      // The SDK retries a dropped connection once with the same key: drop both.
      return rule("commit_then_drop", { times: 2 });
    case "conflicting_effect": {
      if (step.job.kind !== "charge") return;
      // A stale caller already used this intent's key for a different amount. The
      // provider then refuses our request (same key, other parameters).
      const key = providerIdempotencyKey(step.job.tenantId, step.job.intentKey);
      const form = new URLSearchParams({
        amount: String(step.job.amountMinor + 500),
        currency: step.job.currency.toLowerCase(),
        customer: step.job.customer,
        "metadata[intent_key]": step.job.intentKey,
        "metadata[idempotency_key]": key,
      });
      const response = await fetch(`${sandboxUrl}/v1/charges`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "idempotency-key": key },
        body: form,
      });
      if (!response.ok) throw new Error(`sandbox refused the stale charge: ${response.status}`);
      return;
    }
    case "duplicate_candidates": {
      if (step.job.kind !== "charge") return;
      // A legacy system recorded a charge under the same intent (we did not make it);
      // then our own answer is lost. Two candidates: an operator must look closer.
      await control(sandboxUrl, "/_effects", {
        kind: "charge",
        amount: step.job.amountMinor,
        currency: step.job.currency,
        customer: step.job.customer,
        metadata: {
          intent_key: step.job.intentKey,
          idempotency_key: providerIdempotencyKey(step.job.tenantId, step.job.intentKey),
        },
        createdAt: at - 60_000,
      });
      return rule("commit_then_drop", { times: 2 });
    }
    default:
      return;
  }
}

function crashFor(fault: FaultPlan): CrashPoint | null {
  if (fault === "worker_lost_after_dispatch") return "after_dispatch";
  if (fault === "worker_lost_after_response") return "after_response";
  return null;
}

export async function fetchEffects(sandboxUrl: string): Promise<Effect[]> {
  const response = await fetch(`${sandboxUrl}/_effects`);
  return ((await response.json()) as { effects: Effect[] }).effects;
}

export async function simulate(options: SimulateOptions): Promise<SimulationSummary> {
  const steps = plan(options);
  const concurrency = options.concurrency ?? 16;
  const clientTimeoutMs = options.clientTimeoutMs ?? 500;
  const faults: SimulationSummary["faults"] = {};
  const keys = new Set<string>();

  for (let i = 0; i < steps.length; i += concurrency) {
    const batch = steps.slice(i, i + concurrency);
    const at = batch[0]!.at;
    // Everything in this batch happens at virtual time `at`, at the provider too.
    await control(options.sandboxUrl, "/_clock", { set: new Date(at).toISOString() });
    await sweepExpiredLeases(options.db, new Date(at));
    const started = Date.now();
    const now = () => new Date(at + (Date.now() - started));
    await Promise.all(
      batch.map(async (step) => {
        keys.add(`${step.job.tenantId}\u0000${step.job.intentKey}`);
        faults[step.fault] = (faults[step.fault] ?? 0) + 1;
        await arrange(options.sandboxUrl, step, clientTimeoutMs, at);
        const crashAt = crashFor(step.fault);
        const deps = workerDeps({
          db: options.db,
          sandboxUrl: options.sandboxUrl,
          workerId: `sim-worker-${i % 16}`,
          clientTimeoutMs,
          leaseMs: LEASE_MS,
          retryDelayMs: 5,
          now,
          crash: (point) => {
            if (point === crashAt) throw new WorkerLost(point);
          },
        });
        try {
          await runEffect(deps, step.job);
        } catch (error) {
          // A lost worker leaves its lease behind; the sweeper will find it.
          if (!(error instanceof WorkerLost)) throw error;
        }
      }),
    );
    options.onProgress?.(Math.min(i + concurrency, steps.length), steps.length);
  }
  // The end of the month: every lease left by a lost worker has run out.
  const end = (options.to ?? new Date(Date.now() - 10 * 60_000)).getTime() + 5 * 60_000;
  await sweepExpiredLeases(options.db, new Date(end));
  await control(options.sandboxUrl, "/_clock", { reset: true });
  return summarize(options, keys, faults);
}

async function summarize(
  options: SimulateOptions,
  keys: Set<string>,
  faults: SimulationSummary["faults"],
): Promise<SimulationSummary> {
  const intents = await options.db.effectIntent.findMany({
    select: { tenantId: true, intentKey: true, status: true },
  });
  const mine = intents.filter((i) => keys.has(`${i.tenantId}\u0000${i.intentKey}`));
  const count = (status: string) => mine.filter((i) => i.status === status).length;
  const effects = (await fetchEffects(options.sandboxUrl)).filter(
    (e) => e.intentKey && mine.some((i) => i.intentKey === e.intentKey),
  );
  const own = effects.filter((e) => !e.injected);
  const perKey = new Map<string, number>();
  for (const e of own) perKey.set(e.intentKey!, (perKey.get(e.intentKey!) ?? 0) + 1);
  return {
    intents: mine.length,
    confirmed: count("confirmed"),
    rejected: count("rejected"),
    unknown: count("unknown"),
    compensating: count("compensating"),
    compensated: count("compensated"),
    dispatched: count("dispatched"),
    prepared: count("prepared"),
    providerEffects: own.length,
    injectedEffects: effects.length - own.length,
    duplicateEffects: [...perKey.values()].reduce((sum, n) => sum + Math.max(0, n - 1), 0),
    faults,
  };
}

export type TruthCheck = {
  checked: number;
  agreed: number;
  disagreements: { intentKey: string; outcome: LookupOutcome; truth: string }[];
};

/** The provider's truth for an intent, in lookup terms. */
export function expectedOutcome(effects: Effect[], intent: { amountMinor: bigint | null }): LookupOutcome {
  if (effects.length === 0) return "absent";
  if (effects.length > 1) return "multiple_found";
  const amount = effects[0]!.body.amount;
  return intent.amountMinor !== null && amount !== undefined && Number(amount) !== Number(intent.amountMinor)
    ? "found_conflicting"
    : "found_matching";
}

/**
 * For every unknown intent, asks the provider (without recording anything) and
 * compares the classification with the sandbox's own record of what happened.
 */
export async function checkUnknownsAgainstTruth(
  db: PrismaClient,
  settings: ProviderSettings,
  now = new Date(),
): Promise<TruthCheck> {
  const unknowns = await db.effectIntent.findMany({
    where: { status: "unknown" },
    include: { provider: true, attempts: true },
  });
  const effects = await fetchEffects(settings.defaultBaseUrl);
  const result: TruthCheck = { checked: 0, agreed: 0, disagreements: [] };
  for (const intent of unknowns) {
    const method: LookupMethod =
      intent.provider.kind === "payments" ? "idempotency_key" : "domain_attributes";
    const lookup = await providerAdapter(intent.provider, settings).lookup(
      intent,
      intent.attempts,
      method,
      now,
    );
    const truth = expectedOutcome(
      effects.filter((e) => e.intentKey === intent.intentKey),
      intent,
    );
    result.checked += 1;
    if (lookup.outcome === truth) result.agreed += 1;
    else result.disagreements.push({ intentKey: intent.intentKey, outcome: lookup.outcome, truth });
  }
  return result;
}
