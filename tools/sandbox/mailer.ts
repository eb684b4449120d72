import { earlyFault, lateFault, takeFault } from "./faults";
import { metadataOf, visible, type Ctx, type Handled, type Reply } from "./handler";
import type { SandboxState } from "./state";

/** The mailer at /mailer/v1/…: no idempotency at all, like many email APIs. */

export async function sendEmail(ctx: Ctx, state: SandboxState): Promise<Handled> {
  let input: { to?: unknown; template?: unknown; variables?: unknown; metadata?: unknown };
  try {
    input = JSON.parse(ctx.raw || "{}") as typeof input;
  } catch {
    return { status: 400, body: { error: { type: "invalid_request", message: "body must be JSON" } } };
  }
  const metadata = metadataOf(input.metadata);
  const rule = takeFault(ctx, state, null, metadata);
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

export function retrieveEmail(state: SandboxState, id: string): Reply {
  const effect = state.effects.find((e) => e.kind === "email" && e.id === id);
  return effect
    ? { status: 200, body: effect.body }
    : { status: 404, body: { error: { type: "not_found", message: `No message ${id}` } } };
}

export function searchEmails(url: URL, state: SandboxState): Reply {
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
