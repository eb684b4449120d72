import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { againstLatestCheckpoint, writeCheckpoint } from "@/lib/audit/checkpoints";
import {
  checkAgainstCheckpoint,
  makeCheckpoint,
  verifyAuditChain,
  type Checkpoint,
} from "@/lib/audit/verify";
import { describeTarget, openDatabase, targetFrom } from "@/lib/db/connect";
import { getEnv } from "@/lib/env";

// npm run audit:verify [-- --checkpoint saved.json] [--export-checkpoint out.json] [--write-checkpoint]
// Walks the audit chain and names the first event that was altered, re-sealed without
// the key, removed, reordered or inserted; reports it against the newest checkpoint in
// the sink (AUDIT_CHECKPOINT_DIR) and, if given, a saved one, which detect a cut tail.
// --write-checkpoint adds a checkpoint to the sink. Exits 1 on any break.
const { values } = parseArgs({
  options: {
    checkpoint: { type: "string" },
    "export-checkpoint": { type: "string" },
    "write-checkpoint": { type: "boolean" },
  },
});
const env = getEnv();
const database = openDatabase(targetFrom(env));
try {
  console.log(`Verifying the audit chain on ${describeTarget(database.target)}…`);
  const report = await verifyAuditChain(database.prisma, {
    key: env.auditChainKey,
    onProgress: (n) => {
      if (n % 100_000 === 0) console.log(`  ${n} events checked`);
    },
  });
  if (!report.ok) {
    console.error(`BROKEN at event #${report.firstBreak!.seq}: ${report.firstBreak!.message}`);
    console.error(`(${report.count} events before it verified)`);
    process.exitCode = 1;
  } else {
    console.log(
      `OK: ${report.count} events, head #${report.head?.seq ?? "-"} ${report.head?.hash ?? ""}` +
        (report.legacyCount ? ` (${report.legacyCount} written before the chain was keyed)` : ""),
    );
  }
  const sink = await againstLatestCheckpoint(database.prisma, report, {
    dir: env.checkpointDir,
    checkpointKey: env.checkpointKey,
  });
  if (sink.ok) console.log(`Latest checkpoint (${env.checkpointDir}): ${sink.message}`);
  else {
    console.error(`BROKEN against the latest checkpoint (${env.checkpointDir}): ${sink.message}`);
    process.exitCode = 1;
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
  if (values["write-checkpoint"] && report.ok) {
    const run = await writeCheckpoint(database.prisma, {
      dir: env.checkpointDir,
      checkpointKey: env.checkpointKey,
      chainKey: env.auditChainKey,
    });
    console.log(
      "written" in run
        ? `Checkpoint of head #${run.written.headSeq} written to the sink`
        : JSON.stringify(run),
    );
  }
} finally {
  await database.close();
}
