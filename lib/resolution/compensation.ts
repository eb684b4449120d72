import type { PrismaClient } from "@/lib/generated/prisma/client";
import type { ProviderSettings } from "@/lib/providers/registry";
import { workerDeps } from "@/lib/worker/deps";
import { runEffect, type JobResult } from "@/lib/worker/run-effect";
import { auditActor, type Actor } from "./actor";

/**
 * Sends a prepared compensation through the effect protocol, like any worker would,
 * with each of its transitions audited in the transition's own transaction
 * (compensation.dispatched, then compensation.confirmed / rejected / unknown).
 * Its deterministic key and the protocol's lease make a second call harmless: the
 * provider sees one refund however often this runs.
 */
export async function dispatchCompensation(
  db: PrismaClient,
  settings: ProviderSettings,
  actor: Actor,
  compensationIntentId: string,
): Promise<JobResult> {
  const refund = await db.effectIntent.findUniqueOrThrow({
    where: { id: compensationIntentId },
    include: { compensates: true },
  });
  const original = refund.compensates!;
  const deps = workerDeps({
    db,
    sandboxUrl: settings.defaultBaseUrl,
    stripeApiKey: settings.stripeApiKey,
    clientTimeoutMs: settings.timeoutMs,
    workerId: `console:${actor.id}`,
    audit: { actor: auditActor(actor), action: "compensation", requestId: actor.requestId ?? null },
  });
  return runEffect(deps, {
    kind: "refund",
    tenantId: refund.tenantId,
    intentKey: refund.intentKey,
    workflowId: refund.workflowId,
    stepId: refund.stepId,
    compensatesKey: original.intentKey,
    customerRef: refund.customerRef ?? "",
  });
}
