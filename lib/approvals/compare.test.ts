import { describe, expect, it } from "vitest";
import { citedCandidate, compareFields } from "./compare";

const intent = {
  intentKey: "invoice:inv_1:collect:v1",
  amountMinor: 250_000n,
  currency: "USD",
  recipient: null,
  template: null,
  requestSummary: { customer: "cus_1", amount_minor: "250000" },
};

describe("compareFields", () => {
  it("marks each field the provider states as a match or a mismatch", () => {
    const rows = compareFields(intent, {
      id: "ch_1",
      amountMinor: 250_500,
      currency: "usd",
      customer: "cus_1",
      intentKey: "invoice:inv_1:collect:v1",
    });
    expect(rows.map((r) => [r.field, r.mark])).toEqual([
      ["Amount", "mismatch"],
      ["Currency", "match"],
      ["Customer", "match"],
      ["Intent key", "match"],
    ]);
    expect(rows[0]).toMatchObject({ asked: "$2,500.00", said: "$2,505.00" });
  });

  it("never calls a field the provider did not state a match", () => {
    expect(compareFields(intent, null).every((r) => r.mark === "missing")).toBe(true);
  });

  it("compares a masked recipient and template for an email", () => {
    const rows = compareFields(
      {
        ...intent,
        amountMinor: null,
        currency: null,
        recipient: "i***@x.test",
        template: "welcome",
        requestSummary: {},
      },
      { recipientMasked: "i***@x.test", template: "receipt" },
    );
    expect(rows.map((r) => [r.field, r.mark])).toEqual([
      ["Recipient", "match"],
      ["Template", "mismatch"],
      ["Intent key", "missing"],
    ]);
  });
});

describe("citedCandidate", () => {
  it("takes the candidate the lookup settled on, else the only one", () => {
    const evidence = { candidates: [{ id: "ch_1" }, { id: "ch_2" }] };
    expect(citedCandidate(evidence, "ch_2")).toEqual({ id: "ch_2" });
    expect(citedCandidate(evidence, null)).toBeNull();
    expect(citedCandidate({ candidates: [{ id: "ch_9" }] }, null)).toEqual({ id: "ch_9" });
    expect(citedCandidate("garbage", null)).toBeNull();
  });
});
