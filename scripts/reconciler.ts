import { parseArgs } from "node:util";
import { openDatabase, targetFrom } from "@/lib/db/connect";
import { getEnv } from "@/lib/env";
import { consoleProviderSettings } from "@/lib/providers/settings";
import { reconcilerActor } from "@/lib/reconcile/actor";
import { reconcilerOwner, startReconcilerLoop } from "@/lib/reconcile/loop";
import { reconcileUntilIdle } from "@/lib/reconcile/reconcile";

// npm run reconciler — looks up unknown intents (and dispatched ones whose lease ran out)
// in order of their provider deadline and settles what the evidence settles, under the
// policy admins set per tenant and provider; the rest goes to people with the reason.
// Any number may run side by side on PostgreSQL (the queue hands each intent to one).
// `-- --once`: one pass over what is due, then exit; the last line is the pass as JSON.
const { values } = parseArgs({ options: { once: { type: "boolean", default: false } } });
const env = getEnv();
const database = openDatabase(targetFrom(env));
const settings = consoleProviderSettings();

if (values.once) {
  const actor = await reconcilerActor(database.prisma);
  const counts = await reconcileUntilIdle({
    db: database.prisma,
    settings,
    actor,
    owner: reconcilerOwner(),
    batch: env.RECONCILE_BATCH,
    leaseMs: env.RECONCILE_LEASE_MS,
  });
  await database.close();
  const { dryRun, ...rest } = counts;
  console.log(JSON.stringify({ ...rest, dryRun }));
} else {
  const loop = startReconcilerLoop({
    db: database.prisma,
    settings,
    intervalMs: env.RECONCILE_INTERVAL_MS,
    batch: env.RECONCILE_BATCH,
    leaseMs: env.RECONCILE_LEASE_MS,
    onPass: (counts) => console.log(JSON.stringify({ at: new Date().toISOString(), ...counts })),
  });
  console.log(`Reconciler ${reconcilerOwner()} running every ${env.RECONCILE_INTERVAL_MS} ms`);
  for (const signal of ["SIGINT", "SIGTERM"] as const)
    process.on(signal, () => void loop.stop().then(() => database.close()));
}
