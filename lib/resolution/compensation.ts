import type { PrismaClient } from "@/prisma/generated/client";
import { SYSTEM_ACTOR } from "@/lib/audit/append";
import type { ProviderSettings } from "@/lib/providers/registry";
import { depsForProfile } from "@/lib/effects/deps";
import { runEffect } from "@/lib/effects/run-effect";
import type { JobResult } from "@/lib/effects/types";
import { auditActor, type Actor } from "@/lib/auth/actor";
import { authorize } from "@/lib/auth/authorize";
import { ResolutionError } from "./errors";
import { loadIntentForActor } from "./load";

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
  /** The person whose resolution started it, or null for the sweeper sending a left-over one. */
  actor: Actor | null,
  compensationIntentId: string,
): Promise<JobResult> {
  const refund = await db.effectIntent.findUniqueOrThrow({
    where: { id: compensationIntentId },
    include: { compensates: true },
  });
  const original = refund.compensates!;
  // Sent through the provider of the effect it undoes, as that provider's profile says.
  const profile = await db.providerProfile.findUniqueOrThrow({ where: { id: original.providerId } });
  const deps = depsForProfile(db, profile, settings, {
    workerId: actor ? `console:${actor.id}` : "sweeper",
    audit: {
      actor: actor ? auditActor(actor) : SYSTEM_ACTOR,
      action: "compensation",
      requestId: actor?.requestId ?? null,
    },
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

/**
 * Sends every compensation that was prepared but never sent (the process that prepared
 * it stopped before sending, or sending failed): the sweeper's second job. Safe to run
 * anywhere at once: each is sent under the protocol's lease with its deterministic key.
 */
export async function sendLeftOverCompensations(
  db: PrismaClient,
  settings: ProviderSettings,
  olderThan: Date,
): Promise<{ sent: number; failed: { intentId: string; error: unknown }[] }> {
  const left = await db.effectIntent.findMany({
    where: { compensatesId: { not: null }, status: "prepared", createdAt: { lte: olderThan } },
    select: { id: true },
    take: 100,
  });
  let sent = 0;
  const failed: { intentId: string; error: unknown }[] = [];
  for (const { id } of left) {
    try {
      await dispatchCompensation(db, settings, null, id);
      sent += 1;
    } catch (error) {
      failed.push({ intentId: id, error });
    }
  }
  return { sent, failed };
}

/** An operator sends a prepared compensation now, rather than wait for the sweeper. */
export async function sendCompensationNow(
  db: PrismaClient,
  settings: ProviderSettings,
  actor: Actor,
  input: { intentId: string; tenantId?: string },
): Promise<JobResult> {
  await authorize(db, actor, "resolve");
  const intent = await loadIntentForActor(db, input.intentId, input.tenantId);
  if (!intent.compensatesId || intent.status !== "prepared")
    throw new ResolutionError(
      "invalid",
      `Only a compensation waiting to be sent can be sent (this one is ${intent.status}).`,
    );
  return dispatchCompensation(db, settings, actor, intent.id);
}
