import type { EffectIntent, Prisma } from "@/prisma/generated/client";
import type { ResolutionKind } from "@/prisma/generated/enums";
import { digest } from "@/lib/digest";
import { ResolutionError } from "./errors";
import { evidenceAllows } from "./rules";

/** What an approval is bound to: every field of the proposal and the intent version it was made on. */
export function proposalDigestOf(p: {
  intentId: string;
  kind: ResolutionKind;
  lookupId: string | null;
  externalEvidenceRef: string | null;
  providerResultId: string | null;
  reason: string;
  intentVersion: number;
}) {
  return digest({
    intentId: p.intentId,
    kind: p.kind,
    lookupId: p.lookupId,
    externalEvidenceRef: p.externalEvidenceRef,
    providerResultId: p.providerResultId,
    reason: p.reason,
    intentVersion: p.intentVersion,
  });
}

/** Evidence for a resolution as it stands now: the cited lookup and every later one. */
async function loadEvidence(
  tx: Prisma.TransactionClient,
  intent: EffectIntent,
  lookupId: string | null,
  externalEvidenceRef: string | null,
) {
  const lookup = lookupId ? await tx.lookup.findUnique({ where: { id: lookupId } }) : null;
  if (lookupId && (!lookup || lookup.intentId !== intent.id))
    throw new ResolutionError("evidence", "That lookup does not belong to this intent.");
  const laterLookups = lookup
    ? await tx.lookup.findMany({ where: { intentId: intent.id, startedAt: { gt: lookup.startedAt } } })
    : [];
  return { lookup, externalEvidenceRef, laterLookups };
}

/**
 * Whether the evidence still permits this resolution on the intent as it is now:
 * the one check both a proposal and the approval that applies it run.
 */
export async function recheckEvidence(
  tx: Prisma.TransactionClient,
  kind: ResolutionKind,
  intent: EffectIntent,
  lookupId: string | null,
  externalEvidenceRef: string | null,
  now: Date,
) {
  const provider = await tx.providerProfile.findUniqueOrThrow({ where: { id: intent.providerId } });
  const evidence = await loadEvidence(tx, intent, lookupId, externalEvidenceRef);
  return { provider, evidence, verdict: evidenceAllows(kind, intent, provider, evidence, now) };
}
