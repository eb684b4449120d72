import { z } from "zod";
import { formatAmount } from "@/lib/format";
import type { Candidate } from "@/lib/providers/types";

/**
 * A lookup's evidence beside what the ledger asked for, field by field. The evidence is
 * the redacted snapshot a lookup recorded (lib/providers/classify.ts `lookupResult`):
 * the query, the classifier's reason and the candidates the provider returned.
 */
export type FieldVerdict = "match" | "mismatch" | "not_reported";

export type ComparedField = {
  field: string;
  /** Text, or an ISO time when `time` is set (the page renders times its one way). */
  asked: string | null;
  reported: string | null;
  time?: true;
  verdict: FieldVerdict;
};

const candidateShape = z.object({
  id: z.string(),
  amountMinor: z.number().optional(),
  currency: z.string().optional(),
  customer: z.string().nullable().optional(),
  recipientDigest: z.string().optional(),
  recipientMasked: z.string().optional(),
  template: z.string().optional(),
  intentKey: z.string().nullable().optional(),
  createdAt: z.string(),
  status: z.string().optional(),
});

const evidenceShape = z.object({
  query: z.string().optional(),
  reason: z.string().optional(),
  observedAt: z.string().optional(),
  candidates: z.array(z.unknown()).optional(),
});

export type ParsedEvidence = {
  query: string | null;
  reason: string | null;
  candidates: Candidate[];
};

/** The recorded evidence JSON, read defensively (older rows may lack fields; odd candidates are skipped). */
export function parseEvidence(evidence: unknown): ParsedEvidence {
  const parsed = evidenceShape.safeParse(evidence);
  if (!parsed.success) return { query: null, reason: null, candidates: [] };
  const candidates = (parsed.data.candidates ?? []).flatMap((c) => {
    const one = candidateShape.safeParse(c);
    return one.success ? [one.data as Candidate] : [];
  });
  return { query: parsed.data.query ?? null, reason: parsed.data.reason ?? null, candidates };
}

/** What the ledger asked for: the intent's own columns and its redacted request summary. */
export type AskedFor = {
  intentKey: string;
  amountMinor: bigint | null;
  currency: string | null;
  recipient: string | null;
  template: string | null;
  requestSummary: unknown;
  providerKind: string;
  firstAttemptAt: Date;
  lastAttemptAt: Date;
  responseWindowSeconds: number;
};

/** Provider statuses that say the effect happened (or is under way and will). */
const HAPPENED = new Set(["succeeded", "pending", "queued", "sent", "delivered"]);

function verdict(reported: unknown, same: boolean): FieldVerdict {
  if (reported === undefined || reported === null) return "not_reported";
  return same ? "match" : "mismatch";
}

function summaryText(summary: unknown, key: string): string | null {
  const value = (summary as Record<string, unknown> | null)?.[key];
  return typeof value === "string" ? value : null;
}

export function compareCandidate(asked: AskedFor, c: Candidate): ComparedField[] {
  const rows: ComparedField[] = [];
  if (asked.amountMinor !== null) {
    const currency = (c.currency ?? asked.currency)?.toUpperCase() ?? null;
    rows.push({
      field: "Amount",
      asked: formatAmount(asked.amountMinor, asked.currency),
      reported: c.amountMinor === undefined ? null : formatAmount(c.amountMinor, currency),
      verdict: verdict(c.amountMinor, Number(asked.amountMinor) === c.amountMinor),
    });
  }
  if (asked.currency) {
    rows.push({
      field: "Currency",
      asked: asked.currency.toUpperCase(),
      reported: c.currency?.toUpperCase() ?? null,
      verdict: verdict(c.currency, c.currency?.toLowerCase() === asked.currency.toLowerCase()),
    });
  }
  const customer = summaryText(asked.requestSummary, "customer");
  if (customer) {
    rows.push({
      field: "Customer",
      asked: customer,
      reported: c.customer ?? null,
      verdict: verdict(c.customer, c.customer === customer),
    });
  }
  if (asked.recipient) {
    const digest = summaryText(asked.requestSummary, "recipient_digest");
    rows.push({
      field: "Recipient (masked)",
      asked: asked.recipient,
      reported: c.recipientMasked ?? null,
      verdict: verdict(c.recipientDigest, c.recipientDigest === digest),
    });
  }
  if (asked.template) {
    rows.push({
      field: "Template",
      asked: asked.template,
      reported: c.template ?? null,
      verdict: verdict(c.template, c.template === asked.template),
    });
  }
  rows.push({
    field: "Intent key",
    asked: asked.intentKey,
    reported: c.intentKey ?? null,
    verdict: verdict(c.intentKey, c.intentKey === asked.intentKey),
  });
  rows.push({
    field: "Status",
    asked: asked.providerKind === "mailer" ? "accepted (queued or sent)" : "succeeded",
    reported: c.status ?? null,
    verdict: verdict(c.status, HAPPENED.has(c.status ?? "")),
  });
  // The effect, if any, happened between the first attempt and the last one's response window.
  const created = Date.parse(c.createdAt);
  const from = asked.firstAttemptAt.getTime() - 60_000;
  const to = asked.lastAttemptAt.getTime() + asked.responseWindowSeconds * 1000 + 60_000;
  rows.push({
    field: "Time",
    asked: asked.lastAttemptAt.toISOString(),
    reported: Number.isNaN(created) ? null : c.createdAt,
    time: true,
    verdict: verdict(Number.isNaN(created) ? null : created, created >= from && created <= to),
  });
  return rows;
}

export const VERDICT_LABELS: Record<FieldVerdict, string> = {
  match: "match",
  mismatch: "mismatch",
  not_reported: "not reported",
};
