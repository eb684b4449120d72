import { describe, expect, it } from "vitest";
import { canonicalJson, digest, sha256Hex } from "./digest";

describe("canonical JSON and digests", () => {
  it("sorts keys at every depth and drops insignificant whitespace", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: "x" } })).toBe(
      '{"a":{"c":"x","d":[3,{"y":2,"z":1}]},"b":1}',
    );
  });

  it("gives the same digest for the same payload in any key order", () => {
    const one = {
      amount: 1200,
      currency: "EUR",
      metadata: { intent_key: "invoice:inv_42:collect:v1", tenant: "acme" },
    };
    const two = {
      metadata: { tenant: "acme", intent_key: "invoice:inv_42:collect:v1" },
      currency: "EUR",
      amount: 1200,
    };
    expect(digest(one)).toBe(digest(two));
  });

  it("tells different payloads apart, including array order and types", () => {
    expect(digest({ a: [1, 2] })).not.toBe(digest({ a: [2, 1] }));
    expect(digest({ amount: 1200 })).not.toBe(digest({ amount: "1200" }));
    expect(digest({ amount: 1200 })).not.toBe(digest({ amount: 1201 }));
  });

  it("is sha256 of the canonical text", () => {
    expect(digest({ b: [1, 2], a: 1 })).toBe(sha256Hex('{"a":1,"b":[1,2]}'));
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  });

  it("drops undefined members, writes bigints and dates as strings, refuses NaN", () => {
    expect(canonicalJson({ a: undefined, b: 10n, c: new Date("2026-01-02T03:04:05.000Z") })).toBe(
      '{"b":"10","c":"2026-01-02T03:04:05.000Z"}',
    );
    expect(() => digest({ amount: Number.NaN })).toThrow(/non-finite/);
  });
});
