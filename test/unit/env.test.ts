import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env";

const secret = "s".repeat(40);

describe("configuration", () => {
  it("runs on the embedded database with a generated, persisted session secret when DATABASE_URL is unset", () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), "reckon-env-")), "pglite");
    const env = parseEnv({ PGLITE_DIR: dir });
    expect(env.embedded).toBe(true);
    expect(env.sessionSecret).toMatch(/^[0-9a-f]{64}$/);
    const file = path.join(path.dirname(dir), "session-secret");
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, "utf8")).toBe(env.sessionSecret);
    expect(parseEnv({ PGLITE_DIR: dir }).sessionSecret).toBe(env.sessionSecret);
  });

  it("requires NEXTAUTH_SECRET outside the demo", () => {
    expect(() => parseEnv({ DATABASE_URL: "postgresql://db/reckon" }).sessionSecret).toThrow(
      /NEXTAUTH_SECRET is required/,
    );
    expect(() => parseEnv({ DATABASE_URL: "postgresql://db/reckon", NEXTAUTH_SECRET: "short" })).toThrow(
      /at least 32/,
    );
    const env = parseEnv({ DATABASE_URL: "postgresql://db/reckon", NEXTAUTH_SECRET: secret });
    expect(env).toMatchObject({ embedded: false, sessionSecret: secret, oidc: null });
  });

  it("refuses a DATABASE_URL that is not PostgreSQL", () => {
    expect(() => parseEnv({ DATABASE_URL: "mysql://db/reckon", NEXTAUTH_SECRET: secret })).toThrow(
      /DATABASE_URL/,
    );
  });

  it("enables SSO only with issuer, client id and secret together", () => {
    const base = { DATABASE_URL: "postgresql://db/reckon", NEXTAUTH_SECRET: secret };
    expect(() => parseEnv({ ...base, OIDC_ISSUER: "https://idp.example" })).toThrow(/SSO needs all of/);
    const env = parseEnv({
      ...base,
      OIDC_ISSUER: "https://idp.example",
      OIDC_CLIENT_ID: "reckon",
      OIDC_CLIENT_SECRET: "x",
      OIDC_NAME: "Okta",
    });
    expect(env.oidc).toEqual({
      issuer: "https://idp.example",
      clientId: "reckon",
      clientSecret: "x",
      name: "Okta",
    });
  });
});
