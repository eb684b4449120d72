import { digest } from "@/lib/digest";
import { lateFault } from "./faults";
import { stripeError, type Ctx, type Handled, type Reply } from "./handler";
import type { FaultRule, IdempotencyRecord, SandboxState } from "./state";

/** An endpoint's own answer, and whether Stripe would keep it under the Idempotency-Key. */
export type Executed = Reply & { saved: boolean };

/**
 * Runs one POST under Stripe's Idempotency-Key rules, the one place the sandbox reads and
 * writes idempotency records. A remembered key is refused when it came with another route or
 * other parameters (idempotency_error), refused while its first request still runs
 * (idempotency_key_in_use), and otherwise answered with the saved reply, marked replayed.
 * A new key is held in flight while the request executes, then keeps the reply.
 */
export async function withIdempotencyKey(
  ctx: Ctx,
  state: SandboxState,
  request: { key: string | null; params: unknown; rule: FaultRule | null },
  execute: () => Executed,
): Promise<Handled> {
  const { key, rule } = request;
  const route = `POST ${ctx.url.pathname}`;
  const paramsDigest = digest(request.params);
  const known = key ? state.rememberedKey(key) : null;
  if (key && known) {
    if (known.route !== route || known.paramsDigest !== paramsDigest) {
      return stripeError(
        400,
        "idempotency_error",
        `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
      );
    }
    if (known.state === "in_flight") {
      return stripeError(
        409,
        "idempotency_error",
        "There is currently another in-progress request using this Idempotent Key (that probably means you submitted twice, and the other request is still going through): " +
          key,
        { code: "idempotency_key_in_use" },
      );
    }
    ctx.log.replayed = true;
    if ((await lateFault(ctx, rule)) === "dropped") return "dropped";
    return { status: known.status!, body: known.body, headers: { "idempotent-replayed": "true" } };
  }

  const reply = execute();
  const remember = (outcome: Pick<IdempotencyRecord, "state" | "status" | "body">) => {
    if (key && reply.saved)
      state.idempotency.set(key, { key, route, paramsDigest, createdAt: state.now(), ...outcome });
  };
  // Stripe saves the result of any request whose endpoint began executing.
  remember({ state: "in_flight" });
  // The reply is kept even when the connection drops: a retry must replay it, not charge again.
  const dropped = await lateFault(ctx, rule);
  remember({ state: "done", status: reply.status, body: reply.body });
  if (dropped) return "dropped";
  state.changed();
  return reply;
}
