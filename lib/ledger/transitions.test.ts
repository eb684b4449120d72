import { describe, expect, it } from "vitest";
import { INTENT_STATUSES, type IntentStatus } from "./statuses";
import { isFrozen, LEDGER_EVENTS, sourcesOf, transition, type LedgerEvent } from "./transitions";

// Written out by hand from the SPEC, not derived from the code under test:
// every (status, event) pair not listed here must be refused.
const LEGAL: [IntentStatus, LedgerEvent, IntentStatus][] = [
  ["prepared", "dispatch", "dispatched"],
  ["rejected", "dispatch", "dispatched"],
  ["dispatched", "receipt", "confirmed"],
  ["dispatched", "definitive_error", "rejected"],
  ["dispatched", "timeout", "unknown"],
  ["dispatched", "lease_expired", "unknown"],
  ["unknown", "accept_receipt", "confirmed"],
  ["unknown", "mark_rejected", "rejected"],
  ["unknown", "escalate", "unknown"],
  ["confirmed", "start_compensation", "compensating"],
  ["unknown", "start_compensation", "compensating"],
  ["compensating", "compensation_confirmed", "compensated"],
  ["unknown", "redispatch", "dispatched"],
];

describe("ledger transitions", () => {
  for (const from of INTENT_STATUSES) {
    for (const event of LEDGER_EVENTS) {
      const legal = LEGAL.find(([f, e]) => f === from && e === event);
      it(`${from} --${event}--> ${legal ? legal[2] : "refused"}`, () => {
        const result = transition(from, event);
        if (legal) {
          expect(result).toEqual({ ok: true, from, to: legal[2] });
        } else {
          expect(result.ok).toBe(false);
          if (!result.ok) expect(result.reason).toBe(`${event} is not allowed from ${from}`);
        }
      });
    }
  }

  it("knows each event's prior statuses for compare-and-set", () => {
    expect(sourcesOf("dispatch").sort()).toEqual(["prepared", "rejected"]);
    expect(sourcesOf("accept_receipt")).toEqual(["unknown"]);
  });

  it("never lets a worker move an unknown intent (only people, or the reconciler with evidence)", () => {
    const workerEvents: LedgerEvent[] = [
      "dispatch",
      "receipt",
      "definitive_error",
      "timeout",
      "lease_expired",
    ];
    for (const event of workerEvents) expect(transition("unknown", event).ok).toBe(false);
  });

  it("freezes unknown and needs-operator intents", () => {
    expect(isFrozen({ status: "unknown", needsOperator: false })).toBe(true);
    expect(isFrozen({ status: "rejected", needsOperator: true })).toBe(true);
    expect(isFrozen({ status: "prepared", needsOperator: false })).toBe(false);
  });
});
