import type { EffectIntent } from "@/prisma/generated/client";
import { digest } from "@/lib/digest";
import { providerIdempotencyKey } from "@/lib/ledger/keys";
import { createCharge, createRefund, type ChargeRequest, type RefundRequest } from "@/lib/providers/payments";
import type { CallOutcome } from "@/lib/providers/types";
import type { WorkerDeps } from "./types";

type Summary = {
  amount_minor?: string;
  currency?: string;
  customer?: string;
  description?: string;
  payment_method?: string;
  charge?: string;
};

export type Replay =
  { ok: true; call: () => Promise<CallOutcome>; idempotencyKey: string } | { ok: false; reason: string };

/**
 * The request an intent recorded, rebuilt from its ledger row to send it again with its
 * original key. Only the digest of the request is stored, so the rebuilt request must
 * digest to exactly that: anything else would be a different request under the same
 * key, and is refused. Emails are never rebuilt (their recipients are not stored).
 */
export function replayOf(deps: Pick<WorkerDeps, "stripe">, intent: EffectIntent): Replay {
  const s = (intent.requestSummary ?? {}) as Summary;
  const key = providerIdempotencyKey(intent.tenantId, intent.intentKey);
  const metadata = { intent_key: intent.intentKey, idempotency_key: key, tenant: intent.tenantId };
  const same = (request: unknown) => digest(request) === intent.requestDigest;

  if (intent.operation === "charge") {
    if (intent.amountMinor === null || !intent.currency || !s.customer || !s.payment_method) {
      return { ok: false, reason: "the ledger does not hold enough of this charge to send it again" };
    }
    const params: ChargeRequest = {
      amount: Number(intent.amountMinor),
      currency: intent.currency.toLowerCase(),
      customer: s.customer,
      payment_method: s.payment_method,
      description: s.description ?? "",
      metadata,
    };
    if (!same({ path: "/v1/charges", idempotencyKey: key, params }))
      return { ok: false, reason: "the rebuilt charge does not match the recorded request digest" };
    return { ok: true, idempotencyKey: key, call: () => createCharge(deps.stripe, params, key) };
  }

  if (intent.operation === "refund") {
    if (intent.amountMinor === null || !s.charge)
      return { ok: false, reason: "the ledger does not hold enough of this refund to send it again" };
    const params: RefundRequest = { charge: s.charge, amount: Number(intent.amountMinor), metadata };
    if (!same({ path: "/v1/refunds", idempotencyKey: key, params }))
      return { ok: false, reason: "the rebuilt refund does not match the recorded request digest" };
    return { ok: true, idempotencyKey: key, call: () => createRefund(deps.stripe, params, key) };
  }

  return {
    ok: false,
    reason: `a ${intent.operation.replace(/_/g, " ")} is never sent again by the reconciler`,
  };
}
