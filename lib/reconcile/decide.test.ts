import { describe, expect, it } from "vitest";
import {
  backoffMs,
  decide,
  DEADLINE_MARGIN_MS,
  MAX_TRIES_WITHOUT_DEADLINE,
  type DecisionInput,
} from "./decide";

const now = new Date("2026-11-30T12:00:00Z");
const hour = 3_600_000;

function input(
  over: Partial<DecisionInput> = {},
  lookup: Partial<DecisionInput["lookup"]> = {},
): DecisionInput {
  return {
    intent: {
      amountMinor: 2_500n,
      currency: "USD",
      lastAttemptAt: new Date(now.getTime() - hour),
      createdAt: new Date(now.getTime() - hour),
      operation: "charge",
      compensatesId: null,
    },
    provider: { name: "Payments", kind: "payments", supportsIdempotency: true, keyRetentionSeconds: 86_400 },
    policy: { redispatch: true, maxRedispatches: 2 },
    threshold: { thresholdMinor: 100_000n, dualThresholdMinor: 1_000_000n, autoResolveBelowMinor: 10_000n },
    lookup: { outcome: "found_matching", providerResultId: "ch_1", errorClass: null, ...lookup },
    rebuild: { ok: true },
    tries: 0,
    redispatches: 0,
    now,
    ...over,
  };
}

describe("the reconciler's decision", () => {
  it("confirms a matching effect below the auto-resolve limit", () => {
    expect(decide(input()).action).toBe("confirm");
  });

  it("hands a matching effect at or above the limit to people, with the lookup attached", () => {
    const d = decide(input({ intent: { ...input().intent, amountMinor: 10_000n } }));
    expect(d).toMatchObject({ action: "escalate" });
    expect(d.reason).toMatch(/not below the auto-resolve limit/);
  });

  it("never confirms what needs approval, even with a limit set above the threshold", () => {
    const d = decide(
      input({
        intent: { ...input().intent, amountMinor: 150_000n },
        threshold: { thresholdMinor: 100_000n, dualThresholdMinor: null, autoResolveBelowMinor: 200_000n },
      }),
    );
    expect(d.action).toBe("escalate");
    expect(d.reason).toMatch(/needs approval/);
  });

  it("does not confirm money without a limit for its currency", () => {
    expect(decide(input({ threshold: null })).action).toBe("escalate");
    expect(
      decide(
        input({ threshold: { thresholdMinor: 1n, dualThresholdMinor: null, autoResolveBelowMinor: null } }),
      ).action,
    ).toBe("escalate");
  });

  it("confirms an effect without an amount (an email found sent)", () => {
    const intent = { ...input().intent, amountMinor: null, currency: null, operation: "send_email" };
    expect(decide(input({ intent, threshold: null })).action).toBe("confirm");
  });

  it.each(["found_conflicting", "multiple_found"] as const)("escalates %s", (outcome) => {
    expect(decide(input({}, { outcome, providerResultId: null })).action).toBe("escalate");
  });

  it("redispatches an absent effect while the provider keeps the key and retries remain", () => {
    expect(decide(input({}, { outcome: "absent", providerResultId: null })).action).toBe("redispatch");
  });

  it("escalates an absent effect when retries ran out, the policy forbids it, or the key is (nearly) forgotten", () => {
    const absent = { outcome: "absent" as const, providerResultId: null };
    expect(decide(input({ redispatches: 2 }, absent)).action).toBe("escalate");
    expect(decide(input({ policy: { redispatch: false, maxRedispatches: 2 } }, absent)).action).toBe(
      "escalate",
    );
    const nearlyForgotten = new Date(now.getTime() - 86_400_000 + DEADLINE_MARGIN_MS - 1);
    expect(
      decide(input({ intent: { ...input().intent, lastAttemptAt: nearlyForgotten } }, absent)).action,
    ).toBe("escalate");
  });

  it("never redispatches what it cannot rebuild exactly, or an amount a person must decide on", () => {
    const absent = { outcome: "absent" as const, providerResultId: null };
    const cannot = decide(
      input({ rebuild: { ok: false, reason: "the ledger does not hold enough" } }, absent),
    );
    expect(cannot.action).toBe("escalate");
    expect(cannot.reason).toMatch(/cannot send it again/);
    const large = decide(input({ intent: { ...input().intent, amountMinor: 900_000n } }, absent));
    expect(large.action).toBe("escalate");
    expect(large.reason).toMatch(/whether to send it again/);
  });

  it("never redispatches at a provider without idempotency keys", () => {
    const provider = {
      name: "Mailer",
      kind: "mailer" as const,
      supportsIdempotency: false,
      keyRetentionSeconds: null,
    };
    expect(decide(input({ provider }, { outcome: "absent", providerResultId: null })).action).toBe(
      "escalate",
    );
  });

  it("looks again later with backoff, never past the key-retention deadline without telling a person", () => {
    const later = decide(input({ tries: 3 }, { outcome: "not_visible_yet", providerResultId: null }));
    expect(later).toMatchObject({ action: "retry_later" });
    if (later.action === "retry_later") expect(later.at.getTime() - now.getTime()).toBe(backoffMs(3));

    const lateIntent = {
      ...input().intent,
      lastAttemptAt: new Date(now.getTime() - 86_400_000 + DEADLINE_MARGIN_MS + 60_000),
    };
    expect(
      decide(
        input(
          { intent: lateIntent, tries: 2 },
          { outcome: "inconclusive", providerResultId: null, errorClass: "http_500" },
        ),
      ).action,
    ).toBe("escalate");
  });

  it("without a deadline, gives up looking after a bounded number of tries", () => {
    const provider = {
      name: "Mailer",
      kind: "mailer" as const,
      supportsIdempotency: false,
      keyRetentionSeconds: null,
    };
    const lookup = { outcome: "inconclusive" as const, providerResultId: null };
    expect(decide(input({ provider, tries: 0 }, lookup)).action).toBe("retry_later");
    expect(decide(input({ provider, tries: MAX_TRIES_WITHOUT_DEADLINE - 1 }, lookup)).action).toBe(
      "escalate",
    );
  });

  it("backs off doubling from 30 s to at most an hour", () => {
    expect([0, 1, 2].map(backoffMs)).toEqual([30_000, 60_000, 120_000]);
    expect(backoffMs(50)).toBe(3_600_000);
  });
});
