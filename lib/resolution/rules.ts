import type { EffectIntent, Lookup, ProviderProfile } from "@/prisma/generated/client";
import type { ResolutionKind } from "@/prisma/generated/enums";

/**
 * What evidence each resolution needs, checked when it is proposed and again when it
 * applies (the intent or the evidence may have changed meanwhile).
 */
export type Evidence = { lookup: Lookup | null; externalEvidenceRef: string | null; laterLookups: Lookup[] };

export type Verdict = { ok: true } | { ok: false; reason: string };

const CONCLUSIVE = new Set(["found_matching", "found_conflicting", "multiple_found", "absent"]);

/** When the provider forgets this intent's idempotency key (null: it never had one). */
export function keyRetentionEndsAt(
  intent: Pick<EffectIntent, "lastAttemptAt" | "createdAt">,
  provider: Pick<ProviderProfile, "supportsIdempotency" | "keyRetentionSeconds">,
): Date | null {
  if (!provider.supportsIdempotency || !provider.keyRetentionSeconds) return null;
  const last = intent.lastAttemptAt ?? intent.createdAt;
  return new Date(last.getTime() + provider.keyRetentionSeconds * 1000);
}

export function evidenceAllows(
  kind: ResolutionKind,
  intent: EffectIntent,
  provider: ProviderProfile,
  evidence: Evidence,
  now: Date,
): Verdict {
  const { lookup, externalEvidenceRef } = evidence;
  if (lookup && lookup.intentId !== intent.id)
    return { ok: false, reason: "The lookup belongs to another intent." };
  // A newer conclusive lookup that says something else overrides the one cited.
  const contradicted = lookup
    ? evidence.laterLookups.find(
        (l) =>
          l.id !== lookup.id &&
          l.startedAt > lookup.startedAt &&
          CONCLUSIVE.has(l.outcome) &&
          l.outcome !== lookup.outcome,
      )
    : undefined;
  if (contradicted)
    return {
      ok: false,
      reason: `A later lookup (${contradicted.method}) says ${contradicted.outcome.replace(/_/g, " ")}; look again before resolving.`,
    };

  switch (kind) {
    case "accept_receipt":
      if (intent.status !== "unknown")
        return { ok: false, reason: `Only an unknown intent can accept a receipt (it is ${intent.status}).` };
      if (externalEvidenceRef && !lookup) return { ok: true };
      if (lookup?.outcome !== "found_matching" || !lookup.providerResultId) {
        return {
          ok: false,
          reason:
            "Accepting a receipt needs a lookup that found exactly this effect (found matching), or an external evidence reference.",
        };
      }
      return { ok: true };
    case "mark_rejected": {
      if (intent.status !== "unknown")
        return {
          ok: false,
          reason: `Only an unknown intent can be marked rejected (it is ${intent.status}).`,
        };
      if (lookup?.outcome !== "absent")
        return {
          ok: false,
          reason:
            "Marking rejected needs a lookup that proved the effect absent after the provider's visibility delay.",
        };
      const retentionEnds = keyRetentionEndsAt(intent, provider);
      if (retentionEnds && now >= retentionEnds) {
        return {
          ok: false,
          reason: `The provider may have forgotten this key since ${retentionEnds.toISOString()}: a retry with it is no longer safe. Escalate instead.`,
        };
      }
      return { ok: true };
    }
    case "start_compensation":
      if (provider.kind !== "payments" || intent.operation !== "charge")
        return { ok: false, reason: "Only a payment charge can be compensated (by a refund)." };
      if (intent.compensatesId) return { ok: false, reason: "A compensation is not itself compensated." };
      if (intent.status === "confirmed" && intent.providerResultId) return { ok: true };
      if (intent.status === "unknown" && lookup?.outcome === "found_matching" && lookup.providerResultId)
        return { ok: true };
      return {
        ok: false,
        reason:
          "Compensation needs an effect that happened: a confirmed intent, or an unknown one with a lookup that found it.",
      };
    case "escalate":
      if (intent.status !== "unknown")
        return { ok: false, reason: `Only an unknown intent can be escalated (it is ${intent.status}).` };
      return { ok: true };
  }
}

export type Threshold = { thresholdMinor: bigint; dualThresholdMinor: bigint | null } | null;

/**
 * How many approvers a resolution needs before it applies: none below the tenant's
 * threshold for the currency, one at or above it, two at or above the dual threshold.
 * Compensating a payment, and accepting on external evidence, always need one.
 */
export function approvalsRequired(
  kind: ResolutionKind,
  intent: Pick<EffectIntent, "amountMinor">,
  provider: Pick<ProviderProfile, "kind">,
  threshold: Threshold,
  external: boolean,
): number {
  if (kind === "escalate") return 0;
  const amount = intent.amountMinor;
  let required = 0;
  if (amount !== null && threshold) {
    if (threshold.dualThresholdMinor !== null && amount >= threshold.dualThresholdMinor) required = 2;
    else if (amount >= threshold.thresholdMinor) required = 1;
  }
  if ((kind === "start_compensation" && provider.kind === "payments") || external)
    required = Math.max(required, 1);
  return required;
}
