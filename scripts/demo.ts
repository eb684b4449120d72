import { spawn, spawnSync } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";
import { describeTarget, openDatabase, targetFrom } from "@/lib/db/connect";
import { migrate } from "@/lib/db/migrate";
import { getEnv } from "@/lib/env";
import { toolEnv } from "@/tools/env";
import { spawnSandbox } from "@/tools/sandbox/process";
import { DEMO_PASSWORD, DEMO_USERS } from "@/lib/seed/demo";
import { buildSimulatedLedger } from "@/tools/simulator/ledger";
import { reconcilerActor } from "@/lib/reconcile/actor";
import { reconcilerOwner } from "@/lib/reconcile/loop";
import { reconcileUntilIdle } from "@/lib/reconcile/reconcile";
import { enableDemoReconciler } from "@/lib/seed/reconciler";

// npm run demo — migrate the database (embedded unless DATABASE_URL is set), start the
// sandbox provider, build a ledger from simulated traffic against it on first run,
// let the reconciler settle what a lookup settles, then build and start the console
// (which keeps reconciling) and say where to sign in.
const env = getEnv();
const port = env.PORT;
const sandboxPort = toolEnv().SANDBOX_PORT;
const log = (line: string) => console.log(line);

// Say so at once if a port is taken (often by an earlier demo still running).
async function ensureFree(p: number, variable: string) {
  const free = await new Promise<boolean>((resolve) => {
    const probe = createServer().once("error", () => resolve(false));
    probe.listen(p, () => probe.close(() => resolve(true)));
  });
  if (!free) {
    console.error(
      `Port ${p} is in use (is another demo running?). Stop it, or set ${variable} to another port.`,
    );
    process.exit(1);
  }
}
await ensureFree(port, "PORT");
await ensureFree(sandboxPort, "SANDBOX_PORT");

// The provider's memory is kept beside the database, so unknown effects keep their
// true answer across restarts.
const stateFile = path.join(path.dirname(path.resolve(env.PGLITE_DIR)), "sandbox.json");
const sandbox = await spawnSandbox({ port: sandboxPort, stateFile });
log(`Sandbox provider: ${sandbox.url} (state in ${path.relative(process.cwd(), stateFile)})`);
const stopSandbox = () => void sandbox.stop();

const database = openDatabase(targetFrom(env));
try {
  log(`Database: ${describeTarget(database.target)}`);
  const migrated = await migrate(database.runner);
  log(`Migrations: ${migrated.applied.length} applied, ${migrated.alreadyApplied.length} already there`);
  if ((await database.prisma.effectIntent.count()) === 0) {
    const { summary } = await buildSimulatedLedger(database.prisma, {
      intents: 2000,
      seed: 1,
      faults: "mixed",
      history: true,
      sandboxUrl: sandbox.url,
      log,
    });
    log(
      `Ledger: ${summary.intents} intents, ${summary.unknown} unknown, ${summary.duplicateEffects} duplicate effects at the provider`,
    );
    // The reconciler settles what a lookup settles before anyone signs in; the console
    // keeps running it (below). What is left in the inbox needs a person's judgement.
    await enableDemoReconciler(database.prisma);
    log("Reconciler: looking up every unknown intent…");
    const counts = await reconcileUntilIdle({
      db: database.prisma,
      settings: {
        defaultBaseUrl: sandbox.url,
        stripeApiKey: env.STRIPE_API_KEY,
        timeoutMs: env.PROVIDER_TIMEOUT_MS,
      },
      actor: await reconcilerActor(database.prisma),
      owner: reconcilerOwner(),
      batch: env.RECONCILE_BATCH,
    });
    log(
      `Reconciler: ${counts.confirmed} confirmed, ${counts.redispatched} sent again with their own key, ${counts.escalated} handed to people, ${counts.retryLater} to look at again`,
    );
  } else {
    log("Ledger already present");
  }
} catch (error) {
  stopSandbox();
  throw error;
} finally {
  // PGlite allows one process on its folder: let go before the server opens it.
  await database.close();
}

log("Building the console (next build)…");
const build = spawnSync("npx", ["next", "build"], {
  stdio: "inherit",
  env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
});
if (build.status !== 0) {
  stopSandbox();
  process.exit(build.status ?? 1);
}

const server = spawn("npx", ["next", "start", "-p", String(port)], {
  stdio: ["ignore", "inherit", "inherit"],
  // The console runs the reconciler itself (the embedded database allows one process).
  env: {
    ...process.env,
    SANDBOX_URL: sandbox.url,
    NEXT_TELEMETRY_DISABLED: "1",
    RECONCILER_IN_CONSOLE: "1",
  },
});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    server.kill(signal);
    stopSandbox();
  });
}
server.on("exit", (code) => {
  stopSandbox();
  process.exit(code ?? 0);
});

const url = `http://localhost:${port}`;
for (let i = 0; i < 120; i++) {
  try {
    if ((await fetch(`${url}/api/health`)).ok) break;
  } catch {
    // not listening yet
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
}

log(`
Reckon is running at ${url}/login${env.embedded ? "  (demo, embedded database)" : ""}

Sign in with any of these (password: ${DEMO_PASSWORD}):
${DEMO_USERS.map((u) => `  ${u.email.padEnd(22)} ${u.roles.join(", ")}`).join("\n")}

Press Ctrl+C to stop.`);
