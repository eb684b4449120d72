import { describe, expect, it } from "vitest";
import { safeCallbackUrl } from "@/lib/auth/callback-url";

describe("the one function that decides where a person is sent back to", () => {
  it.each([
    ["/inbox", "/inbox"],
    [
      "/intents/acme-shop/invoice%3Ainv_42%3Acollect%3Av1",
      "/intents/acme-shop/invoice%3Ainv_42%3Acollect%3Av1",
    ],
    ["/inbox?tenant=acme-shop&q=inv#row", "/inbox?tenant=acme-shop&q=inv#row"],
    ["/audit/../inbox", "/inbox"],
  ])("keeps a path on this site: %s", (given, expected) => {
    expect(safeCallbackUrl(given)).toBe(expected);
  });

  it.each([
    ["tab", "/\t/evil.example/"],
    ["tab before the slashes", "\t//evil.example"],
    ["CR", "/\r/evil.example"],
    ["LF", "/\n/evil.example"],
    ["CR LF", "/\r\n/evil.example"],
    ["backslash", "/\\evil.example"],
    ["two backslashes", "\\\\evil.example"],
    ["slash and backslash", "/\\/evil.example"],
    ["scheme-relative", "//evil.example"],
    ["absolute", "https://evil.example/inbox"],
    ["javascript", "javascript:alert(1)"],
    ["data", "data:text/html,hi"],
    ["encoded slashes (as they arrive decoded once)", decodeURIComponent("%2F%2Fevil.example")],
    ["encoded tab", decodeURIComponent("%2F%09%2Fevil.example%2F")],
    ["double-encoded", "%2F%2Fevil.example"],
    ["double-encoded backslash", "%5C%5Cevil.example"],
    ["back to sign-in", "/login?callbackUrl=/login"],
    ["empty", ""],
    ["not a string", 42],
    ["too long", `/${"a".repeat(5000)}`],
  ])("sends %s home instead", (_name, given) => {
    const target = safeCallbackUrl(given);
    expect(target).toMatch(/^\/(?![/\\])/);
    expect(target).not.toMatch(/evil/);
    expect(new URL(target, "https://reckon.example").origin).toBe("https://reckon.example");
  });
});
