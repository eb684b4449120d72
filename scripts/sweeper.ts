import { openDatabase, targetFrom } from "@/lib/db/connect";
import { getEnv } from "@/lib/env";
import { sweepExpiredLeases } from "@/lib/ledger/protocol";

// npm run sweeper — turns dispatched intents whose worker lost its lease into unknown
// (frozen until an operator resolves them). Runs every SWEEP_INTERVAL_MS (default 10 s);
// any number of sweepers may run at once, the compare-and-set keeps them apart.
const interval = Number(process.env.SWEEP_INTERVAL_MS ?? 10_000);
const database = openDatabase(targetFrom(getEnv()));
let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => (stopping = true));
while (!stopping) {
  const swept = await sweepExpiredLeases(database.prisma);
  if (swept.length > 0)
    console.log(JSON.stringify({ at: new Date().toISOString(), sweptToUnknown: swept.length }));
  await new Promise((resolve) => setTimeout(resolve, interval));
}
await database.close();
