import { stripeError, type Ctx, type Reply } from "./handler";
import type { FaultRule, SandboxState } from "./state";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Picks the fault rule for this request and notes it, with the intent key, in the request log. */
export function takeFault(
  ctx: Ctx,
  state: SandboxState,
  idempotencyKey: string | null,
  metadata: Record<string, string>,
): FaultRule | null {
  ctx.log.intentKey = metadata.intent_key ?? null;
  const rule = state.takeFault({ idempotencyKey, intentKey: ctx.log.intentKey, path: ctx.url.pathname });
  ctx.log.fault = rule?.fault ?? null;
  return rule;
}

/** Applies a fault that happens before the provider executes anything. */
export function earlyFault(rule: FaultRule | null): Reply | null {
  if (rule?.fault === "http_429")
    return stripeError(429, "rate_limit_error", "Too many requests hit the API too quickly.", {
      code: "rate_limit",
    });
  if (rule?.fault === "http_500")
    return stripeError(500, "api_error", "An unexpected error occurred (injected before execution).");
  return null;
}

/** Faults that happen after the effect is committed: a late answer, or none at all. */
export async function lateFault(ctx: Ctx, rule: FaultRule | null): Promise<"dropped" | null> {
  if (rule?.fault === "delay") await sleep(rule.delayMs ?? 5_000);
  if (rule?.fault === "commit_then_drop") {
    ctx.req.socket.destroy();
    return "dropped";
  }
  return null;
}
