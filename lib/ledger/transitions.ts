import type { IntentStatus } from "./statuses";

/**
 * What can happen to an intent. Worker events come from the effect protocol;
 * operator events from resolutions in the console.
 */
export const LEDGER_EVENTS = [
  "dispatch", // a worker takes the lease and sends the request
  "receipt", // the provider answered with the effect
  "definitive_error", // the provider answered: no effect happened
  "timeout", // the request left, the answer did not come back
  "lease_expired", // the worker holding the lease is gone
  "accept_receipt", // operator: a lookup found exactly this effect
  "mark_rejected", // operator: a lookup proved no effect happened
  "escalate", // operator: evidence is ambiguous; stays unknown, needs an operator
  "start_compensation", // a compensating intent was created for this effect
  "compensation_confirmed", // the compensating intent was confirmed with a receipt
  "redispatch", // reconciler: the provider proved it absent and keeps the key; send again with it
] as const;

export type LedgerEvent = (typeof LEDGER_EVENTS)[number];

// The only legal transitions (SPEC "The effect ledger"). Anything else is refused.
const RULES: Record<LedgerEvent, Partial<Record<IntentStatus, IntentStatus>>> = {
  // A rejected intent is safe to send again with the SAME key; unknown is frozen.
  dispatch: { prepared: "dispatched", rejected: "dispatched" },
  receipt: { dispatched: "confirmed" },
  definitive_error: { dispatched: "rejected" },
  timeout: { dispatched: "unknown" },
  lease_expired: { dispatched: "unknown" },
  accept_receipt: { unknown: "confirmed" },
  mark_rejected: { unknown: "rejected" },
  escalate: { unknown: "unknown" },
  // Compensating an effect that happened: confirmed, or unknown with evidence it happened.
  start_compensation: { confirmed: "compensating", unknown: "compensating" },
  compensation_confirmed: { compensating: "compensated" },
  // Only with evidence, under the intent's lock (lib/reconcile/redispatch.ts): an absent
  // lookup after the visibility delay, the key still within the provider's retention.
  redispatch: { unknown: "dispatched" },
};

export type Transition =
  { ok: true; from: IntentStatus; to: IntentStatus } | { ok: false; from: IntentStatus; reason: string };

export function transition(from: IntentStatus, event: LedgerEvent): Transition {
  const to = RULES[event][from];
  if (to) return { ok: true, from, to };
  return { ok: false, from, reason: `${event} is not allowed from ${from}` };
}

/** Statuses an event may start from: the compare-and-set's expected prior status. */
export function sourcesOf(event: LedgerEvent): IntentStatus[] {
  return Object.keys(RULES[event]) as IntentStatus[];
}

/** No worker may send this intent's request again (SPEC: unknown freezes redispatch). */
export function isFrozen(intent: { status: IntentStatus; needsOperator: boolean }): boolean {
  return intent.status === "unknown" || intent.needsOperator;
}

export const TERMINAL_STATUSES: readonly IntentStatus[] = ["confirmed", "compensating", "compensated"];
