import { describe, expect, it } from "vitest";
import type { EffectIntent, Lookup, ProviderProfile } from "@/prisma/generated/client";
import { approvalsRequired, evidenceAllows, keyRetentionEndsAt } from "./rules";

const now = new Date("2026-11-29T12:00:00Z");
const payments = {
  kind: "payments",
  supportsIdempotency: true,
  keyRetentionSeconds: 86_400,
} as ProviderProfile;
const mailer = { kind: "mailer", supportsIdempotency: false, keyRetentionSeconds: null } as ProviderProfile;
const intent = (over: Partial<EffectIntent> = {}) =>
  ({
    id: "i1",
    status: "unknown",
    operation: "charge",
    amountMinor: 5_000n,
    compensatesId: null,
    providerResultId: null,
    lastAttemptAt: new Date(now.getTime() - 3_600_000),
    createdAt: new Date(now.getTime() - 3_700_000),
    ...over,
  }) as EffectIntent;
const lookup = (outcome: string, over: Partial<Lookup> = {}) =>
  ({
    id: "l1",
    intentId: "i1",
    outcome,
    providerResultId: outcome.startsWith("found") ? "ch_1" : null,
    startedAt: now,
    method: "idempotency_key",
    ...over,
  }) as Lookup;
const ev = (l: Lookup | null, later: Lookup[] = []) => ({
  lookup: l,
  externalEvidenceRef: null,
  laterLookups: later,
});

describe("evidence rules", () => {
  it("accepts a receipt only on an exact match (or external evidence)", () => {
    expect(evidenceAllows("accept_receipt", intent(), payments, ev(lookup("found_matching")), now).ok).toBe(
      true,
    );
    for (const o of ["found_conflicting", "multiple_found", "absent", "not_visible_yet", "inconclusive"]) {
      expect(evidenceAllows("accept_receipt", intent(), payments, ev(lookup(o)), now).ok).toBe(false);
    }
    expect(
      evidenceAllows(
        "accept_receipt",
        intent(),
        payments,
        { lookup: null, externalEvidenceRef: "TICKET-1", laterLookups: [] },
        now,
      ).ok,
    ).toBe(true);
  });

  it("marks rejected only on absence, and only while the provider keeps the key", () => {
    expect(evidenceAllows("mark_rejected", intent(), payments, ev(lookup("absent")), now).ok).toBe(true);
    expect(evidenceAllows("mark_rejected", intent(), payments, ev(lookup("not_visible_yet")), now).ok).toBe(
      false,
    );
    expect(evidenceAllows("mark_rejected", intent(), payments, ev(lookup("inconclusive")), now).ok).toBe(
      false,
    );
    const old = intent({ lastAttemptAt: new Date(now.getTime() - 25 * 3_600_000) });
    expect(evidenceAllows("mark_rejected", old, payments, ev(lookup("absent")), now)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/Escalate/),
    });
    // A provider without keys has no retention to run out.
    expect(evidenceAllows("mark_rejected", old, mailer, ev(lookup("absent")), now).ok).toBe(true);
  });

  it("compensates only a charge that happened", () => {
    expect(
      evidenceAllows(
        "start_compensation",
        intent({ status: "confirmed", providerResultId: "ch_1" }),
        payments,
        ev(null),
        now,
      ).ok,
    ).toBe(true);
    expect(
      evidenceAllows("start_compensation", intent(), payments, ev(lookup("found_matching")), now).ok,
    ).toBe(true);
    expect(evidenceAllows("start_compensation", intent(), payments, ev(lookup("absent")), now).ok).toBe(
      false,
    );
    expect(
      evidenceAllows("start_compensation", intent({ operation: "send_email" }), mailer, ev(null), now).ok,
    ).toBe(false);
  });

  it("lets a newer conclusive lookup override the one cited", () => {
    const later = lookup("absent", { id: "l2", startedAt: new Date(now.getTime() + 1000) });
    expect(
      evidenceAllows("accept_receipt", intent(), payments, ev(lookup("found_matching"), [later]), now).ok,
    ).toBe(false);
    const inconclusive = lookup("inconclusive", { id: "l3", startedAt: new Date(now.getTime() + 1000) });
    expect(
      evidenceAllows("accept_receipt", intent(), payments, ev(lookup("found_matching"), [inconclusive]), now)
        .ok,
    ).toBe(true);
  });

  it("resolves only unknown intents (compensation aside)", () => {
    expect(evidenceAllows("escalate", intent({ status: "confirmed" }), payments, ev(null), now).ok).toBe(
      false,
    );
    expect(
      evidenceAllows(
        "accept_receipt",
        intent({ status: "rejected" }),
        payments,
        ev(lookup("found_matching")),
        now,
      ).ok,
    ).toBe(false);
  });

  it("knows when a key's retention ends", () => {
    expect(keyRetentionEndsAt(intent(), payments)).toEqual(new Date(now.getTime() - 3_600_000 + 86_400_000));
    expect(keyRetentionEndsAt(intent(), mailer)).toBeNull();
  });
});

describe("approval thresholds", () => {
  const threshold = { thresholdMinor: 100_000n, dualThresholdMinor: 1_000_000n };
  it("needs none below, one at or above, two at or above the dual threshold", () => {
    expect(approvalsRequired("accept_receipt", { amountMinor: 99_999n }, payments, threshold, false)).toBe(0);
    expect(approvalsRequired("accept_receipt", { amountMinor: 100_000n }, payments, threshold, false)).toBe(
      1,
    );
    expect(approvalsRequired("mark_rejected", { amountMinor: 1_000_000n }, payments, threshold, false)).toBe(
      2,
    );
  });
  it("always needs one for a payment compensation or external evidence, never for escalation", () => {
    expect(approvalsRequired("start_compensation", { amountMinor: 1n }, payments, threshold, false)).toBe(1);
    expect(approvalsRequired("accept_receipt", { amountMinor: 1n }, payments, threshold, true)).toBe(1);
    expect(approvalsRequired("escalate", { amountMinor: 5_000_000n }, payments, threshold, false)).toBe(0);
    expect(approvalsRequired("accept_receipt", { amountMinor: null }, mailer, null, false)).toBe(0);
  });
});
