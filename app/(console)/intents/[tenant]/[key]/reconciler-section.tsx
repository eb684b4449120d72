import type { ReconcileMode, ReconcileState } from "@/prisma/generated/enums";
import { Time } from "@/components/time";
import type { IntentView } from "./load";

const STATE_WORDS: Record<ReconcileState, string> = {
  active: "Working on it",
  escalated: "Handed to people",
  settled: "Settled",
  dropped: "Not working on it",
};

const MODE_WORDS: Record<ReconcileMode, string> = {
  on: "On: it looks up and resolves on its own",
  dry_run: "Dry run: it looks up and records what it would do; people resolve",
  off: "Off: people resolve",
};

const ACTION_WORDS: Record<string, string> = {
  confirmed: "confirmed the receipt",
  confirm: "confirm the receipt",
  redispatched: "sent it again with its original key",
  redispatch: "send it again with its original key",
  retry_later: "will look again later",
  escalated: "handed it to people",
  escalate: "hand it to people",
  skipped: "skipped it",
};

/** "confirmed" → "Confirmed the receipt"; "would_confirm" → "Would confirm the receipt (dry run)". */
function actionWords(action: string): string {
  const wouldDo = action.startsWith("would_") ? action.slice("would_".length) : null;
  const words = ACTION_WORDS[wouldDo ?? action] ?? (wouldDo ?? action).replace(/_/g, " ");
  const sentence = wouldDo ? `would ${words.replace(/^will /, "")} (dry run)` : words;
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * What the automatic reconciler made of this intent: shown when it has taken the intent
 * up (a reconciliations row), beside the policy that lets it act for this tenant and provider.
 */
export function ReconcilerSection({ intent, policyMode }: { intent: IntentView; policyMode: ReconcileMode }) {
  const r = intent.reconciliation;
  if (!r) return null;
  const lastLookup = r.lastLookupId ? intent.lookups.find((l) => l.id === r.lastLookupId) : undefined;
  const outcome = r.lastOutcome?.replace(/_/g, " ");
  return (
    <section aria-labelledby="reconciler" className="rounded border border-sky-200 bg-white p-4">
      <h2 id="reconciler" className="mb-2 font-semibold">
        Reconciler
      </h2>
      <dl className="grid grid-cols-1 gap-y-1 text-sm sm:grid-cols-[12rem_1fr]">
        <dt className="text-slate-600">State</dt>
        <dd data-testid="reconciler-state" className="font-medium">
          {STATE_WORDS[r.state]}
        </dd>
        <dt className="text-slate-600">Policy</dt>
        <dd data-testid="reconciler-policy">{MODE_WORDS[policyMode]}</dd>
        <dt className="text-slate-600">Last lookup</dt>
        <dd>
          {!outcome ? (
            "None yet"
          ) : lastLookup ? (
            <a href={`#lookup-${lastLookup.id}`} className="text-blue-800 underline">
              {outcome} (<Time value={lastLookup.startedAt} precision="second" />)
            </a>
          ) : (
            outcome
          )}
        </dd>
        <dt className="text-slate-600">Last action</dt>
        <dd>
          {r.lastAction ? actionWords(r.lastAction) : "None yet"}
          {r.lastReason && <div className="text-slate-600">“{r.lastReason}”</div>}
        </dd>
        <dt className="text-slate-600">Tries</dt>
        <dd>
          {plural(r.tries, "lookup", "lookups")} · {plural(r.redispatches, "redispatch", "redispatches")}
        </dd>
        <dt className="text-slate-600">Last tried</dt>
        <dd>
          <Time value={r.lastTriedAt} precision="second" />
        </dd>
        <dt className="text-slate-600">Next try</dt>
        <dd data-testid="reconciler-next">
          {r.state === "active" ? <Time value={r.nextAt} precision="second" /> : "—"}
        </dd>
      </dl>
    </section>
  );
}
