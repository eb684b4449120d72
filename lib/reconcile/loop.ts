import { hostname } from "node:os";
import type { PrismaClient } from "@/prisma/generated/client";
import { AuthError } from "@/lib/auth/errors";
import type { ProviderSettings } from "@/lib/providers/registry";
import { reconcilerActor } from "./actor";
import { emptyCounts, reconcilePass, type PassCounts } from "./reconcile";

export type LoopOptions = {
  db: PrismaClient;
  settings: ProviderSettings;
  intervalMs: number;
  batch: number;
  leaseMs: number;
  /** Each pass that did something. */
  onPass?: (counts: PassCounts) => void;
};

/** This process's name in the queue's leases. */
export const reconcilerOwner = () => `reconciler@${hostname()}:${process.pid}`;

/** Runs passes until stopped; a pass that finds a full batch is followed by another at once. */
export function startReconcilerLoop(o: LoopOptions): { stop(): Promise<void> } {
  let stopping = false;
  let wake: (() => void) | null = null;
  const done = (async () => {
    const actor = await reconcilerActor(o.db);
    const owner = reconcilerOwner();
    while (!stopping) {
      let counts = emptyCounts();
      try {
        counts = await reconcilePass({
          db: o.db,
          settings: o.settings,
          actor,
          owner,
          batch: o.batch,
          leaseMs: o.leaseMs,
        });
        if (counts.picked > 0) o.onPass?.(counts);
      } catch (error) {
        if (error instanceof AuthError) console.error(`Reconciler stopped acting: ${error.message}`);
        else console.error("Reconcile pass failed:", error);
      }
      if (stopping || counts.picked >= o.batch) continue;
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, o.intervalMs).unref();
      });
    }
  })();
  return {
    async stop() {
      stopping = true;
      wake?.();
      await done;
    },
  };
}
