import { digest } from "@/lib/digest";
import type { Candidate, Expectation, LookupMethod, LookupOutcome, LookupResult } from "./types";

export type ClassifyInput = {
  candidates: Candidate[];
  expected: Expectation;
  /** Search results may lag writes; direct reads and lists do not. */
  lagged: boolean;
  /** When the last attempt was sent: the effect, if any, happened before about then. */
  lastAttemptAt: Date;
  visibilityDelayMs: number;
  now: Date;
};

export type Classification = { outcome: LookupOutcome; match: Candidate | null; reason: string };

function differences(c: Candidate, e: Expectation): string[] {
  const out: string[] = [];
  if (c.intentKey && c.intentKey !== e.intentKey) out.push(`intent key ${c.intentKey}`);
  if (e.amountMinor != null && c.amountMinor !== e.amountMinor)
    out.push(`amount ${c.amountMinor} instead of ${e.amountMinor}`);
  if (e.currency && c.currency?.toLowerCase() !== e.currency.toLowerCase())
    out.push(`currency ${c.currency} instead of ${e.currency}`);
  if (e.customer && c.customer !== e.customer)
    out.push(`customer ${c.customer ?? "none"} instead of ${e.customer}`);
  if (e.recipientDigest && c.recipientDigest !== e.recipientDigest) out.push("a different recipient");
  if (e.template && c.template !== e.template) out.push(`template ${c.template} instead of ${e.template}`);
  return out;
}

/**
 * Turns what a provider returned into exactly one SPEC outcome. Absence counts as
 * authoritative only once the provider's visibility delay has passed since the
 * last attempt; before that it is "not visible yet", never "absent".
 */
export function classify(input: ClassifyInput): Classification {
  // Effects another intent created are not evidence about this one.
  const relevant = input.candidates.filter((c) => !c.intentKey || c.intentKey === input.expected.intentKey);
  if (relevant.length > 1)
    return { outcome: "multiple_found", match: null, reason: `${relevant.length} candidate effects` };
  if (relevant.length === 1) {
    const c = relevant[0]!;
    const diff = differences(c, input.expected);
    return diff.length === 0
      ? { outcome: "found_matching", match: c, reason: `${c.id} matches` }
      : { outcome: "found_conflicting", match: c, reason: `${c.id} differs: ${diff.join(", ")}` };
  }
  const settledAt = input.lastAttemptAt.getTime() + (input.lagged ? input.visibilityDelayMs : 0);
  if (input.now.getTime() < settledAt) {
    return {
      outcome: "not_visible_yet",
      match: null,
      reason: `search may lag until ${new Date(settledAt).toISOString()}`,
    };
  }
  return { outcome: "absent", match: null, reason: "no effect found after the visibility delay" };
}

/**
 * A provider's answer as a recorded lookup: the classification, a digest of the raw
 * response and a redacted evidence snapshot (the query and the candidates).
 */
export function lookupResult(
  method: LookupMethod,
  answer: { candidates: Candidate[]; raw: unknown; query: string; lagged: boolean },
  subject: { expected: Expectation; lastAttemptAt: Date; visibilityDelayMs: number },
  now: Date,
): LookupResult {
  const verdict = classify({
    ...answer,
    expected: subject.expected,
    lastAttemptAt: subject.lastAttemptAt,
    visibilityDelayMs: subject.visibilityDelayMs,
    now,
  });
  return {
    method,
    outcome: verdict.outcome,
    providerResultId: verdict.match?.id ?? null,
    responseDigest: digest(answer.raw),
    errorClass: null,
    evidence: {
      query: answer.query,
      lagged: answer.lagged,
      observedAt: now.toISOString(),
      reason: verdict.reason,
      candidates: answer.candidates,
    },
  };
}
