import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, securityHeaders } from "@/lib/http/security-headers";

describe("security headers", () => {
  it("allows scripts only with the nonce, never inline or from elsewhere", () => {
    const csp = contentSecurityPolicy("abc123", { https: false, dev: false });
    expect(csp).toContain("script-src 'self' 'nonce-abc123' 'strict-dynamic'");
    expect(csp).not.toContain("unsafe-inline'; script");
    expect(csp).not.toContain("unsafe-eval");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain("upgrade-insecure-requests");
  });

  it("adds HSTS and upgrades requests only over https", () => {
    expect(securityHeaders({ https: false })["strict-transport-security"]).toBeUndefined();
    expect(securityHeaders({ https: true })["strict-transport-security"]).toMatch(/max-age=\d{8}/);
    expect(contentSecurityPolicy("n", { https: true, dev: false })).toContain("upgrade-insecure-requests");
  });

  it("lets a sign-in form go to the SSO provider and nowhere else", () => {
    expect(
      contentSecurityPolicy("n", { https: true, dev: false, formTargets: ["https://id.example"] }),
    ).toContain("form-action 'self' https://id.example");
  });
});
