"use client";

import { useState } from "react";
import { postJson } from "@/components/post-json";
import { bulkAcceptAction } from "./actions";
import type { InboxRowJson } from "./types";

type LookupState = { outcome: string; lookupId: string | null; error: string | null };
type AcceptResult = { intentId: string; outcome: string; message: string | null };

const OUTCOME_LABELS: Record<string, string> = {
  found_matching: "found matching",
  found_conflicting: "found conflicting",
  multiple_found: "multiple found",
  absent: "absent",
  not_visible_yet: "not visible yet",
  inconclusive: "inconclusive",
};

/** Bulk lookups with progress, then one-step acceptance of every exact match under the threshold. */
export function BulkBar({
  rows,
  onDone,
  onClear,
}: {
  rows: InboxRowJson[];
  onDone: () => void;
  onClear: () => void;
}) {
  const [lookups, setLookups] = useState<Map<string, LookupState>>(new Map());
  const [running, setRunning] = useState(false);
  const [reason, setReason] = useState("");
  const [accepting, setAccepting] = useState(false);
  const [acceptResults, setAcceptResults] = useState<AcceptResult[] | null>(null);
  const [submissionKey] = useState(() => crypto.randomUUID());
  const done = rows.filter((r) => lookups.has(r.id)).length;
  const matching = rows.filter((r) => lookups.get(r.id)?.outcome === "found_matching");

  async function lookUpAll() {
    setRunning(true);
    setAcceptResults(null);
    const queue = [...rows];
    // Two at a time; the server paces each provider to its own rate limit.
    const worker = async () => {
      for (let row = queue.shift(); row; row = queue.shift()) {
        const method = row.provider.supportsIdempotency ? "idempotency_key" : "domain_attributes";
        let state: LookupState;
        try {
          const { lookup } = await postJson<{ lookup: { id: string; outcome: string } }>(
            `/api/intents/${row.id}/lookups`,
            { tenantId: row.tenantId, method },
          );
          state = { outcome: lookup.outcome, lookupId: lookup.id, error: null };
        } catch (error) {
          state = { outcome: "error", lookupId: null, error: (error as Error).message };
        }
        setLookups((m) => new Map(m).set(row.id, state));
      }
    };
    await Promise.all([worker(), worker()]);
    setRunning(false);
  }

  async function acceptMatching() {
    setAccepting(true);
    try {
      const result = await bulkAcceptAction({
        reason,
        submissionKey,
        items: matching.map((r) => ({
          intentId: r.id,
          lookupId: lookups.get(r.id)!.lookupId!,
          expectedVersion: r.version,
        })),
      });
      if (!result.data)
        throw new Error(
          result.serverError?.message ??
            Object.values(result.validationErrors?.fieldErrors ?? {})[0]?.[0] ??
            "Nothing was accepted.",
        );
      setAcceptResults(result.data.results);
    } catch (error) {
      setAcceptResults([{ intentId: "", outcome: "refused", message: (error as Error).message }]);
    }
    setAccepting(false);
    onDone();
  }

  const counts = new Map<string, number>();
  for (const s of lookups.values()) counts.set(s.outcome, (counts.get(s.outcome) ?? 0) + 1);

  return (
    <section
      aria-label="Bulk actions"
      className="space-y-2 rounded border border-blue-200 bg-blue-50 p-3 text-sm"
    >
      <div className="flex flex-wrap items-center gap-3">
        <strong>{rows.length} selected</strong>
        <button
          type="button"
          disabled={running}
          onClick={() => void lookUpAll()}
          className="rounded bg-blue-700 px-3 py-1 font-medium text-white disabled:opacity-60"
        >
          {running ? "Looking up…" : `Look up ${rows.length} selected`}
        </button>
        <button type="button" onClick={onClear} className="underline">
          Clear selection
        </button>
        {(running || done > 0) && (
          <div className="flex items-center gap-2">
            <progress
              role="progressbar"
              aria-label="Bulk lookup progress"
              aria-valuenow={done}
              aria-valuemax={rows.length}
              value={done}
              max={rows.length}
              className="w-40"
            />
            <span aria-live="polite">
              {done}/{rows.length} looked up
            </span>
          </div>
        )}
      </div>
      {done > 0 && (
        <p>{[...counts].map(([outcome, n]) => `${n} ${OUTCOME_LABELS[outcome] ?? outcome}`).join(" · ")}</p>
      )}
      {!running && matching.length > 0 && !acceptResults && (
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            void acceptMatching();
          }}
        >
          <label className="flex flex-col">
            <span className="text-xs text-slate-600">
              Reason for accepting all {matching.length} exact matches
            </span>
            <input
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              required
              minLength={5}
              maxLength={2000}
              className="w-96 rounded border border-slate-300 px-2 py-1"
            />
          </label>
          <button
            type="submit"
            disabled={accepting || reason.trim().length < 5}
            className="rounded bg-green-700 px-3 py-1 font-medium text-white disabled:opacity-60"
          >
            {accepting ? "Accepting…" : `Accept ${matching.length} found matching`}
          </button>
          <span className="text-xs text-slate-600">
            Those that need an approver are skipped and stay in the inbox.
          </span>
        </form>
      )}
      {acceptResults && (
        <p role="status">
          {acceptResults.filter((r) => r.outcome === "applied").length} accepted ·{" "}
          {acceptResults.filter((r) => r.outcome === "needs_approval").length} need approval (skipped) ·{" "}
          {acceptResults.filter((r) => r.outcome === "refused").length} refused
          {acceptResults.find((r) => r.outcome === "refused")?.message
            ? ` (${acceptResults.find((r) => r.outcome === "refused")!.message})`
            : ""}
        </p>
      )}
    </section>
  );
}
