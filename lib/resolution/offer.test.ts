import { describe, expect, it } from "vitest";
import type { EffectIntent, Lookup, ProviderProfile } from "@/prisma/generated/client";
import { decidingLookup, resolutionOffer } from "./offer";

const now = new Date("2026-11-29T12:00:00Z");
const payments = {
  kind: "payments",
  supportsIdempotency: true,
  keyRetentionSeconds: 86_400,
} as ProviderProfile;
const intent = (over: Partial<EffectIntent> = {}) =>
  ({
    id: "i1",
    status: "unknown",
    operation: "charge",
    amountMinor: 2_500n,
    currency: "USD",
    compensatesId: null,
    providerResultId: null,
    lastAttemptAt: new Date(now.getTime() - 3_600_000),
    createdAt: new Date(now.getTime() - 3_700_000),
    ...over,
  }) as EffectIntent;
const lookup = (outcome: string, minutesAgo = 0, id = outcome) =>
  ({
    id,
    intentId: "i1",
    outcome,
    providerResultId: outcome.startsWith("found") ? "ch_1" : null,
    startedAt: new Date(now.getTime() - minutesAgo * 60_000),
    method: "idempotency_key",
  }) as Lookup;
const threshold = { thresholdMinor: 100_000n, dualThresholdMinor: 1_000_000n };
const offer = (i: EffectIntent, lookups: Lookup[]) =>
  Object.fromEntries(
    resolutionOffer({ intent: i, provider: payments, lookups, threshold, now }).map((o) => [o.kind, o]),
  );

describe("resolution offer", () => {
  it("offers accept and compensation on a found-matching lookup, not mark rejected", () => {
    const o = offer(intent(), [lookup("found_matching")]);
    expect(o.accept_receipt).toMatchObject({ allowed: true, approvals: 0, reason: null });
    expect(o.accept_receipt!.approvalNote).toMatch(/^No approval needed/);
    expect(o.mark_rejected).toMatchObject({ allowed: false, externalOnly: false });
    expect(o.mark_rejected!.reason).toMatch(/absent/);
    expect(o.start_compensation).toMatchObject({ allowed: true, approvals: 1 });
    expect(o.start_compensation!.approvalNote).toMatch(/every payment compensation needs one/);
    expect(o.escalate).toMatchObject({ allowed: true, approvals: 0 });
  });

  it("after an absent lookup offers mark rejected, and accept only on an external reference", () => {
    const o = offer(intent(), [lookup("absent")]);
    expect(o.mark_rejected).toMatchObject({ allowed: true });
    expect(o.accept_receipt).toMatchObject({ allowed: false, externalOnly: true, approvals: 1 });
    expect(o.accept_receipt!.approvalNote).toMatch(/external evidence reference/);
  });

  it("counts approvers by the tenant's thresholds", () => {
    expect(offer(intent({ amountMinor: 250_000n }), [lookup("found_matching")]).accept_receipt).toMatchObject(
      {
        approvals: 1,
        approvalNote: expect.stringMatching(
          /\$2,500\.00 is at or above the one-approver threshold of \$1,000\.00/,
        ),
      },
    );
    expect(
      offer(intent({ amountMinor: 1_500_000n }), [lookup("found_matching")]).accept_receipt,
    ).toMatchObject({
      approvals: 2,
      approvalNote: expect.stringMatching(/^Needs 2 different approvers/),
    });
  });

  it("offers only compensation on a confirmed charge", () => {
    const o = offer(intent({ status: "confirmed", providerResultId: "ch_1" }), []);
    expect(
      Object.values(o)
        .filter((k) => k.allowed)
        .map((k) => k.kind),
    ).toEqual(["start_compensation"]);
    expect(o.accept_receipt!.externalOnly).toBe(false);
  });

  it("decides on the newest conclusive lookup, past an inconclusive one", () => {
    const lookups = [lookup("inconclusive", 1), lookup("found_matching", 5)];
    expect(decidingLookup(lookups)?.outcome).toBe("found_matching");
    expect(offer(intent(), lookups).accept_receipt!.allowed).toBe(true);
    expect(decidingLookup([lookup("not_visible_yet")])?.outcome).toBe("not_visible_yet");
    expect(decidingLookup([])).toBeNull();
  });
});

describe("approval note on external evidence", () => {
  it("says an external reference needs an approver even below the threshold", () => {
    const o = offer(intent(), [lookup("found_matching")]);
    expect(o.accept_receipt!.approvalNote).toMatch(/^No approval needed/);
    expect(o.accept_receipt!.externalApprovalNote).toMatch(/^Needs 1 approver .*external evidence reference/);
    expect(o.escalate!.externalApprovalNote).toMatch(/^No approval needed/);
  });
});
