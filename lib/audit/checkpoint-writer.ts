import type { PrismaClient } from "@/prisma/generated/client";
import { getEnv } from "@/lib/env";
import { writeCheckpoint } from "./checkpoints";

/**
 * Writes a signed checkpoint to the sink every AUDIT_CHECKPOINT_INTERVAL_SECONDS when the
 * chain has grown, so a cut tail or a forgery after it is bounded by that interval. Runs
 * in every console instance (started from instrumentation.ts); a broken chain is logged
 * loudly and no checkpoint is written over it.
 */
export function startCheckpointWriter(db: PrismaClient): () => void {
  const env = getEnv();
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      const run = await writeCheckpoint(db, {
        dir: env.checkpointDir,
        checkpointKey: env.checkpointKey,
        chainKey: env.auditChainKey,
      });
      if ("broken" in run)
        console.error(
          `AUDIT CHAIN BROKEN at event #${run.broken.firstBreak?.seq}: ${run.broken.firstBreak?.message}`,
        );
      if ("mismatch" in run)
        console.error(`AUDIT CHAIN DOES NOT HOLD THE LATEST CHECKPOINT: ${run.mismatch}`);
    } catch (error) {
      console.error("Audit checkpoint not written:", error);
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), env.AUDIT_CHECKPOINT_INTERVAL_SECONDS * 1000);
  timer.unref();
  void tick();
  return () => clearInterval(timer);
}
