import { createSandboxServer, listen } from "@/tools/sandbox/server";
import { toolEnv } from "@/tools/env";
import { SandboxState } from "@/tools/sandbox/state";

// npm run sandbox — the sandbox provider as its own process.
//   SANDBOX_PORT             port to listen on (default 12111; 0 picks a free one)
//   SANDBOX_STATE_FILE       keep effects and keys across restarts (the demo does)
//   SANDBOX_KEY_RETENTION_MS how long idempotency keys are remembered (default 24 h)
//   SANDBOX_SEARCH_LAG_MS    how late charges show up in search (default 60 s)
const env = toolEnv();
const config = Object.fromEntries(
  Object.entries({
    keyRetentionMs: env.SANDBOX_KEY_RETENTION_MS,
    paymentsSearchLagMs: env.SANDBOX_SEARCH_LAG_MS,
    mailerSearchLagMs: env.SANDBOX_MAILER_SEARCH_LAG_MS,
  }).filter(([, v]) => v !== undefined),
);
const state = new SandboxState(config, env.SANDBOX_STATE_FILE ?? null);
const server = createSandboxServer(state);
const port = await listen(server, env.SANDBOX_PORT);
// One JSON line, so a parent process can read the port it got.
console.log(JSON.stringify({ sandbox: "listening", port, url: `http://127.0.0.1:${port}` }));

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    state.flush();
    server.close();
    process.exit(0);
  });
}
