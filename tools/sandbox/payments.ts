import { earlyFault, takeFault } from "./faults";
import { parseStripeForm, type FormValue } from "./form";
import { header, metadataOf, stripeError, visible, type Ctx, type Handled, type Reply } from "./handler";
import { withIdempotencyKey, type Executed } from "./idempotency";
import { matchesClauses, parseSearchQuery, SearchQueryError } from "./search-query";
import type { Effect, SandboxState } from "./state";

/** The payments provider at /v1/…: a Stripe-compatible subset (charges, refunds, search). */

type Kind = "charge" | "refund";

const DECLINING_METHODS = new Set([
  "pm_card_chargeDeclined",
  "tok_chargeDeclined",
  "pm_card_visa_chargeDeclined",
]);

function str(v: FormValue | undefined): string | undefined {
  return typeof v === "string" ? v : undefined;
}

export async function createObject(ctx: Ctx, state: SandboxState, kind: Kind): Promise<Handled> {
  const params = parseStripeForm(ctx.raw);
  const metadata = metadataOf(params.metadata);
  const key = header(ctx.req, "idempotency-key");
  const rule = takeFault(ctx, state, key, metadata);
  const early = earlyFault(rule);
  if (early) return early;
  return withIdempotencyKey(ctx, state, { key, params, rule }, () => {
    const reply =
      kind === "charge"
        ? executeCharge(params, metadata, state, key)
        : executeRefund(params, metadata, state, key);
    if (reply.effect) ctx.log.effectId = reply.effect.id;
    return reply;
  });
}

type Execution = Executed & { effect?: Effect };

function executeCharge(
  params: Record<string, FormValue>,
  metadata: Record<string, string>,
  state: SandboxState,
  key: string | null,
): Execution {
  const amount = Number(str(params.amount));
  const currency = str(params.currency)?.toLowerCase();
  if (!Number.isInteger(amount) || amount <= 0)
    return {
      ...stripeError(400, "invalid_request_error", "Invalid positive integer", { param: "amount" }),
      saved: false,
    };
  if (!currency || !/^[a-z]{3}$/.test(currency))
    return {
      ...stripeError(400, "invalid_request_error", "Invalid currency", { param: "currency" }),
      saved: false,
    };
  const paymentMethod = str(params.payment_method) ?? str(params.source) ?? null;
  if (paymentMethod && DECLINING_METHODS.has(paymentMethod)) {
    return {
      ...stripeError(402, "card_error", "Your card was declined.", {
        code: "card_declined",
        decline_code: "generic_decline",
      }),
      saved: true,
    };
  }
  const id = state.newId("ch");
  const createdAt = state.now();
  const body = {
    id,
    object: "charge",
    amount,
    amount_captured: amount,
    amount_refunded: 0,
    captured: true,
    created: Math.floor(createdAt / 1000),
    currency,
    customer: str(params.customer) ?? null,
    description: str(params.description) ?? null,
    livemode: false,
    metadata,
    paid: true,
    payment_method: paymentMethod,
    refunded: false,
    status: "succeeded",
  };
  const effect = state.addEffect(
    {
      id,
      kind: "charge",
      idempotencyKey: key,
      intentKey: metadata.intent_key ?? null,
      createdAt,
      injected: false,
      body,
    },
    "ch",
  );
  return { status: 200, body, effect, saved: true };
}

function executeRefund(
  params: Record<string, FormValue>,
  metadata: Record<string, string>,
  state: SandboxState,
  key: string | null,
): Execution {
  const chargeId = str(params.charge);
  const charge = state.effects.find((e) => e.kind === "charge" && e.id === chargeId);
  if (!charge)
    return {
      ...stripeError(400, "invalid_request_error", `No such charge: '${chargeId}'`, {
        code: "resource_missing",
        param: "charge",
      }),
      saved: true,
    };
  const chargeAmount = Number(charge.body.amount);
  const refunded = state.effects
    .filter((e) => e.kind === "refund" && e.body.charge === chargeId)
    .reduce((s, e) => s + Number(e.body.amount), 0);
  const amount = params.amount === undefined ? chargeAmount - refunded : Number(str(params.amount));
  if (!Number.isInteger(amount) || amount <= 0 || amount + refunded > chargeAmount) {
    return {
      ...stripeError(
        400,
        "invalid_request_error",
        "Refund amount is greater than unrefunded amount on charge",
        { code: "amount_too_large" },
      ),
      saved: true,
    };
  }
  const id = state.newId("re");
  const createdAt = state.now();
  const body = {
    id,
    object: "refund",
    amount,
    charge: chargeId,
    created: Math.floor(createdAt / 1000),
    currency: charge.body.currency,
    metadata,
    status: "succeeded",
  };
  charge.body = {
    ...charge.body,
    amount_refunded: refunded + amount,
    refunded: refunded + amount === chargeAmount,
  };
  const effect = state.addEffect(
    {
      id,
      kind: "refund",
      idempotencyKey: key,
      intentKey: metadata.intent_key ?? null,
      createdAt,
      injected: false,
      body,
    },
    "re",
  );
  return { status: 200, body, effect, saved: true };
}

export function retrieveObject(state: SandboxState, kind: Kind, id: string): Reply {
  const effect = state.effects.find((e) => e.kind === kind && e.id === id);
  return effect
    ? { status: 200, body: effect.body }
    : stripeError(404, "invalid_request_error", `No such ${kind}: '${id}'`, { code: "resource_missing" });
}

export function searchCharges(url: URL, state: SandboxState): Reply {
  let clauses;
  try {
    clauses = parseSearchQuery(url.searchParams.get("query") ?? "");
  } catch (error) {
    if (error instanceof SearchQueryError)
      return stripeError(400, "invalid_request_error", error.message, { param: "query" });
    throw error;
  }
  const limit = Math.min(Number(url.searchParams.get("limit") ?? 10) || 10, 100);
  const data = state.effects
    .filter(
      (e) =>
        e.kind === "charge" &&
        visible(e, state, state.config.paymentsSearchLagMs) &&
        matchesClauses(e.body, clauses),
    )
    .sort((a, b) => b.createdAt - a.createdAt)
    .map((e) => e.body);
  return {
    status: 200,
    body: {
      object: "search_result",
      data: data.slice(0, limit),
      has_more: data.length > limit,
      next_page: null,
      url: "/v1/charges/search",
    },
  };
}

export function listObjects(url: URL, state: SandboxState, kind: Kind): Reply {
  const q = url.searchParams;
  const limit = Math.min(Number(q.get("limit") ?? 10) || 10, 100);
  const gte = q.get("created[gte]");
  const lte = q.get("created[lte]");
  const data = state.effects
    .filter((e) => e.kind === kind)
    .filter((e) => (q.get("customer") ? e.body.customer === q.get("customer") : true))
    .filter((e) => (q.get("charge") ? e.body.charge === q.get("charge") : true))
    .filter((e) => (gte ? Number(e.body.created) >= Number(gte) : true))
    .filter((e) => (lte ? Number(e.body.created) <= Number(lte) : true))
    .sort((a, b) => b.createdAt - a.createdAt)
    .map((e) => e.body);
  return {
    status: 200,
    body: { object: "list", data: data.slice(0, limit), has_more: data.length > limit, url: `/v1/${kind}s` },
  };
}
