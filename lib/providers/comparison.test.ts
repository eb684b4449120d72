import { describe, expect, it } from "vitest";
import { compareCandidate, parseEvidence, type AskedFor } from "./comparison";

const at = new Date("2026-11-29T12:00:00Z");
const charge: AskedFor = {
  intentKey: "invoice:1:collect:v1",
  amountMinor: 2_500n,
  currency: "USD",
  recipient: null,
  template: null,
  requestSummary: { customer: "cus_1", amount_minor: "2500" },
  providerKind: "payments",
  firstAttemptAt: at,
  lastAttemptAt: at,
  responseWindowSeconds: 30,
};
const byField = (rows: ReturnType<typeof compareCandidate>) =>
  Object.fromEntries(rows.map((r) => [r.field, r.verdict]));

describe("evidence comparison", () => {
  it("marks each field of a charge match, mismatch or not reported", () => {
    const rows = compareCandidate(charge, {
      id: "ch_1",
      amountMinor: 3_000,
      currency: "usd",
      customer: "cus_1",
      intentKey: "invoice:1:collect:v1",
      createdAt: new Date(at.getTime() + 5_000).toISOString(),
    });
    expect(byField(rows)).toEqual({
      Amount: "mismatch",
      Currency: "match",
      Customer: "match",
      "Intent key": "match",
      Status: "not_reported",
      Time: "match",
    });
    expect(rows[0]).toMatchObject({ asked: "$25.00", reported: "$30.00" });
  });

  it("compares an email by recipient digest and template, showing only the masked recipient", () => {
    const rows = compareCandidate(
      {
        ...charge,
        amountMinor: null,
        currency: null,
        recipient: "j***@example.com",
        template: "receipt",
        requestSummary: { recipient: "j***@example.com", recipient_digest: "d1", template: "receipt" },
        providerKind: "mailer",
      },
      {
        id: "msg_1",
        recipientDigest: "d2",
        recipientMasked: "j***@example.com",
        template: "receipt",
        intentKey: null,
        createdAt: new Date(at.getTime() + 3_600_000).toISOString(),
        status: "queued",
      },
    );
    expect(byField(rows)).toEqual({
      "Recipient (masked)": "mismatch",
      Template: "match",
      "Intent key": "not_reported",
      Status: "match",
      Time: "mismatch",
    });
    expect(JSON.stringify(rows)).not.toContain("d1");
  });

  it("reads recorded evidence defensively", () => {
    expect(parseEvidence(null)).toEqual({ query: null, reason: null, candidates: [] });
    const parsed = parseEvidence({
      query: "q",
      reason: "r",
      candidates: [{ id: "ch_1", createdAt: "x" }, { nope: 1 }],
    });
    expect(parsed.candidates).toHaveLength(1);
    expect(parsed.query).toBe("q");
  });
});
