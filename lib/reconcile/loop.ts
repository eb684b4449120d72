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

/** How often a running reconciler takes up intents that became unknown. */
export const ENQUEUE_EVERY_MS = 15_000;

/** This process's name in the queue's leases. */
export const reconcilerOwner = () => `reconciler@${hostname()}:${process.pid}`;

/** Runs passes until stopped; a pass that finds a full batch is followed by another at once. */
export function startReconcilerLoop(o: LoopOptions): { stop(): Promise<void> } {
  let stopping = false;
  let wake: (() => void) | null = null;
  const done = (async () => {
    const actor = await reconcilerActor(o.db);
    const owner = reconcilerOwner();
    let enqueuedAt = 0;
    while (!stopping) {
      let counts = emptyCounts();
      try {
        // Taking up new unknowns reads the whole backlog: every so often, not every pass.
        const enqueue = Date.now() - enqueuedAt >= ENQUEUE_EVERY_MS;
        if (enqueue) enqueuedAt = Date.now();
        counts = await reconcilePass(
          {
            db: o.db,
            settings: o.settings,
            actor,
            owner,
            batch: o.batch,
            leaseMs: o.leaseMs,
          },
          enqueue,
        );
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
