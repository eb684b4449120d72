import { randomUUID } from "node:crypto";

const REQUEST_ID = /^[\w.-]{1,100}$/;

/**
 * The request id every audit event carries: the caller's `x-request-id` when it is a
 * plain token (so a proxy's id ties our events to its logs), otherwise a fresh one.
 * The one place a client-supplied id is accepted.
 */
export function requestIdFrom(given: unknown): string {
  return typeof given === "string" && REQUEST_ID.test(given) ? given : randomUUID();
}
