import type Stripe from "stripe";
import type { TransitionAudit } from "@/lib/ledger/protocol";
import type { MailerConfig } from "@/lib/providers/mailer";
import type { PrismaClient } from "@/prisma/generated/client";
import type { CrashPoint } from "./crash-points";

/** One workflow step that has an external effect. */
export type EffectJob =
  | {
      kind: "charge";
      tenantId: string;
      intentKey: string;
      workflowId: string;
      stepId: string;
      amountMinor: number;
      currency: string;
      customer: string;
      paymentMethod: string;
      description: string;
      customerRef: string;
    }
  | {
      kind: "refund";
      tenantId: string;
      intentKey: string;
      workflowId: string;
      stepId: string;
      /** The charge intent this refund compensates. */
      compensatesKey: string;
      customerRef: string;
    }
  | {
      kind: "email";
      tenantId: string;
      intentKey: string;
      workflowId: string;
      stepId: string;
      to: string;
      template: string;
      variables: Record<string, string>;
      customerRef: string;
    };

export type WorkerDeps = {
  db: PrismaClient;
  stripe: Stripe;
  mailer: MailerConfig;
  providers: { payments: string; mailer: string };
  workerId: string;
  leaseMs: number;
  /** Attempts within one dispatch for failures that are safe to retry. */
  maxAttempts: number;
  retryDelayMs: number;
  crash?: (point: CrashPoint) => void | Promise<void>;
  /** Audit each transition (when a person, not a workflow, drives this effect). */
  audit?: TransitionAudit;
  /** Who settles an unknown intent this send ends (the reconciler's redispatch). */
  settledBy?: "reconciler";
  /** The worker's clock (the simulator runs on a virtual one). */
  now?: () => Date;
};

export type JobResult = {
  intentKey: string;
  intentId: string | null;
  outcome:
    | "confirmed"
    | "rejected"
    | "unknown"
    | "already_confirmed"
    | "frozen"
    | "busy"
    | "key_conflict"
    | "refused";
  detail?: string;
};
