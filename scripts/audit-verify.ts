import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import {
  checkAgainstCheckpoint,
  makeCheckpoint,
  verifyAuditChain,
  type Checkpoint,
} from "@/lib/audit/verify";
import { describeTarget, openDatabase, targetFrom } from "@/lib/db/connect";
import { getEnv } from "@/lib/env";

// npm run audit:verify [-- --checkpoint saved.json] [--export-checkpoint out.json]
// Walks the audit chain and names the first event that was altered, removed,
// reordered or inserted; against a saved checkpoint it also detects a cut tail.
// Exits 1 on any break.
const { values } = parseArgs({
  options: { checkpoint: { type: "string" }, "export-checkpoint": { type: "string" } },
});
const env = getEnv();
const database = openDatabase(targetFrom(env));
try {
  console.log(`Verifying the audit chain on ${describeTarget(database.target)}…`);
  const report = await verifyAuditChain(database.prisma, (n) => {
    if (n % 10_000 === 0) console.log(`  ${n} events checked`);
  });
  if (!report.ok) {
    console.error(`BROKEN at event #${report.firstBreak!.seq}: ${report.firstBreak!.message}`);
    console.error(`(${report.count} events before it verified)`);
    process.exitCode = 1;
  } else {
    console.log(`OK: ${report.count} events, head #${report.head?.seq ?? "-"} ${report.head?.hash ?? ""}`);
  }
  if (values.checkpoint) {
    const saved = JSON.parse(readFileSync(values.checkpoint, "utf8")) as Checkpoint;
    const verdict = await checkAgainstCheckpoint(database.prisma, saved, env.checkpointKey, report);
    if (verdict.ok)
      console.log(`OK against the checkpoint of ${saved.at} (${saved.count} events, head #${saved.headSeq})`);
    else {
      console.error(`BROKEN against the checkpoint of ${saved.at}: ${verdict.message}`);
      process.exitCode = 1;
    }
  }
  if (values["export-checkpoint"] && report.ok) {
    writeFileSync(
      values["export-checkpoint"],
      JSON.stringify(makeCheckpoint(report, env.checkpointKey), null, 2),
    );
    console.log(`Checkpoint written to ${values["export-checkpoint"]}`);
  }
} finally {
  await database.close();
}
