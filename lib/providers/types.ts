import type { LookupMethod, LookupOutcome } from "@/prisma/generated/enums";

export type { LookupMethod, LookupOutcome };

/** How a provider call ended, in the protocol's terms. */
export type CallOutcome =
  | { kind: "ok"; resultId: string; responseDigest: string; providerRequestId: string | null }
  /** The provider said no: nothing happened (declined card, invalid recipient). */
  | { kind: "definitive"; errorClass: string; responseDigest: string }
  /** Refused before execution (429): nothing happened; safe to try again later. */
  | { kind: "not_executed"; errorClass: string }
  /** It may or may not have happened (timeout, dropped connection, 5xx). */
  | { kind: "ambiguous"; errorClass: string; needsOperator?: boolean };

/** A provider-side effect as a lookup saw it, redacted for evidence. */
export type Candidate = {
  id: string;
  amountMinor?: number;
  currency?: string;
  customer?: string | null;
  recipientDigest?: string;
  recipientMasked?: string;
  template?: string;
  intentKey?: string | null;
  createdAt: string;
  status?: string;
};

/** What the intent says should have happened, to compare candidates against. */
export type Expectation = {
  intentKey: string;
  amountMinor?: number | null;
  currency?: string | null;
  customer?: string | null;
  recipientDigest?: string | null;
  template?: string | null;
};

export type LookupResult = {
  method: LookupMethod;
  outcome: LookupOutcome;
  providerResultId: string | null;
  responseDigest: string | null;
  errorClass: string | null;
  evidence: Record<string, unknown>;
};
