import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { PrismaClient } from "@/prisma/generated/client";
import {
  checkAgainstCheckpoint,
  makeCheckpoint,
  verifyAuditChain,
  type Checkpoint,
  type VerifyReport,
} from "./verify";

/**
 * Signed checkpoints of the audit chain, written to a sink outside the database — a
 * directory by default (AUDIT_CHECKPOINT_DIR; point it at storage the database's writers
 * cannot reach, or sync it to object storage with a retention lock). A checkpoint names
 * the head the chain had; a later chain that lacks it was cut or rewritten.
 */

const NAME = /^checkpoint-(\d{19})\.json$/;

function fileName(headSeq: string): string {
  return `checkpoint-${headSeq.padStart(19, "0")}.json`;
}

/** The newest checkpoint in the sink, or null. */
export function latestCheckpoint(dir: string): Checkpoint | null {
  let names: string[];
  try {
    names = readdirSync(/*turbopackIgnore: true*/ dir).filter((n) => NAME.test(n));
  } catch {
    return null;
  }
  const newest = names.sort().at(-1);
  if (!newest) return null;
  return JSON.parse(readFileSync(/*turbopackIgnore: true*/ path.join(dir, newest), "utf8")) as Checkpoint;
}

function write(dir: string, checkpoint: Checkpoint) {
  mkdirSync(/*turbopackIgnore: true*/ dir, { recursive: true });
  const target = path.join(dir, fileName(checkpoint.headSeq));
  const temporary = `${target}.${process.pid}.tmp`;
  writeFileSync(/*turbopackIgnore: true*/ temporary, JSON.stringify(checkpoint, null, 2) + "\n", {
    mode: 0o640,
  });
  renameSync(/*turbopackIgnore: true*/ temporary, target);
}

export type CheckpointRun =
  { written: Checkpoint } | { unchanged: Checkpoint } | { broken: VerifyReport } | { mismatch: string };

/**
 * Verifies what was appended since the newest checkpoint (the whole chain the first
 * time) and writes a new signed checkpoint if the head moved. Any number of instances
 * may run this at once: they write the same file for the same head.
 */
export async function writeCheckpoint(
  db: PrismaClient,
  o: { dir: string; checkpointKey: string; chainKey: string },
  now = new Date(),
): Promise<CheckpointRun> {
  const previous = latestCheckpoint(o.dir);
  let from;
  if (previous && previous.count > 0) {
    const head = await db.auditEvent.findUnique({ where: { seq: BigInt(previous.headSeq) } });
    const verdict = await checkAgainstCheckpoint(db, previous, o.checkpointKey);
    if (!verdict.ok) return { mismatch: verdict.message };
    from = {
      afterSeq: BigInt(previous.headSeq),
      prevHash: previous.headHash,
      count: previous.count,
      keyed: head!.hashVersion !== 1,
    };
  }
  const report = await verifyAuditChain(db, { key: o.chainKey, from });
  if (!report.ok) return { broken: report };
  if (previous && report.head?.seq === previous.headSeq) return { unchanged: previous };
  const checkpoint = makeCheckpoint(report, o.checkpointKey, now);
  write(o.dir, checkpoint);
  return { written: checkpoint };
}

export type SinkVerdict = { checkpoint: Checkpoint | null; ok: boolean; message: string };

/** The full verification's report, read against the newest checkpoint in the sink. */
export async function againstLatestCheckpoint(
  db: PrismaClient,
  report: VerifyReport,
  o: { dir: string; checkpointKey: string },
): Promise<SinkVerdict> {
  const checkpoint = latestCheckpoint(o.dir);
  if (!checkpoint)
    return { checkpoint: null, ok: true, message: "No checkpoint has been written yet to compare with." };
  const verdict = await checkAgainstCheckpoint(db, checkpoint, o.checkpointKey, report);
  return verdict.ok
    ? {
        checkpoint,
        ok: true,
        message: `Holds everything the checkpoint of ${checkpoint.at} saw (${checkpoint.count} events, head #${checkpoint.headSeq}).`,
      }
    : { checkpoint, ok: false, message: verdict.message };
}
