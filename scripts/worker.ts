import { openDatabase, targetFrom } from "@/lib/db/connect";
import { getEnv } from "@/lib/env";
import { workerDeps } from "@/tools/worker/deps";
import { runEffect } from "@/lib/effects/run-effect";
import type { EffectJob } from "@/lib/effects/types";
import { toolEnv } from "@/tools/env";

// A worker process running one effect job (JSON in argv[2]) through the protocol.
//   SANDBOX_URL        the provider (default http://127.0.0.1:12111)
//   WORKER_ID          lease owner name (default worker-<pid>)
//   CRASH_AT           one of before_dispatch, after_dispatch, after_response, during_receipt:
//                      the process kills itself with SIGKILL there, as a lost machine would die
//   LEASE_MS, CLIENT_TIMEOUT_MS
const job = JSON.parse(process.argv[2] ?? "null") as EffectJob | null;
if (!job) {
  console.error("usage: tsx scripts/worker.ts '<job json>'");
  process.exit(2);
}
const tools = toolEnv();
const crashAt = tools.CRASH_AT;

const database = openDatabase(targetFrom(getEnv()));
const deps = workerDeps({
  db: database.prisma,
  sandboxUrl: tools.SANDBOX_URL ?? `http://127.0.0.1:${tools.SANDBOX_PORT}`,
  workerId: tools.WORKER_ID ?? `worker-${process.pid}`,
  leaseMs: tools.LEASE_MS,
  clientTimeoutMs: tools.CLIENT_TIMEOUT_MS,
  crash: (point) => {
    if (point === crashAt) {
      console.log(JSON.stringify({ crashed: point }));
      process.kill(process.pid, "SIGKILL");
    }
  },
});
try {
  console.log(JSON.stringify(await runEffect(deps, job)));
} finally {
  await database.close();
}
