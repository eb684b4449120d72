"use client";

import { useState } from "react";
import { postJson } from "@/components/post-json";
import { bulkAcceptAction, bulkMarkRejectedAction, type BulkItemResult } from "./actions";
import { BulkResolveForm } from "./bulk-resolve-form";
import { BulkRows, outcomeLabel, type LookupState, type RowResult } from "./bulk-rows";
import type { InboxRowJson } from "./types";

type Kind = RowResult["kind"];

/**
 * Bulk lookups with progress; then, with one reason, acceptance of every exact match or
 * rejection of every row proven absent while the provider keeps its key — those that
 * need an approver are skipped. Every row shows its own outcome until dismissed.
 */
export function BulkBar({
  rows,
  now,
  onDone,
  onDismiss,
}: {
  rows: InboxRowJson[];
  /** The server's time of the inbox page (deadlines are judged by it). */
  now: number;
  onDone: () => void;
  onDismiss: (ids: string[]) => void;
}) {
  const [lookups, setLookups] = useState<Map<string, LookupState>>(new Map());
  const [results, setResults] = useState<Map<string, RowResult>>(new Map());
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [summary, setSummary] = useState<string | null>(null);
  // One submission key per kind and run: a retried bulk run applies nothing twice.
  const [keys, setKeys] = useState(() => ({ accept: crypto.randomUUID(), reject: crypto.randomUUID() }));
  const open = rows.filter((r) => results.get(r.id)?.outcome !== "applied");
  const done = open.filter((r) => lookups.has(r.id)).length;
  const pending = (r: InboxRowJson) => !results.has(r.id);
  const matching = open.filter((r) => pending(r) && lookups.get(r.id)?.outcome === "found_matching");
  // Absent proves a retry safe only while the provider keeps the key (lib/resolution/rules.ts).
  const absent = open.filter(
    (r) =>
      pending(r) &&
      lookups.get(r.id)?.outcome === "absent" &&
      (r.actBefore === null || Date.parse(r.actBefore) > now),
  );
  const settled = rows.filter((r) => results.get(r.id)?.outcome === "applied").map((r) => r.id);

  async function lookUpAll() {
    setRunning(true);
    setResults((m) => new Map([...m].filter(([, r]) => r.outcome === "applied")));
    const queue = [...open];
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
        } catch (e) {
          state = { outcome: "error", lookupId: null, error: (e as Error).message };
        }
        setLookups((m) => new Map(m).set(row.id, state));
      }
    };
    setLookups((m) => new Map([...m].filter(([id]) => !queue.some((r) => r.id === id))));
    await Promise.all([worker(), worker()]);
    setRunning(false);
  }

  async function resolve(kind: Kind, items: InboxRowJson[], reason: string) {
    setError(null);
    const run = kind === "accept" ? bulkAcceptAction : bulkMarkRejectedAction;
    const result = await run({
      reason,
      submissionKey: keys[kind],
      items: items.map((r) => ({
        intentId: r.id,
        lookupId: lookups.get(r.id)!.lookupId!,
        expectedVersion: r.version,
      })),
    });
    if (result?.data) {
      const answered: BulkItemResult[] = result.data.results;
      setResults((m) => {
        const next = new Map(m);
        for (const a of answered) next.set(a.intentId, { kind, outcome: a.outcome, message: a.message });
        return next;
      });
      setKeys((k) => ({ ...k, [kind]: crypto.randomUUID() }));
      const n = (outcome: string) => answered.filter((a) => a.outcome === outcome).length;
      setSummary(
        `${n("applied")} ${kind === "accept" ? "accepted" : "marked rejected"} · ${n("needs_approval")} need approval (skipped) · ${n("refused")} refused`,
      );
    } else
      setError(
        result?.serverError?.message ??
          Object.values(result?.validationErrors?.fieldErrors ?? {})[0]?.[0] ??
          "Nothing was resolved.",
      );
    onDone();
  }

  const counts = new Map<string, number>();
  for (const r of open) {
    const s = lookups.get(r.id);
    if (s) counts.set(s.outcome, (counts.get(s.outcome) ?? 0) + 1);
  }

  return (
    <section
      aria-label="Bulk actions"
      className="space-y-2 rounded border border-blue-200 bg-blue-50 p-3 text-sm"
    >
      <div className="flex flex-wrap items-center gap-3">
        <strong>{rows.length} selected</strong>
        {open.length > 0 && (
          <button
            type="button"
            disabled={running}
            onClick={() => void lookUpAll()}
            className="rounded bg-blue-700 px-3 py-1 font-medium text-white disabled:opacity-60"
          >
            {running ? "Looking up…" : `Look up ${open.length} selected`}
          </button>
        )}
        <button
          type="button"
          disabled={settled.length === 0}
          onClick={() => onDismiss(settled)}
          className="underline disabled:no-underline disabled:opacity-60"
        >
          Dismiss all settled
        </button>
        <button type="button" onClick={() => onDismiss(rows.map((r) => r.id))} className="underline">
          Clear selection
        </button>
        {(running || done > 0) && (
          <div className="flex items-center gap-2">
            <progress aria-label="Bulk lookup progress" value={done} max={open.length} className="w-40" />
            <span aria-live="polite">
              {done}/{open.length} looked up
            </span>
          </div>
        )}
      </div>
      {done > 0 && <p>{[...counts].map(([outcome, n]) => `${n} ${outcomeLabel(outcome)}`).join(" · ")}</p>}
      {!running && matching.length > 0 && (
        <BulkResolveForm
          label={`accepting all ${matching.length} exact matches`}
          action={`Accept ${matching.length} found matching`}
          tone="bg-green-700"
          onSubmit={(reason) => resolve("accept", matching, reason)}
        />
      )}
      {!running && absent.length > 0 && (
        <BulkResolveForm
          label={`marking all ${absent.length} absent rejected`}
          action={`Mark ${absent.length} absent rejected`}
          tone="bg-purple-700"
          onSubmit={(reason) => resolve("reject", absent, reason)}
        />
      )}
      {(matching.length > 0 || absent.length > 0) && (
        <p className="text-xs text-slate-600">
          Each is its own audited resolution; those that need an approver are skipped.
        </p>
      )}
      {summary && <p role="status">{summary}</p>}
      {error && (
        <p role="alert" className="text-red-800">
          {error}
        </p>
      )}
      <BulkRows rows={rows} lookups={lookups} results={results} onDismiss={(id) => onDismiss([id])} />
    </section>
  );
}
