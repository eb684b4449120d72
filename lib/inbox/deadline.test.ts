import { describe, expect, it } from "vitest";
import { actBeforeText, keyExpiresSoon } from "./deadline";

const now = Date.parse("2026-12-01T12:00:00.000Z");

describe("act before", () => {
  it("says how long is left, or how long ago it passed", () => {
    expect(actBeforeText("2026-12-01T15:00:00.000Z", now)).toBe("in 3 h");
    expect(actBeforeText("2026-11-29T12:00:00.000Z", now)).toBe("passed 2 d ago");
    expect(actBeforeText(null, now)).toBe("no key deadline");
  });
  it("flags a key the provider forgets within two hours, and no other", () => {
    expect(keyExpiresSoon("2026-12-01T13:59:00.000Z", now)).toBe(true);
    expect(keyExpiresSoon("2026-12-01T14:01:00.000Z", now)).toBe(false);
    expect(keyExpiresSoon("2026-12-01T11:59:00.000Z", now)).toBe(false);
    expect(keyExpiresSoon(null, now)).toBe(false);
  });
});
