import type { EffectIntent } from "@/prisma/generated/client";
import { digest } from "@/lib/digest";
import { providerIdempotencyKey } from "@/lib/ledger/keys";
import { createCharge, createRefund, type ChargeRequest, type RefundRequest } from "@/lib/providers/payments";
import type { CallOutcome } from "@/lib/providers/types";
import type { WorkerDeps } from "./types";

type Summary = { customer?: string; description?: string; charge?: string };
type ReplayParams = { payment_method?: string };

export type Rebuilt =
  | {
      ok: true;
      idempotencyKey: string;
      request: { kind: "charge"; params: ChargeRequest } | { kind: "refund"; params: RefundRequest };
    }
  | { ok: false; reason: string };

/**
 * The request an intent recorded, rebuilt from its ledger row (the redacted summary and
 * the replay parameters) to send it again with its original key. Only the digest of the
 * request is stored, so the rebuilt request must digest to exactly that: anything else
 * would be a different request under the same key, and is refused. Emails are never
 * rebuilt (their recipients are not stored).
 */
export function rebuildRequest(intent: EffectIntent): Rebuilt {
  const s = (intent.requestSummary ?? {}) as Summary;
  const r = (intent.replayParams ?? {}) as ReplayParams;
  const key = providerIdempotencyKey(intent.tenantId, intent.intentKey);
  const metadata = { intent_key: intent.intentKey, idempotency_key: key, tenant: intent.tenantId };
  const same = (request: unknown) => digest(request) === intent.requestDigest;

  if (intent.operation === "charge") {
    if (intent.amountMinor === null || !intent.currency || !s.customer || !r.payment_method)
      return { ok: false, reason: "the ledger does not hold enough of this charge to send it again" };
    const params: ChargeRequest = {
      amount: Number(intent.amountMinor),
      currency: intent.currency.toLowerCase(),
      customer: s.customer,
      payment_method: r.payment_method,
      description: s.description ?? "",
      metadata,
    };
    if (!same({ path: "/v1/charges", idempotencyKey: key, params }))
      return { ok: false, reason: "the rebuilt charge does not match the recorded request digest" };
    return { ok: true, idempotencyKey: key, request: { kind: "charge", params } };
  }

  if (intent.operation === "refund") {
    if (intent.amountMinor === null || !s.charge)
      return { ok: false, reason: "the ledger does not hold enough of this refund to send it again" };
    const params: RefundRequest = { charge: s.charge, amount: Number(intent.amountMinor), metadata };
    if (!same({ path: "/v1/refunds", idempotencyKey: key, params }))
      return { ok: false, reason: "the rebuilt refund does not match the recorded request digest" };
    return { ok: true, idempotencyKey: key, request: { kind: "refund", params } };
  }

  return { ok: false, reason: `a ${intent.operation.replace(/_/g, " ")} is never sent again automatically` };
}

/** The rebuilt request as a call to its provider, or why it cannot be sent again. */
export function replayOf(
  deps: Pick<WorkerDeps, "stripe">,
  intent: EffectIntent,
): { ok: true; call: () => Promise<CallOutcome> } | { ok: false; reason: string } {
  const rebuilt = rebuildRequest(intent);
  if (!rebuilt.ok) return rebuilt;
  const { request, idempotencyKey } = rebuilt;
  return {
    ok: true,
    call: () =>
      request.kind === "charge"
        ? createCharge(deps.stripe, request.params, idempotencyKey)
        : createRefund(deps.stripe, request.params, idempotencyKey),
  };
}
