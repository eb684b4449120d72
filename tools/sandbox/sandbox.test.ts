import { describe, expect, it } from "vitest";
import { parseStripeForm } from "./form";
import { matchesClauses, parseSearchQuery, SearchQueryError } from "./search-query";

describe("Stripe form encoding", () => {
  it("parses nested objects and arrays", () => {
    const body =
      "amount=1200&currency=usd&metadata%5Bintent_key%5D=invoice%3A1&expand%5B%5D=customer&expand%5B%5D=balance&a%5Bb%5D%5Bc%5D=z";
    expect(parseStripeForm(body)).toEqual({
      amount: "1200",
      currency: "usd",
      metadata: { intent_key: "invoice:1" },
      expand: ["customer", "balance"],
      a: { b: { c: "z" } },
    });
  });

  it("never reaches Object.prototype, whatever the keys", () => {
    const parsed = parseStripeForm(
      "metadata%5B__proto__%5D%5Bpolluted%5D=yes&__proto__%5Bx%5D=1&constructor%5Bprototype%5D%5By%5D=2",
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(({} as Record<string, unknown>).y).toBeUndefined();
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
  });
});

describe("search query language subset", () => {
  const charge = {
    amount: 1200,
    currency: "usd",
    customer: "cus_1",
    created: 1_700_000_000,
    metadata: { intent_key: "k'1" },
  };

  it("matches metadata, exact fields and ranges joined by AND", () => {
    const clauses = parseSearchQuery(
      "metadata['intent_key']:'k\\'1' AND amount:1200 AND customer:'cus_1' AND created>=1700000000",
    );
    expect(matchesClauses(charge, clauses)).toBe(true);
    expect(matchesClauses({ ...charge, amount: 1300 }, clauses)).toBe(false);
    expect(matchesClauses({ ...charge, created: 1 }, clauses)).toBe(false);
    expect(matchesClauses({ ...charge, metadata: {} }, clauses)).toBe(false);
  });

  it("refuses what it cannot parse instead of matching everything", () => {
    expect(() => parseSearchQuery("")).toThrow(SearchQueryError);
    expect(() => parseSearchQuery("amount ~ 12")).toThrow(SearchQueryError);
    expect(() => parseSearchQuery("amount:1200 OR amount:1300")).toThrow(SearchQueryError);
  });
});
