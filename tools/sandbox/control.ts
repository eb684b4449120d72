import { metadataOf, type Ctx, type Reply } from "./handler";
import type { FaultRule, FaultType, SandboxState } from "./state";

/** Control endpoints under /_…: inject faults, move the clock and expose the ground truth. */

const FAULTS: FaultType[] = ["http_429", "http_500", "delay", "commit_then_drop"];

export async function control(ctx: Ctx, state: SandboxState): Promise<Reply> {
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
  if (p === "/_effects" && method === "POST") return injectEffect(json(), state);
  if (p === "/_requests" && method === "GET") return { status: 200, body: { requests: state.requests } };
  if (p === "/_faults" && method === "POST") return addFaults(json(), state);
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

/** Puts an effect there directly: "someone else already charged this customer". */
function injectEffect(b: Record<string, unknown>, state: SandboxState): Reply {
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

function addFaults(b: Record<string, unknown>, state: SandboxState): Reply {
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
