import { openDatabase, targetFrom } from "@/lib/db/connect";
import { getEnv } from "@/lib/env";
import { sweepExpiredLeases } from "@/lib/ledger/dispatch";
import { consoleProviderSettings } from "@/lib/providers/settings";
import { closeStaleRequests } from "@/lib/resolution/approvals";
import { sendLeftOverCompensations } from "@/lib/resolution/compensation";

// npm run sweeper — turns dispatched intents whose worker lost its lease into unknown
// (frozen until an operator resolves them), closes approval requests past their window
// or whose intent changed, and sends compensations that were prepared but never sent.
// Runs every SWEEP_INTERVAL_MS (default 10 s); any number of sweepers may run at once,
// the compare-and-set keeps them apart.
const interval = getEnv().SWEEP_INTERVAL_MS;
const database = openDatabase(targetFrom(getEnv()));
let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => (stopping = true));
while (!stopping) {
  const now = new Date();
  const swept = await sweepExpiredLeases(database.prisma, now);
  const closed = await closeStaleRequests(database.prisma, now);
  const { sent, failed } = await sendLeftOverCompensations(
    database.prisma,
    consoleProviderSettings(),
    new Date(now.getTime() - 60_000),
  );
  for (const f of failed) console.error(`compensation ${f.intentId} not sent:`, f.error);
  if (swept.length + closed + sent > 0)
    console.log(
      JSON.stringify({
        at: now.toISOString(),
        sweptToUnknown: swept.length,
        requestsClosed: closed,
        compensationsSent: sent,
      }),
    );
  await new Promise((resolve) => setTimeout(resolve, interval));
}
await database.close();
