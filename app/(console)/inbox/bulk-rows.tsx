"use client";

import Link from "next/link";
import { intentPath } from "@/lib/format";
import type { InboxRowJson } from "./types";

export type LookupState = { outcome: string; lookupId: string | null; error: string | null };
export type RowResult = { kind: "accept" | "reject"; outcome: string; message: string | null };

const OUTCOME_LABELS: Record<string, string> = {
  found_matching: "found matching",
  found_conflicting: "found conflicting",
  multiple_found: "multiple found",
  absent: "absent",
  not_visible_yet: "not visible yet",
  inconclusive: "inconclusive",
};

export const outcomeLabel = (outcome: string) => OUTCOME_LABELS[outcome] ?? outcome;

function resultText(r: RowResult): string {
  if (r.outcome === "applied") return r.kind === "accept" ? "accepted" : "marked rejected";
  if (r.outcome === "needs_approval") return "needs approval (skipped)";
  return `refused${r.message ? `: ${r.message}` : ""}`;
}

/** Each selected row with its own lookup outcome and then its resolution result, until dismissed. */
export function BulkRows({
  rows,
  lookups,
  results,
  onDismiss,
}: {
  rows: InboxRowJson[];
  lookups: Map<string, LookupState>;
  results: Map<string, RowResult>;
  onDismiss: (id: string) => void;
}) {
  return (
    <table aria-label="Selected intents" className="w-full text-xs">
      <thead>
        <tr className="text-left text-slate-600">
          <th scope="col" className="p-1">
            Intent
          </th>
          <th scope="col" className="p-1">
            Lookup
          </th>
          <th scope="col" className="p-1">
            Result
          </th>
          <th scope="col" className="p-1">
            <span className="sr-only">Dismiss</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => {
          const lookup = lookups.get(row.id);
          const result = results.get(row.id);
          return (
            <tr key={row.id} className="border-t border-blue-100">
              <td className="max-w-72 truncate p-1">
                <Link
                  href={intentPath(row)}
                  title={row.intentKey}
                  className="font-mono text-blue-800 underline"
                >
                  {row.intentKey}
                </Link>
              </td>
              <td className="p-1" data-testid="bulk-lookup">
                {lookup ? (lookup.error ? `failed: ${lookup.error}` : outcomeLabel(lookup.outcome)) : "—"}
              </td>
              <td
                className={`p-1 ${result?.outcome === "refused" ? "text-red-800" : ""}`}
                data-testid="bulk-result"
              >
                {result ? resultText(result) : "—"}
              </td>
              <td className="p-1 text-right">
                <button
                  type="button"
                  className="underline"
                  aria-label={`Dismiss ${row.intentKey}`}
                  onClick={() => onDismiss(row.id)}
                >
                  Dismiss
                </button>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
