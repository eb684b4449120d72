import Stripe from "stripe";
import { digest } from "@/lib/digest";
import { lookupResult } from "./classify";
import type { CallOutcome, Candidate, Expectation, LookupMethod, LookupResult } from "./types";

/**
 * Payments through the official Stripe SDK. Pointed at the sandbox by host and port;
 * pointed at real Stripe by leaving those out and giving a real key.
 */
export type PaymentsConfig = { apiKey: string; baseUrl?: string | null; timeoutMs: number };

export function stripeClient(config: PaymentsConfig): Stripe {
  const url = config.baseUrl ? new URL(config.baseUrl) : null;
  return new Stripe(config.apiKey, {
    ...(url
      ? {
          host: url.hostname,
          port: url.port || (url.protocol === "https:" ? 443 : 80),
          protocol: url.protocol === "https:" ? ("https" as const) : ("http" as const),
        }
      : {}),
    // Our protocol decides about retries. (The SDK still retries a closed connection
    // once with the same Idempotency-Key, which the provider deduplicates.)
    maxNetworkRetries: 0,
    timeout: config.timeoutMs,
    telemetry: false,
  });
}

export type ChargeRequest = {
  amount: number;
  currency: string;
  customer: string;
  payment_method: string;
  description: string;
  metadata: Record<string, string>;
};

export type RefundRequest = { charge: string; amount: number; metadata: Record<string, string> };

function classifyError(error: unknown): CallOutcome {
  if (error instanceof Stripe.errors.StripeCardError) {
    return {
      kind: "definitive",
      errorClass: error.code ?? "card_declined",
      responseDigest: digest(error.raw ?? {}),
    };
  }
  if (error instanceof Stripe.errors.StripeIdempotencyError) {
    // The provider remembers this key with other parameters: something else used it.
    return { kind: "ambiguous", errorClass: "idempotency_params_mismatch", needsOperator: true };
  }
  if (error instanceof Stripe.errors.StripeRateLimitError)
    return { kind: "not_executed", errorClass: "http_429" };
  if (error instanceof Stripe.errors.StripeConnectionError) {
    return { kind: "ambiguous", errorClass: /timeout/i.test(error.message) ? "timeout" : "connection_lost" };
  }
  if (error instanceof Stripe.errors.StripeError) {
    if (error.code === "idempotency_key_in_use")
      return { kind: "ambiguous", errorClass: "idempotency_key_in_use" };
    if ((error.statusCode ?? 0) >= 500) return { kind: "ambiguous", errorClass: `http_${error.statusCode}` };
    if (error instanceof Stripe.errors.StripeInvalidRequestError) {
      return {
        kind: "definitive",
        errorClass: error.code ?? "invalid_request",
        responseDigest: digest(error.raw ?? {}),
      };
    }
  }
  return { kind: "ambiguous", errorClass: "unexpected_error" };
}

function requestIdOf(obj: { lastResponse?: { requestId?: string } }): string | null {
  return obj.lastResponse?.requestId ?? null;
}

export async function createCharge(
  stripe: Stripe,
  request: ChargeRequest,
  idempotencyKey: string,
): Promise<CallOutcome> {
  try {
    const charge = await stripe.charges.create(request as Stripe.ChargeCreateParams, { idempotencyKey });
    const { lastResponse: _ignored, ...body } = charge;
    return {
      kind: "ok",
      resultId: charge.id,
      responseDigest: digest(body),
      providerRequestId: requestIdOf(charge),
    };
  } catch (error) {
    return classifyError(error);
  }
}

export async function createRefund(
  stripe: Stripe,
  request: RefundRequest,
  idempotencyKey: string,
): Promise<CallOutcome> {
  try {
    const refund = await stripe.refunds.create(request, { idempotencyKey });
    const { lastResponse: _ignored, ...body } = refund;
    return {
      kind: "ok",
      resultId: refund.id,
      responseDigest: digest(body),
      providerRequestId: requestIdOf(refund),
    };
  } catch (error) {
    return classifyError(error);
  }
}

function chargeCandidate(c: Stripe.Charge): Candidate {
  return {
    id: c.id,
    amountMinor: c.amount,
    currency: c.currency,
    customer: typeof c.customer === "string" ? c.customer : (c.customer?.id ?? null),
    intentKey: c.metadata?.intent_key ?? null,
    createdAt: new Date(c.created * 1000).toISOString(),
    status: c.status,
  };
}

function refundCandidate(r: Stripe.Refund): Candidate {
  return {
    id: r.id,
    amountMinor: r.amount,
    currency: r.currency,
    intentKey: r.metadata?.intent_key ?? null,
    createdAt: new Date(r.created * 1000).toISOString(),
    status: r.status ?? undefined,
  };
}

export type PaymentsSubject = {
  operation: "charge" | "refund";
  idempotencyKey: string;
  expected: Expectation;
  /** A charge or refund id the ledger already knows (from an attempt or receipt). */
  knownResultId: string | null;
  /** For refunds: the charge being refunded. */
  chargeId: string | null;
  firstAttemptAt: Date;
  lastAttemptAt: Date;
  visibilityDelayMs: number;
  responseWindowMs: number;
};

const quote = (v: string) => `'${v.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;

/** Runs one lookup method and classifies what the provider says. */
export async function lookupPayment(
  stripe: Stripe,
  subject: PaymentsSubject,
  method: LookupMethod,
  now: Date,
): Promise<LookupResult> {
  let query: string;
  let lagged: boolean;
  let run: () => Promise<{ candidates: Candidate[]; raw: unknown }>;

  if (method === "idempotency_key") {
    if (subject.operation === "refund") {
      // Refunds cannot be searched; listing a charge's refunds is read-after-write consistent.
      if (!subject.chargeId) return inconclusive(method, "no_charge_to_list_refunds_of");
      query = `refunds of ${subject.chargeId} with metadata.idempotency_key`;
      lagged = false;
      run = async () => {
        const list = await stripe.refunds.list({ charge: subject.chargeId!, limit: 100 });
        return {
          candidates: list.data
            .filter((r) => r.metadata?.idempotency_key === subject.idempotencyKey)
            .map(refundCandidate),
          raw: list.data,
        };
      };
    } else {
      query = `metadata['idempotency_key']:${quote(subject.idempotencyKey)}`;
      lagged = true;
      run = async () => {
        const found = await stripe.charges.search({ query, limit: 10 });
        return { candidates: found.data.map(chargeCandidate), raw: found.data };
      };
    }
  } else if (method === "provider_request_id") {
    if (!subject.knownResultId) return inconclusive(method, "no_provider_id_recorded");
    query = `retrieve ${subject.knownResultId}`;
    lagged = false;
    run = async () => {
      try {
        if (subject.operation === "refund") {
          const r = await stripe.refunds.retrieve(subject.knownResultId!);
          return { candidates: [refundCandidate(r)], raw: r };
        }
        const c = await stripe.charges.retrieve(subject.knownResultId!);
        return { candidates: [chargeCandidate(c)], raw: c };
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404)
          return { candidates: [], raw: { missing: subject.knownResultId } };
        throw error;
      }
    };
  } else {
    const e = subject.expected;
    if (subject.operation === "refund" || e.amountMinor == null || !e.currency)
      return inconclusive(method, "not_enough_attributes");
    const from = Math.floor(subject.firstAttemptAt.getTime() / 1000) - 60;
    const to = Math.ceil((subject.lastAttemptAt.getTime() + subject.responseWindowMs) / 1000) + 60;
    query = [
      `amount:${e.amountMinor}`,
      `currency:${quote(e.currency.toLowerCase())}`,
      ...(e.customer ? [`customer:${quote(e.customer)}`] : []),
      `created>=${from}`,
      `created<=${to}`,
    ].join(" AND ");
    lagged = true;
    run = async () => {
      const found = await stripe.charges.search({ query, limit: 10 });
      return { candidates: found.data.map(chargeCandidate), raw: found.data };
    };
  }

  let candidates: Candidate[];
  let raw: unknown;
  try {
    ({ candidates, raw } = await run());
  } catch (error) {
    const outcome = classifyError(error);
    return inconclusive(method, outcome.kind === "ok" ? "unexpected" : outcome.errorClass, { query });
  }
  return lookupResult(method, { candidates, raw, query, lagged }, subject, now);
}

export function inconclusive(
  method: LookupMethod,
  errorClass: string,
  evidence: Record<string, unknown> = {},
): LookupResult {
  return {
    method,
    outcome: "inconclusive",
    providerResultId: null,
    responseDigest: null,
    errorClass,
    evidence: { ...evidence, reason: errorClass },
  };
}
