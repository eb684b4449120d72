import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

// Every process.env read in Reckon happens here, once.
const schema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
    PGLITE_DIR: z.string().min(1).default(".data/pglite"),
    NEXTAUTH_SECRET: z.string().min(32, "NEXTAUTH_SECRET must be at least 32 characters").optional(),
    // The console's public URL; https here turns on Secure cookies, HSTS and upgrade-insecure-requests.
    NEXTAUTH_URL: z.url({ protocol: /^https?$/ }).optional(),
    // Reverse proxies in front of Reckon that append the client's address to X-Forwarded-For.
    TRUSTED_PROXIES: z.coerce.number().int().min(0).max(10).default(0),
    SESSION_MAX_AGE_SECONDS: z.coerce
      .number()
      .int()
      .min(60)
      .max(7 * 24 * 3600)
      .default(8 * 3600),
    OIDC_ISSUER: z.url().optional(),
    OIDC_CLIENT_ID: z.string().min(1).optional(),
    OIDC_CLIENT_SECRET: z.string().min(1).optional(),
    OIDC_NAME: z.string().min(1).default("SSO"),
    SANDBOX_URL: z.url().default("http://127.0.0.1:12111"),
    STRIPE_API_KEY: z.string().min(1).default("sk_test_sandbox"),
    METRICS_TOKEN: z.string().min(16, "METRICS_TOKEN must be at least 16 characters").optional(),
    // Seals every audit event (HMAC). Kept outside the database, like the checkpoint key.
    AUDIT_CHAIN_KEY: z.string().min(32, "AUDIT_CHAIN_KEY must be at least 32 characters").optional(),
    // Where signed checkpoints of the audit chain are written, and how often.
    AUDIT_CHECKPOINT_DIR: z.string().min(1).optional(),
    AUDIT_CHECKPOINT_INTERVAL_SECONDS: z.coerce.number().int().min(5).max(86_400).default(60),
    AUDIT_CHECKPOINT_KEY: z
      .string()
      .min(32, "AUDIT_CHECKPOINT_KEY must be at least 32 characters")
      .optional(),
    // npm run demo: the console's port; npm run sweeper: how often it runs.
    PORT: z.coerce.number().int().min(1).max(65_535).default(3000),
    SWEEP_INTERVAL_MS: z.coerce.number().int().min(100).default(10_000),
    // npm run reconciler: the pause between passes, and how many intents one pass leases.
    RECONCILE_INTERVAL_MS: z.coerce.number().int().min(100).default(5_000),
    RECONCILE_BATCH: z.coerce.number().int().min(1).max(1_000).default(50),
    // How long a reconciler holds what it picked (and a redispatched intent's lease).
    RECONCILE_LEASE_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(120_000),
    // The console runs a reconciler itself (npm run demo: the embedded database allows one process).
    RECONCILER_IN_CONSOLE: z.enum(["0", "1"]).default("0"),
    PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
  })
  .superRefine((e, ctx) => {
    const oidc = [e.OIDC_ISSUER, e.OIDC_CLIENT_ID, e.OIDC_CLIENT_SECRET].filter(Boolean).length;
    if (oidc !== 0 && oidc !== 3) {
      ctx.addIssue({
        code: "custom",
        path: ["OIDC_ISSUER"],
        message: "SSO needs all of OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET",
      });
    }
  });

export type Env = z.infer<typeof schema> & {
  /** true when running on the embedded PGlite database (the demo). */
  embedded: boolean;
  sessionSecret: string;
  /** Signs exported audit checkpoints. */
  checkpointKey: string;
  /** Seals each audit event. */
  auditChainKey: string;
  /** Where automatic checkpoints go (outside the database). */
  checkpointDir: string;
  /** Served over https (NEXTAUTH_URL): Secure cookies, HSTS. */
  https: boolean;
  oidc: { issuer: string; clientId: string; clientSecret: string; name: string } | null;
};

export function parseEnv(source: Record<string, string | undefined>): Env {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = result.data;
  const embedded = !e.DATABASE_URL;
  let secret = e.NEXTAUTH_SECRET;
  return {
    ...e,
    embedded,
    https: e.NEXTAUTH_URL?.startsWith("https:") ?? false,
    // Read when sessions are first signed, so workers and scripts need no secret.
    get sessionSecret() {
      if (secret) return secret;
      if (!embedded) {
        throw new Error(
          "Invalid configuration:\n  NEXTAUTH_SECRET: NEXTAUTH_SECRET is required when DATABASE_URL is set (only the embedded demo may run without it)",
        );
      }
      secret = demoSecret(e.PGLITE_DIR);
      return secret;
    },
    get auditChainKey() {
      if (e.AUDIT_CHAIN_KEY) return e.AUDIT_CHAIN_KEY;
      if (!embedded) {
        throw new Error(
          "Invalid configuration:\n  AUDIT_CHAIN_KEY: required when DATABASE_URL is set (only the embedded demo may run without it)",
        );
      }
      return demoSecret(e.PGLITE_DIR, "audit-chain-key");
    },
    checkpointDir:
      e.AUDIT_CHECKPOINT_DIR ?? path.join(path.dirname(path.resolve(e.PGLITE_DIR)), "audit-checkpoints"),
    get checkpointKey() {
      if (e.AUDIT_CHECKPOINT_KEY) return e.AUDIT_CHECKPOINT_KEY;
      if (!embedded) {
        throw new Error(
          "Invalid configuration:\n  AUDIT_CHECKPOINT_KEY: required when DATABASE_URL is set (only the embedded demo may run without it)",
        );
      }
      return demoSecret(e.PGLITE_DIR, "audit-checkpoint-key");
    },
    oidc:
      e.OIDC_ISSUER && e.OIDC_CLIENT_ID && e.OIDC_CLIENT_SECRET
        ? {
            issuer: e.OIDC_ISSUER,
            clientId: e.OIDC_CLIENT_ID,
            clientSecret: e.OIDC_CLIENT_SECRET,
            name: e.OIDC_NAME,
          }
        : null,
  };
}

// The embedded demo signs sessions with a random secret kept beside its data,
// so a restart keeps people signed in and no secret is ever committed.
function demoSecret(pgliteDir: string, name = "session-secret"): string {
  const file = path.join(/*turbopackIgnore: true*/ path.dirname(path.resolve(pgliteDir)), name);
  if (existsSync(/*turbopackIgnore: true*/ file))
    return readFileSync(/*turbopackIgnore: true*/ file, "utf8").trim();
  mkdirSync(/*turbopackIgnore: true*/ path.dirname(file), { recursive: true });
  const secret = randomBytes(32).toString("hex");
  writeFileSync(/*turbopackIgnore: true*/ file, secret, { mode: 0o600 });
  return secret;
}

let cached: Env | undefined;

export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}
