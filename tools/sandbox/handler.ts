import type { IncomingMessage, ServerResponse } from "node:http";
import type { FormValue } from "./form";
import type { Effect, RecordedRequest, SandboxState } from "./state";

/**
 * What the router hands each endpoint and what an endpoint hands back; shared by the
 * payments, mailer and control endpoints so that none of them imports the router.
 */
export type Reply = { status: number; body: unknown; headers?: Record<string, string> };
export type Ctx = { req: IncomingMessage; res: ServerResponse; url: URL; raw: string; log: RecordedRequest };
/** "dropped": the connection was cut after the effect, so there is nothing left to send. */
export type Handled = Reply | "dropped";

export function stripeError(
  status: number,
  type: string,
  message: string,
  extra: Record<string, unknown> = {},
): Reply {
  return { status, body: { error: { type, message, ...extra } } };
}

export function header(req: IncomingMessage, name: string): string | null {
  const v = req.headers[name];
  return typeof v === "string" && v.length > 0 ? v : null;
}

export function metadataOf(v: FormValue | undefined | unknown): Record<string, string> {
  if (!v || typeof v !== "object" || Array.isArray(v)) return {};
  return Object.fromEntries(
    Object.entries(v as Record<string, unknown>).filter(([, x]) => typeof x === "string"),
  ) as Record<string, string>;
}

/** Search sees an effect only once the provider's indexing lag has passed. */
export function visible(effect: Effect, state: SandboxState, lagMs: number): boolean {
  return effect.createdAt + lagMs <= state.now();
}
