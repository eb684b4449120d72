import type Stripe from "stripe";
import type { EffectAttempt, EffectIntent, ProviderProfile } from "@/prisma/generated/client";
import { providerIdempotencyKey } from "@/lib/ledger/keys";
import { lookupEmail, type MailerConfig } from "./mailer";
import { inconclusive, lookupPayment, stripeClient } from "./payments";
import type { Expectation, LookupMethod, LookupResult } from "./types";

export type ProviderSettings = {
  /** Where a provider profile without its own base URL is reached (the sandbox). */
  defaultBaseUrl: string;
  stripeApiKey: string;
  /** Deadline for one provider call. */
  timeoutMs: number;
};

/** One interface over every provider: run a lookup method for an intent. */
export type ProviderAdapter = {
  profile: ProviderProfile;
  lookup(
    intent: EffectIntent,
    attempts: EffectAttempt[],
    method: LookupMethod,
    now: Date,
  ): Promise<LookupResult>;
};

type Summary = { customer?: string; recipient_digest?: string; charge?: string };

function expectationOf(intent: EffectIntent): Expectation {
  const s = (intent.requestSummary ?? {}) as Summary;
  return {
    intentKey: intent.intentKey,
    amountMinor: intent.amountMinor === null ? null : Number(intent.amountMinor),
    currency: intent.currency,
    customer: s.customer ?? null,
    recipientDigest: s.recipient_digest ?? null,
    template: intent.template,
  };
}

function attemptWindow(intent: EffectIntent, attempts: EffectAttempt[]) {
  const times = attempts.map((a) => a.startedAt.getTime());
  return {
    firstAttemptAt: new Date(times.length ? Math.min(...times) : intent.createdAt.getTime()),
    lastAttemptAt: new Date(times.length ? Math.max(...times) : intent.createdAt.getTime()),
  };
}

export function providerAdapter(profile: ProviderProfile, settings: ProviderSettings): ProviderAdapter {
  const baseUrl = profile.baseUrl ?? settings.defaultBaseUrl;
  const delays = {
    visibilityDelayMs: profile.visibilityDelaySeconds * 1000,
    responseWindowMs: profile.responseWindowSeconds * 1000,
  };
  if (profile.kind === "payments") {
    let stripe: Stripe | null = null;
    return {
      profile,
      async lookup(intent, attempts, method, now) {
        if (!profile.lookupMethods.includes(method)) return inconclusive(method, "method_not_supported");
        stripe ??= stripeClient({ apiKey: settings.stripeApiKey, baseUrl, timeoutMs: settings.timeoutMs });
        const s = (intent.requestSummary ?? {}) as Summary;
        return lookupPayment(
          stripe,
          {
            operation: intent.operation === "refund" ? "refund" : "charge",
            idempotencyKey: providerIdempotencyKey(intent.tenantId, intent.intentKey),
            expected: expectationOf(intent),
            knownResultId: intent.providerResultId,
            chargeId: s.charge ?? null,
            ...attemptWindow(intent, attempts),
            ...delays,
          },
          method,
          now,
        );
      },
    };
  }
  const mailer: MailerConfig = { baseUrl, timeoutMs: settings.timeoutMs };
  return {
    profile,
    async lookup(intent, attempts, method, now) {
      if (!profile.lookupMethods.includes(method)) return inconclusive(method, "method_not_supported");
      const knownResultId =
        intent.providerResultId ??
        [...attempts].reverse().find((a) => a.providerRequestId)?.providerRequestId ??
        null;
      return lookupEmail(
        mailer,
        { expected: expectationOf(intent), knownResultId, ...attemptWindow(intent, attempts), ...delays },
        method,
        now,
      );
    },
  };
}
