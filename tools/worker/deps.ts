import type { PrismaClient } from "@/prisma/generated/client";
import type { TransitionAudit } from "@/lib/ledger/protocol";
import { stripeClient } from "@/lib/providers/payments";
import type { CrashPoint } from "@/lib/effects/crash-points";
import type { WorkerDeps } from "@/lib/effects/types";

export type WorkerOptions = {
  db: PrismaClient;
  sandboxUrl: string;
  workerId: string;
  stripeApiKey?: string;
  clientTimeoutMs?: number;
  leaseMs?: number;
  maxAttempts?: number;
  retryDelayMs?: number;
  crash?: (point: CrashPoint) => void | Promise<void>;
  audit?: TransitionAudit;
  now?: () => Date;
};

export function workerDeps(o: WorkerOptions): WorkerDeps {
  const timeoutMs = o.clientTimeoutMs ?? 2_000;
  return {
    db: o.db,
    stripe: stripeClient({ apiKey: o.stripeApiKey ?? "sk_test_sandbox", baseUrl: o.sandboxUrl, timeoutMs }),
    mailer: { baseUrl: o.sandboxUrl, timeoutMs },
    providers: { payments: "payments-sandbox", mailer: "mailer-sandbox" },
    workerId: o.workerId,
    leaseMs: o.leaseMs ?? 30_000,
    maxAttempts: o.maxAttempts ?? 3,
    retryDelayMs: o.retryDelayMs ?? 50,
    crash: o.crash,
    audit: o.audit,
    now: o.now,
  };
}
