import { toolEnv } from "@/tools/env";
import path from "node:path";
import { describeTarget, openDatabase, targetFrom } from "@/lib/db/connect";
import { migrate } from "@/lib/db/migrate";
import { getEnv } from "@/lib/env";
import { buildSimulatedLedger } from "@/tools/simulator/ledger";

// npm run db:seed — demo users, tenants, providers, and a ledger built from simulated
// traffic against the sandbox provider (SANDBOX_URL, or one started here that keeps its
// state in .data/sandbox.json), into whatever DATABASE_URL points at.
const env = getEnv();
const database = openDatabase(targetFrom(env));
try {
  await migrate(database.runner);
  if ((await database.prisma.effectIntent.count()) > 0) {
    console.log(
      `${describeTarget(database.target)} already has a ledger; nothing seeded (history is never deleted).`,
    );
  } else {
    const { summary } = await buildSimulatedLedger(database.prisma, {
      intents: 2000,
      seed: 1,
      faults: "mixed",
      history: true,
      sandboxUrl: toolEnv().SANDBOX_URL ?? null,
      stateFile: path.join(path.dirname(path.resolve(env.PGLITE_DIR)), "sandbox.json"),
      log: (line) => console.log(line),
    });
    console.log(
      `Seeded ${describeTarget(database.target)}: ${JSON.stringify({ ...summary, faults: undefined })}`,
    );
  }
} finally {
  await database.close();
}
