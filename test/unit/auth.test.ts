import { describe, expect, it } from "vitest";
import { safeCallbackUrl } from "@/lib/auth/callback-url";
import { FREE_ATTEMPTS, isLocked, lockUntilAfterFailure } from "@/lib/auth/lockout";
import { rolesConflict } from "@/lib/auth/authorize";
import { hashPassword, verifyPassword } from "@/lib/auth/password";
import { hasAnyRole, knownRoles } from "@/lib/auth/roles";
import { screensFor } from "@/lib/nav";

describe("password hashing", () => {
  it("verifies the right password and refuses others", async () => {
    const stored = await hashPassword("reckon-demo");
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(await verifyPassword("reckon-demo", stored)).toBe(true);
    expect(await verifyPassword("reckon-demo ", stored)).toBe(false);
    expect(await verifyPassword("Reckon-demo", stored)).toBe(false);
  });

  it("salts every hash", async () => {
    expect(await hashPassword("same")).not.toBe(await hashPassword("same"));
  });

  it("refuses malformed stored hashes instead of throwing", async () => {
    for (const bad of ["", "plain", "scrypt$x$y$z$a$b", "bcrypt$1$2$3$4$5"]) {
      expect(await verifyPassword("x", bad)).toBe(false);
    }
  });
});

describe("sign-in lockout", () => {
  const now = new Date("2026-11-29T10:00:00Z");
  it("allows the free attempts, then doubles the lock up to an hour", () => {
    expect(lockUntilAfterFailure(FREE_ATTEMPTS - 1, now)).toBeNull();
    const minutes = (n: number) => (lockUntilAfterFailure(n, now)!.getTime() - now.getTime()) / 60_000;
    expect([FREE_ATTEMPTS, FREE_ATTEMPTS + 1, FREE_ATTEMPTS + 2].map(minutes)).toEqual([1, 2, 4]);
    expect(minutes(FREE_ATTEMPTS + 30)).toBe(60);
  });

  it("is locked only until the time has passed", () => {
    expect(isLocked(null, now)).toBe(false);
    expect(isLocked(new Date(now.getTime() + 1), now)).toBe(true);
    expect(isLocked(now, now)).toBe(false);
  });
});

describe("roles and navigation", () => {
  it("drops unknown role names rather than granting them", () => {
    expect(knownRoles(["operator", "superuser", 3, "admin"])).toEqual(["operator", "admin"]);
  });

  it("grants on any matching role and never on none", () => {
    expect(hasAnyRole(["auditor"], ["operator", "auditor"])).toBe(true);
    expect(hasAnyRole([], ["operator"])).toBe(false);
  });

  it("lists only the screens a user's roles may open", () => {
    expect(screensFor(["operator"]).map((s) => s.label)).toEqual([
      "Overview",
      "Inbox",
      "Metrics",
      "Providers",
    ]);
    expect(screensFor(["approver"]).map((s) => s.label)).toEqual([
      "Overview",
      "Inbox",
      "Approvals",
      "Metrics",
      "Providers",
    ]);
    expect(screensFor(["auditor"]).map((s) => s.label)).toEqual([
      "Overview",
      "Inbox",
      "Audit log",
      "Metrics",
      "Providers",
    ]);
    expect(screensFor(["admin"]).map((s) => s.label)).toEqual([
      "Overview",
      "Metrics",
      "Providers",
      "Users",
      "Thresholds",
      "Reconciler",
    ]);
    expect(screensFor([])).toEqual([]);
  });
});

describe("sign-in callback URLs", () => {
  it("keeps same-site paths and refuses everything else", () => {
    expect(safeCallbackUrl("/providers?x=1")).toBe("/providers?x=1");
    for (const bad of [
      "https://evil.example",
      "//evil.example",
      "/\\evil.example",
      "javascript:alert(1)",
      undefined,
      "/login",
    ]) {
      expect(safeCallbackUrl(bad)).toBe("/");
    }
  });
});

describe("separation of duties when granting roles", () => {
  it("refuses admin with operator or approver, and says why", () => {
    expect(rolesConflict(["admin", "operator"])).toBe(
      "Admin cannot be combined with Operator: an admin may not resolve intents (separation of duties).",
    );
    expect(rolesConflict(["approver", "admin"])).toMatch(/^Admin cannot be combined with Approver: /);
    expect(rolesConflict(["admin", "operator", "approver"])).toMatch(/with Operator or Approver: .*, nor /);
  });

  it("allows every combination without admin, and admin with auditor", () => {
    for (const roles of [["operator", "approver", "auditor"], ["admin", "auditor"], ["admin"], []] as const)
      expect(rolesConflict(roles)).toBeNull();
  });
});
