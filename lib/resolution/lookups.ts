import type { Lookup, PrismaClient } from "@/prisma/generated/client";
import type { Prisma } from "@/prisma/generated/client";
import { appendAudit } from "@/lib/audit/append";
import { takeProviderToken } from "@/lib/providers/rate-limit";
import { providerAdapter, type ProviderSettings } from "@/lib/providers/registry";
import type { LookupMethod, LookupResult } from "@/lib/providers/types";
import { auditActor, type Actor } from "@/lib/auth/actor";
import { authorize } from "@/lib/auth/authorize";
import { ResolutionError } from "./errors";
import { loadIntentForActor } from "./load";

/**
 * An operator asks the provider about an intent. The lookup is recorded with its
 * evidence and audited; it never changes the intent by itself. Calls to one provider
 * are paced to its rate limit, however many operators and bulk runs ask at once.
 */
export async function lookupForOperator(
  db: PrismaClient,
  settings: ProviderSettings,
  actor: Actor,
  input: { intentId: string; tenantId?: string; method: LookupMethod },
  now = () => new Date(),
): Promise<{ lookup: Lookup; result: LookupResult }> {
  await authorize(db, actor, "look_up");
  const intent = await loadIntentForActor(db, input.intentId, input.tenantId);
  const provider = await db.providerProfile.findUniqueOrThrow({ where: { id: intent.providerId } });
  if (!provider.lookupMethods.includes(input.method)) {
    throw new ResolutionError(
      "invalid",
      `${provider.name} does not support looking up by ${input.method.replace(/_/g, " ")}.`,
    );
  }
  const attempts = await db.effectAttempt.findMany({
    where: { intentId: intent.id },
    orderBy: { attemptNo: "asc" },
  });
  await takeProviderToken(db, provider.id, provider.rateLimitPerSecond);
  const startedAt = now();
  const result = await providerAdapter(provider, settings).lookup(intent, attempts, input.method, startedAt);
  const lookup = await db.$transaction(async (tx) => {
    const row = await tx.lookup.create({
      data: {
        intentId: intent.id,
        tenantId: intent.tenantId,
        providerId: provider.id,
        method: result.method,
        outcome: result.outcome,
        actorId: actor.id,
        providerResultId: result.providerResultId,
        responseDigest: result.responseDigest,
        evidence: result.evidence as Prisma.InputJsonValue,
        errorClass: result.errorClass,
        startedAt,
        finishedAt: now(),
      },
    });
    await appendAudit(tx, {
      actor: auditActor(actor),
      action: "lookup.run",
      tenantId: intent.tenantId,
      targetType: "intent",
      targetId: intent.id,
      evidenceRef: `lookup:${row.id}`,
      beforeStatus: intent.status,
      afterStatus: intent.status,
      requestId: actor.requestId,
      details: {
        method: result.method,
        outcome: result.outcome,
        errorClass: result.errorClass,
        providerResultId: result.providerResultId,
        responseDigest: result.responseDigest,
      },
    });
    return row;
  });
  return { lookup, result };
}
