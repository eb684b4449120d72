import { describe, expect, it } from "vitest";
import { classify, type ClassifyInput } from "./classify";
import type { Candidate } from "./types";

const t0 = new Date("2026-11-29T10:00:00Z");
const base: Omit<ClassifyInput, "candidates"> = {
  expected: { intentKey: "invoice:1:collect:v1", amountMinor: 1200, currency: "EUR", customer: "cus_1" },
  lagged: true,
  lastAttemptAt: t0,
  visibilityDelayMs: 60_000,
  now: new Date(t0.getTime() + 120_000),
};
const charge = (over: Partial<Candidate> = {}): Candidate => ({
  id: "ch_1",
  amountMinor: 1200,
  currency: "eur",
  customer: "cus_1",
  intentKey: "invoice:1:collect:v1",
  createdAt: t0.toISOString(),
  ...over,
});

describe("lookup classification", () => {
  it("found_matching: exactly one effect with the same amount, currency and customer", () => {
    expect(classify({ ...base, candidates: [charge()] })).toMatchObject({
      outcome: "found_matching",
      match: { id: "ch_1" },
    });
  });

  it("found_conflicting: one effect under this intent that differs", () => {
    const r = classify({ ...base, candidates: [charge({ amountMinor: 1300 })] });
    expect(r.outcome).toBe("found_conflicting");
    expect(r.reason).toContain("amount 1300 instead of 1200");
    expect(classify({ ...base, candidates: [charge({ customer: "cus_2" })] }).outcome).toBe(
      "found_conflicting",
    );
  });

  it("multiple_found: more than one candidate", () => {
    expect(classify({ ...base, candidates: [charge(), charge({ id: "ch_2" })] }).outcome).toBe(
      "multiple_found",
    );
  });

  it("ignores effects that belong to another intent", () => {
    expect(classify({ ...base, candidates: [charge({ intentKey: "invoice:2:collect:v1" })] }).outcome).toBe(
      "absent",
    );
    expect(
      classify({ ...base, candidates: [charge(), charge({ id: "ch_9", intentKey: "other" })] }).outcome,
    ).toBe("found_matching");
  });

  it("not_visible_yet, never absent, while a lagging search may still be catching up", () => {
    const early = { ...base, candidates: [], now: new Date(t0.getTime() + 30_000) };
    expect(classify(early).outcome).toBe("not_visible_yet");
    expect(classify({ ...early, now: new Date(t0.getTime() + 59_999) }).outcome).toBe("not_visible_yet");
    expect(classify({ ...early, now: new Date(t0.getTime() + 60_000) }).outcome).toBe("absent");
  });

  it("absent at once when the read is consistent (a direct read or a list)", () => {
    expect(classify({ ...base, candidates: [], lagged: false, now: t0 }).outcome).toBe("absent");
  });

  it("compares emails by recipient digest and template", () => {
    const expected = { intentKey: "k", recipientDigest: "d1", template: "receipt" };
    const mail = { id: "msg_1", recipientDigest: "d1", template: "receipt", createdAt: t0.toISOString() };
    expect(classify({ ...base, expected, candidates: [mail] }).outcome).toBe("found_matching");
    expect(classify({ ...base, expected, candidates: [{ ...mail, template: "invoice-due" }] }).outcome).toBe(
      "found_conflicting",
    );
    expect(classify({ ...base, expected, candidates: [{ ...mail, recipientDigest: "d2" }] }).outcome).toBe(
      "found_conflicting",
    );
  });
});
