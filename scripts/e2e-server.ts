import { toolEnv } from "@/tools/env";
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase } from "@/lib/db/connect";
import { migrate } from "@/lib/db/migrate";
import { spawnSandbox } from "@/tools/sandbox/process";
import { buildSimulatedLedger } from "@/tools/simulator/ledger";
import { runScenario } from "@/tools/simulator/scenarios";
import { createDatabase } from "@/test/support/postgres";
import { startOidcProvider } from "../e2e/oidc-provider";
import { E2E_DATABASE, E2E_OIDC_PORT, E2E_SANDBOX_PORT, SCENARIOS } from "../e2e/scenarios";

// Playwright's web server: a fresh PostgreSQL database, a sandbox provider process,
// a ledger from simulated traffic, behind `next start` (the production build).
const port = String(toolEnv().E2E_PORT);
const url = await createDatabase(E2E_DATABASE);
// The ledger below is built (and audited) with the same chain key the server then uses.
const chainKey = "e2e-audit-chain-key-e2e-audit-chain-key";
process.env.AUDIT_CHAIN_KEY = chainKey;
const sandbox = await spawnSandbox({ port: E2E_SANDBOX_PORT });
const oidc = await startOidcProvider({
  port: E2E_OIDC_PORT,
  consoleUrl: `http://127.0.0.1:${port}`,
  clientId: "reckon-e2e",
  clientSecret: "reckon-e2e-oidc-client-secret",
});
const database = openDatabase({ kind: "postgres", url });
await migrate(database.runner);
await buildSimulatedLedger(database.prisma, {
  intents: 600,
  seed: 7,
  faults: "mixed",
  sandboxUrl: sandbox.url,
});
for (const { job, scenario } of Object.values(SCENARIOS))
  await runScenario(database.prisma, sandbox.url, job, scenario);
await database.close();

const server = spawn("npx", ["next", "start", "-p", port], {
  stdio: "inherit",
  env: {
    ...process.env,
    DATABASE_URL: url,
    SANDBOX_URL: sandbox.url,
    NEXTAUTH_SECRET: "e2e-secret-e2e-secret-e2e-secret-e2e",
    AUDIT_CHECKPOINT_KEY: "e2e-checkpoint-key-e2e-checkpoint-key",
    AUDIT_CHAIN_KEY: chainKey,
    AUDIT_CHECKPOINT_DIR: mkdtempSync(path.join(tmpdir(), "reckon-e2e-checkpoints-")),
    METRICS_TOKEN: "e2e-metrics-token-123",
    NEXTAUTH_URL: `http://127.0.0.1:${port}`,
    OIDC_ISSUER: oidc.issuer,
    OIDC_CLIENT_ID: "reckon-e2e",
    OIDC_CLIENT_SECRET: "reckon-e2e-oidc-client-secret",
    OIDC_NAME: "Test IdP",
    NEXT_TELEMETRY_DISABLED: "1",
  },
});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    server.kill(signal);
    void sandbox.stop();
    void oidc.stop();
  });
}
server.on("exit", (code) => {
  void sandbox.stop().then(() => process.exit(code ?? 0));
});
