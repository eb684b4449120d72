import { openDatabase, targetFrom } from "@/lib/db/connect";
import { getEnv } from "@/lib/env";
import { workerDeps } from "@/lib/worker/deps";
import { CRASH_POINTS, runEffect, type CrashPoint, type EffectJob } from "@/lib/worker/run-effect";

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
const crashAt = process.env.CRASH_AT as CrashPoint | undefined;
if (crashAt && !CRASH_POINTS.includes(crashAt)) {
  console.error(`CRASH_AT must be one of ${CRASH_POINTS.join(", ")}`);
  process.exit(2);
}

const database = openDatabase(targetFrom(getEnv()));
const deps = workerDeps({
  db: database.prisma,
  sandboxUrl: process.env.SANDBOX_URL ?? "http://127.0.0.1:12111",
  workerId: process.env.WORKER_ID ?? `worker-${process.pid}`,
  leaseMs: Number(process.env.LEASE_MS ?? 30_000),
  clientTimeoutMs: Number(process.env.CLIENT_TIMEOUT_MS ?? 2_000),
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
