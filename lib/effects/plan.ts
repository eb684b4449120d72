import type { EffectIntent } from "@/prisma/generated/client";
import { providerIdempotencyKey } from "@/lib/ledger/keys";
import type { PrepareInput } from "@/lib/ledger/protocol";
import { recipientDigest, sendEmail } from "@/lib/providers/mailer";
import { createCharge, createRefund } from "@/lib/providers/payments";
import type { CallOutcome } from "@/lib/providers/types";
import { maskEmail } from "@/lib/redact";
import type { EffectJob, JobResult, WorkerDeps } from "./types";

// What one job asks of which provider: the intent to record and the call to make.

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

export type Planned = {
  prepare: PrepareInput;
  call: () => Promise<CallOutcome>;
  idempotent: boolean;
  compensatesId?: string;
};

export async function plan(deps: WorkerDeps, job: EffectJob): Promise<Planned | JobResult> {
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
        // With the summary, enough to send exactly this request again (lib/effects/replay.ts):
        // the provider's token reference (pm_…), never card data; never shown or exported.
        replayParams: { payment_method: job.paymentMethod },
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
