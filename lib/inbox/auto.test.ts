import { describe, expect, it } from "vitest";
import { autoWhere, isAutoReconciled } from "./auto";
import { filtersToQuery, parseInboxFilters } from "./query";

const now = new Date("2026-12-01T12:00:00Z");
const on = [{ tenantId: "acme-shop", providerId: "payments-sandbox" }];
const intent = {
  tenantId: "acme-shop",
  providerId: "payments-sandbox",
  needsOperator: false,
  claimedById: null,
  claimExpiresAt: null,
  reconciliation: { state: "active" },
};

describe("the inbox's auto filter", () => {
  it("hides by default and shows on request, and says so in the URL only when shown", () => {
    expect(parseInboxFilters({}).values.auto).toBe("hide");
    expect(parseInboxFilters({ auto: "show" }).values.auto).toBe("show");
    const bad = parseInboxFilters({ auto: "everything" });
    expect(bad.values.auto).toBe("hide");
    expect(bad.problems.map((p) => p.field)).toEqual(["auto"]);
    expect(filtersToQuery(parseInboxFilters({ tenant: "acme-shop" }).values)).toBe("tenant=acme-shop");
    expect(filtersToQuery(parseInboxFilters({ auto: "show" }).values)).toBe("auto=show");
  });

  it("hides nothing, and adds nothing to the query, when no policy is on", () => {
    expect(autoWhere([], now)).toBeNull();
    expect(isAutoReconciled(intent, [], now)).toBe(false);
  });

  it("counts an intent as the reconciler's only while its row is active under a policy that is on", () => {
    expect(isAutoReconciled(intent, on, now)).toBe(true);
    expect(isAutoReconciled({ ...intent, reconciliation: { state: "escalated" } }, on, now)).toBe(false);
    expect(isAutoReconciled({ ...intent, reconciliation: null }, on, now)).toBe(false);
    expect(isAutoReconciled({ ...intent, tenantId: "globex-travel" }, on, now)).toBe(false);
  });

  it("leaves an intent to people once a person escalated or claimed it", () => {
    expect(isAutoReconciled({ ...intent, needsOperator: true }, on, now)).toBe(false);
    const claimed = { ...intent, claimedById: "u1", claimExpiresAt: new Date(now.getTime() + 60_000) };
    expect(isAutoReconciled(claimed, on, now)).toBe(false);
    expect(isAutoReconciled({ ...claimed, claimExpiresAt: new Date(now.getTime() - 1) }, on, now)).toBe(true);
  });
});
