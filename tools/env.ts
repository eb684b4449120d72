import { z } from "zod";
import { CRASH_POINTS } from "../lib/effects/crash-points";

// Every environment read of the development tooling — the sandbox provider, the
// simulator, the worker harness, the benchmark, the tests and the e2e harness — happens
// here, once, validated (the product's own settings are lib/env.ts).
const port = (fallback: number) => z.coerce.number().int().min(0).max(65_535).default(fallback);
const optionalNumber = z.preprocess(
  (v) => (v === "" ? undefined : v),
  z.coerce.number().nonnegative().optional(),
);
const optionalText = z.preprocess((v) => (v === "" ? undefined : v), z.string().optional());

const schema = z.object({
  // The sandbox provider (npm run sandbox).
  SANDBOX_PORT: port(12111),
  SANDBOX_URL: optionalText.pipe(z.url().optional()),
  SANDBOX_STATE_FILE: optionalText,
  SANDBOX_KEY_RETENTION_MS: optionalNumber,
  SANDBOX_SEARCH_LAG_MS: optionalNumber,
  SANDBOX_MAILER_SEARCH_LAG_MS: optionalNumber,
  // One worker process (npm run worker): the ugly-path tests kill it at CRASH_AT.
  WORKER_ID: optionalText,
  CRASH_AT: z.preprocess((v) => (v === "" ? undefined : v), z.enum(CRASH_POINTS).optional()),
  LEASE_MS: z.coerce.number().int().min(1).default(30_000),
  CLIENT_TIMEOUT_MS: z.coerce.number().int().min(1).default(2_000),
  // The benchmark (npm run bench).
  BENCH_ROWS: z.coerce.number().int().min(1_000).default(1_000_000),
  BENCH_REUSE: z.enum(["0", "1"]).default("0"),
  BENCH_KEEP: optionalText,
  // Tests.
  TEST_DATABASE_URL: z.url().default("postgresql://postgres@127.0.0.1:5432/postgres"),
  CONCURRENCY_RUNS: z.coerce.number().int().min(1).default(8),
  PROPERTY_RUNS: z.coerce.number().int().min(1).default(25),
  PROPERTY_SEED: z.coerce.number().int().default(20261130),
  FUZZ_RUNS: z.coerce.number().int().min(1).default(40),
  // The e2e harness.
  E2E_PORT: port(3100),
  E2E_SANDBOX_PORT: port(12399),
  E2E_OIDC_PORT: port(12398),
  E2E_DATABASE: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/)
    .default("reckon_e2e"),
  CHROMIUM_PATH: z.string().default("/usr/bin/chromium"),
  CI: optionalText,
});

export type ToolEnv = z.infer<typeof schema>;

let cached: ToolEnv | undefined;

export function toolEnv(): ToolEnv {
  if (cached) return cached;
  const parsed = schema.safeParse(process.env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid tooling configuration:\n${lines.join("\n")}`);
  }
  cached = parsed.data;
  return cached;
}
