import { describe, expect, it } from "vitest";
import { formatAmount, majorAmountText, minorDigits, parseMajorAmount } from "./format";

describe("amounts in major units", () => {
  it("knows each currency's minor unit", () => {
    expect([minorDigits("USD"), minorDigits("EUR"), minorDigits("GBP"), minorDigits("JPY")]).toEqual([
      2, 2, 2, 0,
    ]);
  });

  it("reads what people type, exactly, with or without thousands separators", () => {
    const minor = (text: string, currency: string) => {
      const parsed = parseMajorAmount(text, currency);
      return parsed.ok ? parsed.minor : parsed.message;
    };
    expect(minor("1,000.00", "USD")).toBe(100_000n);
    expect(minor("1000", "EUR")).toBe(100_000n);
    expect(minor(" 0.05 ", "GBP")).toBe(5n);
    expect(minor("12.5", "USD")).toBe(1_250n);
    expect(minor("150000", "JPY")).toBe(150_000n);
    expect(minor("150,000", "JPY")).toBe(150_000n);
    expect(minor("0", "USD")).toBe(0n);
    // 0.1 + 0.2 style float error cannot happen: no floating point.
    expect(minor("9007199254740.99", "USD")).toBe(900_719_925_474_099n);
  });

  it("refuses what is not an amount in the currency", () => {
    for (const [text, currency, message] of [
      ["150000.5", "JPY", /whole JPY/],
      ["10.001", "USD", /at most 2 decimals/],
      ["1,00.00", "USD", /an amount in USD/],
      ["-5", "USD", /an amount/],
      ["1e3", "USD", /an amount/],
      ["", "USD", /an amount/],
      ["1".repeat(16), "JPY", /too large/],
    ] as const) {
      const parsed = parseMajorAmount(text, currency);
      expect(parsed.ok, text).toBe(false);
      if (!parsed.ok) expect(parsed.message, text).toMatch(message);
    }
  });

  it("writes minor units back as people type them, and round-trips", () => {
    expect(majorAmountText(100_000n, "USD")).toBe("1000.00");
    expect(majorAmountText("5", "EUR")).toBe("0.05");
    expect(majorAmountText(150_000n, "JPY")).toBe("150000");
    for (const [minor, currency] of [
      [0n, "USD"],
      [7n, "GBP"],
      [123_456_789n, "EUR"],
      [42n, "JPY"],
    ] as const) {
      const parsed = parseMajorAmount(majorAmountText(minor, currency), currency);
      expect(parsed).toEqual({ ok: true, minor });
    }
    expect(formatAmount(150_000n, "JPY")).toBe("¥150,000");
    expect(formatAmount(100_000n, "USD")).toBe("$1,000.00");
  });
});
