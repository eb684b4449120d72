import { toolEnv } from "@/tools/env";
import { parseArgs } from "node:util";
import { describeTarget, openDatabase, targetFrom } from "@/lib/db/connect";
import { migrate } from "@/lib/db/migrate";
import { getEnv } from "@/lib/env";
import { buildSimulatedLedger } from "@/tools/simulator/ledger";

// npm run simulate -- --intents N --seed S --faults mixed|none
// Drives N workflow steps through the effect protocol against the sandbox at
// SANDBOX_URL (or one it starts itself). The last line printed is one JSON object.
const { values } = parseArgs({
  options: {
    intents: { type: "string", default: "2000" },
    seed: { type: "string", default: "1" },
    faults: { type: "string", default: "mixed" },
  },
});
const intents = Number(values.intents);
const seed = Number(values.seed);
if (
  !Number.isInteger(intents) ||
  intents < 1 ||
  !Number.isInteger(seed) ||
  !["mixed", "none"].includes(values.faults)
) {
  console.error("usage: npm run simulate -- --intents N --seed S --faults mixed|none");
  process.exit(2);
}

const database = openDatabase(targetFrom(getEnv()));
try {
  await migrate(database.runner);
  console.log(`Ledger: ${describeTarget(database.target)}`);
  const started = Date.now();
  const { summary, truth } = await buildSimulatedLedger(database.prisma, {
    intents,
    seed,
    faults: values.faults as "mixed" | "none",
    sandboxUrl: toolEnv().SANDBOX_URL ?? null,
    stateFile: toolEnv().SANDBOX_STATE_FILE ?? null,
    log: (line) => console.log(line),
  });
  console.log(`Faults injected: ${JSON.stringify(summary.faults)}`);
  console.log(`Took ${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.log(
    JSON.stringify({
      ...summary,
      faults: undefined,
      lookupsAgreeingWithProvider: `${truth.agreed}/${truth.checked}`,
    }),
  );
  if (summary.duplicateEffects > 0 || truth.agreed !== truth.checked) process.exitCode = 1;
} finally {
  await database.close();
}
