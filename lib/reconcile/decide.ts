import type { EffectIntent, ProviderProfile, ReconcilePolicy } from "@/prisma/generated/client";
import type { LookupOutcome } from "@/prisma/generated/enums";
import { approvalsRequired, keyRetentionEndsAt } from "@/lib/resolution/rules";
import { formatAmount } from "@/lib/format";

/**
 * What the reconciler does with one unknown intent after a lookup: pure, so every
 * branch of the policy is tested on its own (decide.test.ts). The services that carry
 * the decision out check the evidence again under the intent's lock.
 */
export type Decision =
  | { action: "confirm"; reason: string }
  | { action: "redispatch"; reason: string }
  | { action: "retry_later"; at: Date; reason: string }
  | { action: "escalate"; reason: string };

export type DecisionInput = {
  intent: Pick<
    EffectIntent,
    "amountMinor" | "currency" | "lastAttemptAt" | "createdAt" | "operation" | "compensatesId"
  >;
  provider: Pick<ProviderProfile, "name" | "kind" | "supportsIdempotency" | "keyRetentionSeconds">;
  policy: Pick<ReconcilePolicy, "redispatch" | "maxRedispatches">;
  threshold: {
    thresholdMinor: bigint;
    dualThresholdMinor: bigint | null;
    autoResolveBelowMinor: bigint | null;
  } | null;
  lookup: { outcome: LookupOutcome; providerResultId: string | null; errorClass: string | null };
  /** Whether the ledger holds enough to send the exact request again (lib/effects/replay.ts). */
  rebuild: { ok: true } | { ok: false; reason: string };
  /** Lookups the reconciler has made of this intent before this one, and redispatches. */
  tries: number;
  redispatches: number;
  now: Date;
};

/** Backoff between lookups that settle nothing: 30 s, doubling, at most an hour. */
export const BACKOFF_BASE_MS = 30_000;
export const BACKOFF_MAX_MS = 3_600_000;
/** A person is told this long before the provider forgets the key, not after. */
export const DEADLINE_MARGIN_MS = 15 * 60_000;
/** Without a retention deadline (no idempotency), this many inconclusive lookups at most. */
export const MAX_TRIES_WITHOUT_DEADLINE = 8;

export function backoffMs(tries: number): number {
  return Math.min(BACKOFF_BASE_MS * 2 ** Math.min(tries, 20), BACKOFF_MAX_MS);
}

function amountText(intent: DecisionInput["intent"]): string {
  return intent.amountMinor === null || !intent.currency
    ? "this effect"
    : formatAmount(intent.amountMinor, intent.currency);
}

/**
 * Why the reconciler may not settle this amount on its own, if it may not: no limit set
 * for its currency, the amount at or above it, or (whatever the limit says) an amount that
 * needs approval. Effects without an amount (emails) have no limit.
 */
function overLimit(input: DecisionInput): string | null {
  const { intent, provider } = input;
  if (intent.amountMinor === null || !intent.currency) return null;
  const limit = input.threshold?.autoResolveBelowMinor ?? null;
  if (limit === null) return `no auto-resolve limit is set for ${intent.currency}`;
  const needsApproval = approvalsRequired("accept_receipt", intent, provider, input.threshold, false) > 0;
  if (intent.amountMinor >= limit || needsApproval)
    return `${amountText(intent)} is not below the auto-resolve limit of ${formatAmount(limit, intent.currency)}${needsApproval ? " and needs approval" : ""}`;
  return null;
}

export function decide(input: DecisionInput): Decision {
  const { intent, provider, policy, lookup, now } = input;
  const deadline = keyRetentionEndsAt(intent, provider);
  const outcome = lookup.outcome.replace(/_/g, " ");

  switch (lookup.outcome) {
    case "found_matching": {
      const over = overLimit(input);
      if (over)
        return {
          action: "escalate",
          reason: `Found at the provider (${lookup.providerResultId}), but ${over}: a person accepts it, the lookup is attached.`,
        };
      return {
        action: "confirm",
        reason: `The provider holds exactly this effect (${lookup.providerResultId}).`,
      };
    }
    case "found_conflicting":
    case "multiple_found":
      return {
        action: "escalate",
        reason: `The lookup found ${outcome}: only a person can judge which effect is ours.`,
      };
    case "absent": {
      if (!provider.supportsIdempotency)
        return {
          action: "escalate",
          reason: `Absent at ${provider.name}, which keeps no idempotency key: sending it again could do it twice if the first is only late. A person decides.`,
        };
      if (deadline && now.getTime() >= deadline.getTime() - DEADLINE_MARGIN_MS)
        return {
          action: "escalate",
          reason: `Absent, but ${provider.name} forgets the key at ${deadline.toISOString()}: too late to send it again safely. A person decides.`,
        };
      if (!policy.redispatch)
        return {
          action: "escalate",
          reason:
            "Absent at the provider; this policy does not send intents again. A person marks it rejected or retries it.",
        };
      if (!input.rebuild.ok)
        return {
          action: "escalate",
          reason: `Absent at the provider, but the reconciler cannot send it again: ${input.rebuild.reason}. A person decides.`,
        };
      const over = overLimit(input);
      if (over)
        return {
          action: "escalate",
          reason: `Absent at the provider, but ${over}: a person decides whether to send it again.`,
        };
      if (input.redispatches >= policy.maxRedispatches)
        return {
          action: "escalate",
          reason: `Absent after ${input.redispatches} redispatch${input.redispatches === 1 ? "" : "es"} (the policy allows ${policy.maxRedispatches}): a person looks at why it does not go through.`,
        };
      return {
        action: "redispatch",
        reason:
          "Absent after the provider's visibility delay, and the provider still keeps the key: sending the same intent again with its original key.",
      };
    }
    case "not_visible_yet":
    case "inconclusive": {
      const at = new Date(now.getTime() + backoffMs(input.tries));
      const why =
        lookup.outcome === "inconclusive"
          ? `The lookup was inconclusive${lookup.errorClass ? ` (${lookup.errorClass})` : ""}`
          : "The provider's search may not show it yet";
      if (deadline && at.getTime() >= deadline.getTime() - DEADLINE_MARGIN_MS)
        return {
          action: "escalate",
          reason: `${why}, and ${provider.name} forgets the key at ${deadline.toISOString()}: no time left to look again. A person decides.`,
        };
      if (!deadline && input.tries + 1 >= MAX_TRIES_WITHOUT_DEADLINE)
        return {
          action: "escalate",
          reason: `${why} after ${input.tries + 1} lookups: a person decides.`,
        };
      return { action: "retry_later", at, reason: `${why}; looking again at ${at.toISOString()}.` };
    }
  }
}
