import type { PrismaClient } from "@/prisma/generated/client";
import type { Actor } from "@/lib/auth/actor";
import type { CrashPoint } from "@/lib/effects/crash-points";
import type { ProviderSettings } from "@/lib/providers/registry";

export type PassCounts = {
  picked: number;
  confirmed: number;
  redispatched: number;
  escalated: number;
  retryLater: number;
  skipped: number;
  /** Dry run: looked up and recorded what it would do, changed nothing. */
  dryRun: number;
};

export type ReconcilerOptions = {
  db: PrismaClient;
  settings: ProviderSettings;
  actor: Actor;
  /** This reconciler's name in leases (host:pid). */
  owner: string;
  batch?: number;
  leaseMs?: number;
  now?: () => Date;
  /** Crash injection (tests): runs at each point of a redispatch's send, may throw. */
  crash?: (point: CrashPoint) => void | Promise<void>;
  /** Called after each intent (tests stop a reconciler mid-pass here). */
  onIntent?: (intentId: string, outcome: keyof PassCounts) => void | Promise<void>;
};
