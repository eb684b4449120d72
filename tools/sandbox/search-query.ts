/**
 * A subset of Stripe's search query language, enough for lookups:
 *   metadata['intent_key']:'x' AND customer:'cus_1' AND amount:1200 AND created>=1700000000
 * Clauses are joined by AND; values are quoted strings or numbers.
 */
export type Clause = {
  field: string;
  metadataKey?: string;
  op: ":" | ">" | "<" | ">=" | "<=";
  value: string;
};

const CLAUSE = /^\s*(metadata\['([^']+)'\]|[a-z_]+)\s*(>=|<=|:|>|<)\s*('(?:[^'\\]|\\.)*'|-?\d+)\s*$/i;

export class SearchQueryError extends Error {}

export function parseSearchQuery(query: string): Clause[] {
  if (!query.trim()) throw new SearchQueryError("query must not be empty");
  return query.split(/\s+AND\s+/).map((text) => {
    const m = CLAUSE.exec(text);
    if (!m) throw new SearchQueryError(`cannot parse clause: ${text.trim()}`);
    const raw = m[4]!;
    const value = raw.startsWith("'") ? raw.slice(1, -1).replace(/\\(.)/g, "$1") : raw;
    return m[2]
      ? { field: "metadata", metadataKey: m[2], op: m[3] as Clause["op"], value }
      : { field: m[1]!.toLowerCase(), op: m[3] as Clause["op"], value };
  });
}

export function matchesClauses(record: Record<string, unknown>, clauses: Clause[]): boolean {
  return clauses.every((c) => {
    const actual =
      c.field === "metadata"
        ? (record.metadata as Record<string, string> | undefined)?.[c.metadataKey!]
        : record[c.field];
    if (actual === undefined || actual === null) return false;
    if (c.op === ":") return String(actual).toLowerCase() === c.value.toLowerCase();
    const a = Number(actual);
    const b = Number(c.value);
    return c.op === ">" ? a > b : c.op === "<" ? a < b : c.op === ">=" ? a >= b : a <= b;
  });
}
