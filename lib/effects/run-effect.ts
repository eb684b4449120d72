import type Stripe from "stripe";
import type { EffectIntent, PrismaClient } from "@/prisma/generated/client";
import { providerIdempotencyKey } from "@/lib/ledger/keys";
import {
  beginDispatch,
  confirm,
  LedgerError,
  markUnknown,
  prepare,
  prepareCompensation,
  reject,
  retryAttempt,
  type PrepareInput,
  type TransitionAudit,
} from "@/lib/ledger/protocol";
import { recipientDigest, sendEmail, type MailerConfig } from "@/lib/providers/mailer";
import { createCharge, createRefund } from "@/lib/providers/payments";
import type { CallOutcome } from "@/lib/providers/types";
import { maskEmail } from "@/lib/redact";
import type { CrashPoint } from "./crash-points";

/** One workflow step that has an external effect. */
export type EffectJob =
  | {
      kind: "charge";
      tenantId: string;
      intentKey: string;
      workflowId: string;
      stepId: string;
      amountMinor: number;
      currency: string;
      customer: string;
      paymentMethod: string;
      description: string;
      customerRef: string;
    }
  | {
      kind: "refund";
      tenantId: string;
      intentKey: string;
      workflowId: string;
      stepId: string;
      /** The charge intent this refund compensates. */
      compensatesKey: string;
      customerRef: string;
    }
  | {
      kind: "email";
      tenantId: string;
      intentKey: string;
      workflowId: string;
      stepId: string;
      to: string;
      template: string;
      variables: Record<string, string>;
      customerRef: string;
    };

export { CRASH_POINTS } from "./crash-points";

export type WorkerDeps = {
  db: PrismaClient;
  stripe: Stripe;
  mailer: MailerConfig;
  providers: { payments: string; mailer: string };
  workerId: string;
  leaseMs: number;
  /** Attempts within one dispatch for failures that are safe to retry. */
  maxAttempts: number;
  retryDelayMs: number;
  crash?: (point: CrashPoint) => void | Promise<void>;
  /** Audit each transition (when a person, not a workflow, drives this effect). */
  audit?: TransitionAudit;
  /** The worker's clock (the simulator runs on a virtual one). */
  now?: () => Date;
};

export type JobResult = {
  intentKey: string;
  intentId: string | null;
  outcome:
    | "confirmed"
    | "rejected"
    | "unknown"
    | "already_confirmed"
    | "frozen"
    | "busy"
    | "key_conflict"
    | "refused";
  detail?: string;
};

/**
 * The refund that compensates a charge: the one request both the console (when it
 * prepares a compensation) and the worker (when it sends it) build, so its digest
 * is the same wherever it is prepared.
 */
export function refundRequest(
  job: {
    tenantId: string;
    intentKey: string;
    workflowId: string;
    stepId: string;
    compensatesKey: string;
    customerRef: string;
  },
  chargeId: string,
  original: Pick<EffectIntent, "id" | "amountMinor" | "currency">,
  providerId: string,
) {
  const key = providerIdempotencyKey(job.tenantId, job.intentKey);
  const request = {
    charge: chargeId,
    amount: Number(original.amountMinor),
    metadata: { intent_key: job.intentKey, idempotency_key: key, tenant: job.tenantId },
  };
  const prepare: PrepareInput & { compensatesId: string } = {
    tenantId: job.tenantId,
    intentKey: job.intentKey,
    workflowId: job.workflowId,
    stepId: job.stepId,
    customerRef: job.customerRef,
    providerId,
    operation: "refund",
    request: { path: "/v1/refunds", idempotencyKey: key, params: request },
    summary: {
      charge: chargeId,
      amount_minor: String(original.amountMinor),
      currency: original.currency,
      refunds: job.compensatesKey,
    },
    amountMinor: original.amountMinor,
    currency: original.currency,
    compensatesId: original.id,
  };
  return { request, prepare };
}

type Planned = {
  prepare: PrepareInput;
  call: () => Promise<CallOutcome>;
  idempotent: boolean;
  compensatesId?: string;
};

async function plan(deps: WorkerDeps, job: EffectJob): Promise<Planned | JobResult> {
  const base = {
    tenantId: job.tenantId,
    intentKey: job.intentKey,
    workflowId: job.workflowId,
    stepId: job.stepId,
    customerRef: job.customerRef,
  };
  const key = providerIdempotencyKey(job.tenantId, job.intentKey);
  const metadata = { intent_key: job.intentKey, idempotency_key: key, tenant: job.tenantId };

  if (job.kind === "charge") {
    const request = {
      amount: job.amountMinor,
      currency: job.currency.toLowerCase(),
      customer: job.customer,
      payment_method: job.paymentMethod,
      description: job.description,
      metadata,
    };
    return {
      prepare: {
        ...base,
        providerId: deps.providers.payments,
        operation: "charge",
        request: { path: "/v1/charges", idempotencyKey: key, params: request },
        summary: {
          amount_minor: String(job.amountMinor),
          currency: job.currency,
          customer: job.customer,
          description: job.description,
        },
        amountMinor: BigInt(job.amountMinor),
        currency: job.currency,
      },
      call: () => createCharge(deps.stripe, request, key),
      idempotent: true,
    };
  }

  if (job.kind === "refund") {
    const original = await deps.db.effectIntent.findUnique({
      where: { tenantId_intentKey: { tenantId: job.tenantId, intentKey: job.compensatesKey } },
    });
    if (!original?.providerResultId || !original.amountMinor) {
      return {
        intentKey: job.intentKey,
        intentId: null,
        outcome: "refused",
        detail: `${job.compensatesKey} has no confirmed charge to refund`,
      };
    }
    // A refund goes to the provider that took the charge.
    const refund = refundRequest(job, original.providerResultId, original, original.providerId);
    return {
      ...refund,
      call: () => createRefund(deps.stripe, refund.request, key),
      idempotent: true,
      compensatesId: original.id,
    };
  }

  const request = { to: job.to, template: job.template, variables: job.variables, metadata };
  return {
    prepare: {
      ...base,
      providerId: deps.providers.mailer,
      operation: "send_email",
      request,
      summary: {
        recipient: maskEmail(job.to),
        recipient_digest: recipientDigest(job.to),
        template: job.template,
      },
      recipient: maskEmail(job.to),
      template: job.template,
    },
    call: () => sendEmail(deps.mailer, request),
    idempotent: false,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs one effect through the protocol: prepare → dispatch → call → receipt,
 * rejection or unknown. It never sends an intent that is unknown, needs an
 * operator, or is leased by another worker, and it never mints a new key.
 */
export async function runEffect(deps: WorkerDeps, job: EffectJob): Promise<JobResult> {
  const now = deps.now ?? (() => new Date());
  const crash = async (point: CrashPoint) => deps.crash?.(point);
  const result = (
    intent: EffectIntent | null,
    outcome: JobResult["outcome"],
    detail?: string,
  ): JobResult => ({
    intentKey: job.intentKey,
    intentId: intent?.id ?? null,
    outcome,
    detail,
  });

  const planned = await plan(deps, job);
  if (!("prepare" in planned)) return planned;

  let intent: EffectIntent;
  try {
    intent = planned.compensatesId
      ? (
          await prepareCompensation(
            deps.db,
            { ...planned.prepare, compensatesId: planned.compensatesId },
            now(),
          )
        ).intent
      : (await prepare(deps.db, planned.prepare, now())).intent;
  } catch (error) {
    if (error instanceof LedgerError)
      return result(null, error.code === "key_reuse_conflict" ? "key_conflict" : "refused", error.message);
    throw error;
  }
  if (intent.status === "confirmed" || intent.status === "compensating" || intent.status === "compensated") {
    return result(intent, "already_confirmed");
  }
  await crash("before_dispatch");

  let dispatch;
  try {
    dispatch = await beginDispatch(
      deps.db,
      { intentId: intent.id, owner: deps.workerId, leaseMs: deps.leaseMs, audit: deps.audit },
      now(),
    );
  } catch (error) {
    if (error instanceof LedgerError)
      return result(intent, error.code === "frozen" ? "frozen" : "busy", error.message);
    throw error;
  }
  await crash("after_dispatch");

  let attempt = dispatch.attempt;
  for (let n = 1; ; n++) {
    const outcome = await planned.call();
    const completion = {
      intentId: intent.id,
      owner: deps.workerId,
      attemptId: attempt.id,
      audit: deps.audit,
    };
    try {
      switch (outcome.kind) {
        case "ok": {
          await crash("after_response");
          const confirmed = await confirm(
            deps.db,
            {
              ...completion,
              providerResultId: outcome.resultId,
              responseDigest: outcome.responseDigest,
              providerRequestId: outcome.providerRequestId,
              beforeCommit: () => crash("during_receipt"),
            },
            now(),
          );
          return result(confirmed, "confirmed");
        }
        case "definitive":
          return result(
            await reject(
              deps.db,
              { ...completion, errorClass: outcome.errorClass, responseDigest: outcome.responseDigest },
              now(),
            ),
            "rejected",
            outcome.errorClass,
          );
        case "not_executed":
        case "ambiguous": {
          // Same key again is safe when nothing ran (429), or when the provider
          // deduplicates by key (a 5xx from an idempotent provider). A timeout or a lost
          // answer is never retried automatically: it becomes unknown.
          const retrySafe =
            outcome.kind === "not_executed" ||
            (planned.idempotent && /^http_5\d\d$/.test(outcome.errorClass));
          if (retrySafe && n < deps.maxAttempts) {
            await sleep(deps.retryDelayMs * 2 ** (n - 1));
            attempt = (
              await retryAttempt(
                deps.db,
                {
                  ...completion,
                  leaseMs: deps.leaseMs,
                  previousAttemptId: attempt.id,
                  errorClass: outcome.errorClass,
                },
                now(),
              )
            ).attempt;
            continue;
          }
          if (outcome.kind === "not_executed") {
            return result(
              await reject(deps.db, { ...completion, errorClass: outcome.errorClass }, now()),
              "rejected",
              outcome.errorClass,
            );
          }
          const unknown = await markUnknown(
            deps.db,
            { ...completion, errorClass: outcome.errorClass, needsOperator: outcome.needsOperator },
            now(),
          );
          return result(unknown, "unknown", outcome.errorClass);
        }
      }
    } catch (error) {
      if (error instanceof LedgerError) return result(intent, "busy", error.message);
      throw error;
    }
  }
}
