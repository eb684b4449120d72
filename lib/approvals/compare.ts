import { formatAmount } from "@/lib/format";

/**
 * What was asked beside what the provider said, field by field: the intent's own
 * request (amount, currency, customer or masked recipient, template, key) against the
 * candidate the cited lookup matched. Pure, so the rule is tested on its own.
 */

export type Mark = "match" | "mismatch" | "missing";

export type FieldRow = { field: string; asked: string; said: string; mark: Mark };

export type AskedIntent = {
  intentKey: string;
  amountMinor: bigint | string | number | null;
  currency: string | null;
  recipient: string | null;
  template: string | null;
  requestSummary: unknown;
};

type Candidate = {
  id?: unknown;
  amountMinor?: unknown;
  currency?: unknown;
  customer?: unknown;
  recipientMasked?: unknown;
  template?: unknown;
  intentKey?: unknown;
  status?: unknown;
};

const text = (v: unknown): string | null =>
  typeof v === "string" && v !== "" ? v : typeof v === "number" || typeof v === "bigint" ? String(v) : null;

function record(v: unknown): Record<string, unknown> {
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** The candidates a lookup's redacted evidence lists (lib/providers/classify.ts). */
export function candidatesOf(evidence: unknown): Candidate[] {
  const list = record(evidence).candidates;
  return Array.isArray(list) ? list.map((c) => record(c) as Candidate) : [];
}

/** The candidate the lookup settled on: the provider's result id, else the only one. */
export function citedCandidate(evidence: unknown, providerResultId: string | null): Candidate | null {
  const all = candidatesOf(evidence);
  return (
    all.find((c) => providerResultId !== null && c.id === providerResultId) ??
    (all.length === 1 ? all[0]! : null)
  );
}

function row(field: string, asked: string | null, said: string | null, same = asked === said): FieldRow {
  const mark: Mark = asked === null || said === null ? "missing" : same ? "match" : "mismatch";
  return { field, asked: asked ?? "—", said: said ?? "—", mark };
}

/** Rows for the fields this intent has; a field the provider did not state is "missing", never a match. */
export function compareFields(intent: AskedIntent, candidate: Candidate | null): FieldRow[] {
  const c = candidate ?? {};
  const summary = record(intent.requestSummary);
  const rows: FieldRow[] = [];
  if (intent.amountMinor !== null) {
    const asked = BigInt(intent.amountMinor);
    const saidMinor = text(c.amountMinor);
    const saidCurrency = text(c.currency)?.toUpperCase() ?? intent.currency;
    rows.push(
      row(
        "Amount",
        formatAmount(asked, intent.currency),
        saidMinor === null ? null : formatAmount(saidMinor, saidCurrency),
        saidMinor !== null && BigInt(saidMinor) === asked,
      ),
    );
  }
  if (intent.currency !== null) {
    const said = text(c.currency)?.toUpperCase() ?? null;
    rows.push(row("Currency", intent.currency.toUpperCase(), said));
  }
  const customer = text(summary.customer);
  if (customer !== null) rows.push(row("Customer", customer, text(c.customer)));
  if (intent.recipient !== null) rows.push(row("Recipient", intent.recipient, text(c.recipientMasked)));
  if (intent.template !== null) rows.push(row("Template", intent.template, text(c.template)));
  rows.push(row("Intent key", intent.intentKey, text(c.intentKey)));
  return rows;
}
