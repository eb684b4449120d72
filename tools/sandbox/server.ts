import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { digest } from "@/lib/digest";
import { parseStripeForm, type FormValue } from "./form";
import { matchesClauses, parseSearchQuery, SearchQueryError } from "./search-query";
import { SandboxState, type Effect, type FaultRule, type FaultType, type RecordedRequest } from "./state";

/**
 * The sandbox provider: a real HTTP server with two providers behind it.
 *  - payments at /v1/…: a Stripe-compatible subset (charges, refunds, search), with
 *    Idempotency-Key semantics, key retention and search visibility lag;
 *  - mailer at /mailer/v1/…: no idempotency at all, like many email APIs.
 * Control endpoints under /_… inject faults, move the clock and expose the ground truth.
 */

type Reply = { status: number; body: unknown; headers?: Record<string, string> };
type Ctx = { req: IncomingMessage; res: ServerResponse; url: URL; raw: string; log: RecordedRequest };

const DECLINING_METHODS = new Set([
  "pm_card_chargeDeclined",
  "tok_chargeDeclined",
  "pm_card_visa_chargeDeclined",
]);

function stripeError(
  status: number,
  type: string,
  message: string,
  extra: Record<string, unknown> = {},
): Reply {
  return { status, body: { error: { type, message, ...extra } } };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function str(v: FormValue | undefined): string | undefined {
  return typeof v === "string" ? v : undefined;
}

function metadataOf(v: FormValue | undefined | unknown): Record<string, string> {
  if (!v || typeof v !== "object" || Array.isArray(v)) return {};
  return Object.fromEntries(
    Object.entries(v as Record<string, unknown>).filter(([, x]) => typeof x === "string"),
  ) as Record<string, string>;
}

export function createSandboxServer(state: SandboxState): Server {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://sandbox");
      const raw = Buffer.concat(chunks).toString("utf8");
      const control = url.pathname.startsWith("/_");
      const log: RecordedRequest = control
        ? ({} as RecordedRequest)
        : state.logRequest({
            at: state.now(),
            method: req.method ?? "GET",
            path: url.pathname,
            idempotencyKey: header(req, "idempotency-key"),
            intentKey: null,
            status: null,
            fault: null,
            replayed: false,
            effectId: null,
          });
      handle({ req, res, url, raw, log }, state)
        .then((reply) => {
          if (reply === "dropped") return;
          if (!control) {
            log.status = reply.status;
            state.changed();
          }
          send(res, reply);
        })
        .catch((error: unknown) => {
          console.error("sandbox error", error);
          send(res, stripeError(500, "api_error", "sandbox internal error"));
        });
    });
  });
  server.keepAliveTimeout = 1_000;
  return server;
}

function header(req: IncomingMessage, name: string): string | null {
  const v = req.headers[name];
  return typeof v === "string" && v.length > 0 ? v : null;
}

function send(res: ServerResponse, reply: Reply) {
  if (res.destroyed || res.writableEnded) return;
  res.writeHead(reply.status, {
    "content-type": "application/json",
    "request-id": `req_${Math.random().toString(36).slice(2, 16)}`,
    ...reply.headers,
  });
  res.end(JSON.stringify(reply.body));
}

async function handle(ctx: Ctx, state: SandboxState): Promise<Reply | "dropped"> {
  const { req, url } = ctx;
  const method = req.method ?? "GET";
  const p = url.pathname;
  let m: RegExpExecArray | null;

  if (p.startsWith("/_")) return control(ctx, state);

  if (p === "/v1/charges" && method === "POST") return createWithIdempotency(ctx, state, "charge");
  if (p === "/v1/refunds" && method === "POST") return createWithIdempotency(ctx, state, "refund");
  if (p === "/v1/charges/search" && method === "GET") return searchCharges(url, state);
  if (p === "/v1/charges" && method === "GET") return listObjects(url, state, "charge");
  if (p === "/v1/refunds" && method === "GET") return listObjects(url, state, "refund");
  if ((m = /^\/v1\/(charges|refunds)\/([\w]+)$/.exec(p)) && method === "GET") {
    const kind = m[1] === "charges" ? "charge" : "refund";
    const effect = state.effects.find((e) => e.kind === kind && e.id === m![2]);
    return effect
      ? { status: 200, body: effect.body }
      : stripeError(404, "invalid_request_error", `No such ${kind}: '${m[2]}'`, { code: "resource_missing" });
  }

  if (p === "/mailer/v1/messages" && method === "POST") return sendEmail(ctx, state);
  if (p === "/mailer/v1/messages" && method === "GET") return searchEmails(url, state);
  if ((m = /^\/mailer\/v1\/messages\/([\w]+)$/.exec(p)) && method === "GET") {
    const effect = state.effects.find((e) => e.kind === "email" && e.id === m![1]);
    return effect
      ? { status: 200, body: effect.body }
      : { status: 404, body: { error: { type: "not_found", message: `No message ${m[1]}` } } };
  }
  return stripeError(404, "invalid_request_error", `Unrecognized request URL (${method}: ${p})`);
}

/** Applies a fault that happens before the provider executes anything. */
function earlyFault(rule: FaultRule | null): Reply | null {
  if (rule?.fault === "http_429")
    return stripeError(429, "rate_limit_error", "Too many requests hit the API too quickly.", {
      code: "rate_limit",
    });
  if (rule?.fault === "http_500")
    return stripeError(500, "api_error", "An unexpected error occurred (injected before execution).");
  return null;
}

/** Faults that happen after the effect is committed: a late answer, or none at all. */
async function lateFault(ctx: Ctx, rule: FaultRule | null): Promise<"dropped" | null> {
  if (rule?.fault === "delay") await sleep(rule.delayMs ?? 5_000);
  if (rule?.fault === "commit_then_drop") {
    ctx.req.socket.destroy();
    return "dropped";
  }
  return null;
}

async function createWithIdempotency(
  ctx: Ctx,
  state: SandboxState,
  kind: "charge" | "refund",
): Promise<Reply | "dropped"> {
  const params = parseStripeForm(ctx.raw);
  const metadata = metadataOf(params.metadata);
  const key = header(ctx.req, "idempotency-key");
  ctx.log.intentKey = metadata.intent_key ?? null;
  const rule = state.takeFault({ idempotencyKey: key, intentKey: ctx.log.intentKey, path: ctx.url.pathname });
  ctx.log.fault = rule?.fault ?? null;
  const early = earlyFault(rule);
  if (early) return early;

  const route = `POST ${ctx.url.pathname}`;
  const paramsDigest = digest(params);
  if (key) {
    const known = state.rememberedKey(key);
    if (known && (known.route !== route || known.paramsDigest !== paramsDigest)) {
      return stripeError(
        400,
        "idempotency_error",
        `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
      );
    }
    if (known?.state === "in_flight") {
      return stripeError(
        409,
        "idempotency_error",
        "There is currently another in-progress request using this Idempotent Key (that probably means you submitted twice, and the other request is still going through): " +
          key,
        { code: "idempotency_key_in_use" },
      );
    }
    if (known) {
      ctx.log.replayed = true;
      if ((await lateFault(ctx, rule)) === "dropped") return "dropped";
      return { status: known.status!, body: known.body, headers: { "idempotent-replayed": "true" } };
    }
  }

  const reply =
    kind === "charge"
      ? executeCharge(params, metadata, state, key)
      : executeRefund(params, metadata, state, key);
  if (reply.effect) ctx.log.effectId = reply.effect.id;
  if (key && reply.saved) {
    // Stripe saves the result of any request whose endpoint began executing.
    state.idempotency.set(key, { key, route, paramsDigest, createdAt: state.now(), state: "in_flight" });
  }
  if ((await lateFault(ctx, rule)) === "dropped") {
    if (key && reply.saved)
      state.idempotency.set(key, {
        key,
        route,
        paramsDigest,
        createdAt: state.now(),
        state: "done",
        status: reply.status,
        body: reply.body,
      });
    return "dropped";
  }
  if (key && reply.saved)
    state.idempotency.set(key, {
      key,
      route,
      paramsDigest,
      createdAt: state.now(),
      state: "done",
      status: reply.status,
      body: reply.body,
    });
  state.changed();
  return reply;
}

function executeCharge(
  params: Record<string, FormValue>,
  metadata: Record<string, string>,
  state: SandboxState,
  key: string | null,
): Reply & { effect?: Effect; saved: boolean } {
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
): Reply & { effect?: Effect; saved: boolean } {
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

function visible(effect: Effect, state: SandboxState, lagMs: number): boolean {
  return effect.createdAt + lagMs <= state.now();
}

function searchCharges(url: URL, state: SandboxState): Reply {
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

function listObjects(url: URL, state: SandboxState, kind: "charge" | "refund"): Reply {
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

async function sendEmail(ctx: Ctx, state: SandboxState): Promise<Reply | "dropped"> {
  let input: { to?: unknown; template?: unknown; variables?: unknown; metadata?: unknown };
  try {
    input = JSON.parse(ctx.raw || "{}") as typeof input;
  } catch {
    return { status: 400, body: { error: { type: "invalid_request", message: "body must be JSON" } } };
  }
  const metadata = metadataOf(input.metadata);
  ctx.log.intentKey = metadata.intent_key ?? null;
  const rule = state.takeFault({
    idempotencyKey: null,
    intentKey: ctx.log.intentKey,
    path: ctx.url.pathname,
  });
  ctx.log.fault = rule?.fault ?? null;
  const early = earlyFault(rule);
  if (early) return early;
  const to = typeof input.to === "string" ? input.to.trim() : "";
  const template = typeof input.template === "string" ? input.template : "";
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(to))
    return {
      status: 422,
      body: { error: { type: "invalid_recipient", message: "Recipient address is not valid" } },
    };
  if (to.endsWith("@bounce.example"))
    return {
      status: 422,
      body: { error: { type: "suppressed", message: "Recipient is on the suppression list" } },
    };
  if (!template)
    return { status: 422, body: { error: { type: "invalid_request", message: "template is required" } } };

  const id = state.newId("msg");
  const createdAt = state.now();
  const body = {
    id,
    object: "message",
    to,
    template,
    status: "queued",
    created: Math.floor(createdAt / 1000),
    metadata,
  };
  const effect = state.addEffect(
    {
      id,
      kind: "email",
      idempotencyKey: null,
      intentKey: metadata.intent_key ?? null,
      createdAt,
      injected: false,
      body,
    },
    "msg",
  );
  ctx.log.effectId = effect.id;
  if ((await lateFault(ctx, rule)) === "dropped") return "dropped";
  return { status: 202, body };
}

function searchEmails(url: URL, state: SandboxState): Reply {
  const q = url.searchParams;
  const gte = q.get("created_gte");
  const lte = q.get("created_lte");
  const data = state.effects
    .filter((e) => e.kind === "email" && visible(e, state, state.config.mailerSearchLagMs))
    .filter((e) => (q.get("to") ? String(e.body.to).toLowerCase() === q.get("to")!.toLowerCase() : true))
    .filter((e) => (q.get("template") ? e.body.template === q.get("template") : true))
    .filter((e) => (gte ? Number(e.body.created) >= Number(gte) : true))
    .filter((e) => (lte ? Number(e.body.created) <= Number(lte) : true))
    .sort((a, b) => b.createdAt - a.createdAt)
    .map((e) => e.body);
  return { status: 200, body: { object: "list", data: data.slice(0, 100) } };
}

const FAULTS: FaultType[] = ["http_429", "http_500", "delay", "commit_then_drop"];

async function control(ctx: Ctx, state: SandboxState): Promise<Reply> {
  const method = ctx.req.method ?? "GET";
  const p = ctx.url.pathname;
  const json = () => (ctx.raw ? (JSON.parse(ctx.raw) as Record<string, unknown>) : {});

  if (p === "/_health") return { status: 200, body: { ok: true, now: new Date(state.now()).toISOString() } };
  if (p === "/_effects" && method === "GET") {
    const key = ctx.url.searchParams.get("idempotencyKey");
    const intentKey = ctx.url.searchParams.get("intentKey");
    const effects = state.effects.filter(
      (e) => (key ? e.idempotencyKey === key : true) && (intentKey ? e.intentKey === intentKey : true),
    );
    return { status: 200, body: { effects } };
  }
  if (p === "/_effects" && method === "POST") {
    // Put an effect there directly: "someone else already charged this customer".
    const b = json();
    const kind = b.kind === "email" ? "email" : "charge";
    const createdAt = typeof b.createdAt === "number" ? b.createdAt : state.now();
    const prefix = kind === "email" ? "msg" : "ch";
    const id = state.newId(prefix);
    const metadata = metadataOf(b.metadata);
    const body =
      kind === "charge"
        ? {
            id,
            object: "charge",
            amount: Number(b.amount),
            currency: String(b.currency ?? "usd").toLowerCase(),
            customer: b.customer ?? null,
            created: Math.floor(createdAt / 1000),
            metadata,
            status: "succeeded",
            paid: true,
            captured: true,
            amount_refunded: 0,
            refunded: false,
            livemode: false,
          }
        : {
            id,
            object: "message",
            to: b.to,
            template: b.template,
            status: "queued",
            created: Math.floor(createdAt / 1000),
            metadata,
          };
    const effect = state.addEffect(
      {
        id,
        kind,
        idempotencyKey: null,
        intentKey: metadata.intent_key ?? null,
        createdAt,
        injected: true,
        body,
      },
      prefix,
    );
    return { status: 201, body: effect };
  }
  if (p === "/_requests" && method === "GET") return { status: 200, body: { requests: state.requests } };
  if (p === "/_faults" && method === "POST") {
    const b = json();
    const rules = (Array.isArray(b.rules) ? b.rules : [b]) as Record<string, unknown>[];
    const added: FaultRule[] = [];
    for (const r of rules) {
      if (!FAULTS.includes(r.fault as FaultType))
        return { status: 400, body: { error: `fault must be one of ${FAULTS.join(", ")}` } };
      const rule: FaultRule = {
        id: state.newId("fault"),
        match: (r.match ?? {}) as FaultRule["match"],
        fault: r.fault as FaultType,
        delayMs: typeof r.delayMs === "number" ? r.delayMs : undefined,
        remaining: typeof r.times === "number" ? r.times : 1,
      };
      state.faults.push(rule);
      added.push(rule);
    }
    return { status: 201, body: { faults: added } };
  }
  if (p === "/_faults" && method === "GET") return { status: 200, body: { faults: state.faults } };
  if (p === "/_faults" && method === "DELETE") {
    state.faults = [];
    return { status: 200, body: { ok: true } };
  }
  if (p === "/_clock") {
    if (method === "POST") {
      const b = json();
      if (typeof b.advanceMs === "number") state.clockOffsetMs += b.advanceMs;
      if (typeof b.set === "string") state.clockOffsetMs = Date.parse(b.set) - Date.now();
      if (b.reset === true) state.clockOffsetMs = 0;
      state.changed();
    }
    return { status: 200, body: { now: new Date(state.now()).toISOString(), offsetMs: state.clockOffsetMs } };
  }
  if (p === "/_config" && method === "POST") {
    Object.assign(state.config, json());
    state.changed();
    return { status: 200, body: state.config };
  }
  if (p === "/_config") return { status: 200, body: state.config };
  if (p === "/_reset" && method === "POST") {
    state.reset();
    return { status: 200, body: { ok: true } };
  }
  return { status: 404, body: { error: `no control endpoint ${method} ${p}` } };
}

export async function listen(server: Server, port: number, host = "127.0.0.1"): Promise<number> {
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return (server.address() as AddressInfo).port;
}
