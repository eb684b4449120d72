import { ActorName } from "@/components/actor-name";
import { EvidenceComparison } from "@/components/evidence-comparison";
import { Time } from "@/components/time";
import { compareCandidate, parseEvidence, type AskedFor } from "@/lib/providers/comparison";
import type { IntentView } from "./load";
import { SettledNote, type Settled } from "./settled-note";

type LookupView = IntentView["lookups"][number];

/** What the ledger asked for, as the comparison reads it. */
function askedFor(intent: IntentView): AskedFor {
  const starts = intent.attempts.map((a) => a.startedAt.getTime());
  const first = starts.length ? Math.min(...starts) : intent.createdAt.getTime();
  const last = starts.length ? Math.max(...starts) : (intent.lastAttemptAt ?? intent.createdAt).getTime();
  return {
    intentKey: intent.intentKey,
    amountMinor: intent.amountMinor,
    currency: intent.currency,
    recipient: intent.recipient,
    template: intent.template,
    requestSummary: intent.requestSummary,
    providerKind: intent.provider.kind,
    firstAttemptAt: new Date(first),
    lastAttemptAt: new Date(last),
    responseWindowSeconds: intent.provider.responseWindowSeconds,
  };
}

/** One lookup's evidence: each candidate compared with the request, and the raw (redacted) snapshot. */
function LookupEvidence({ lookup, asked }: { lookup: LookupView; asked: AskedFor }) {
  const evidence = parseEvidence(lookup.evidence);
  return (
    <div className="mt-2 space-y-2">
      {evidence.candidates.length === 0 ? (
        <p className="text-xs text-slate-700">
          The provider reported no effect{evidence.reason ? `: ${evidence.reason}` : ""}.
        </p>
      ) : (
        evidence.candidates.map((c, i) => (
          <EvidenceComparison
            key={`${c.id}-${i}`}
            caption={`${evidence.candidates.length > 1 ? `Candidate ${i + 1} of ${evidence.candidates.length}: ` : ""}${c.id}, beside what the ledger asked`}
            rows={compareCandidate(asked, c)}
          />
        ))
      )}
      {evidence.query && (
        <p className="text-xs break-all text-slate-600">
          Asked: <span className="font-mono">{evidence.query}</span>
        </p>
      )}
      <details>
        <summary className="cursor-pointer text-xs text-slate-600">
          Raw evidence (redacted; response digest {lookup.responseDigest?.slice(0, 12) ?? "—"}…)
        </summary>
        <pre className="mt-1 overflow-x-auto rounded bg-slate-50 p-2 text-xs">
          {JSON.stringify(lookup.evidence, null, 2)}
        </pre>
      </details>
    </div>
  );
}

export function LookupHistory({ intent, settled }: { intent: IntentView; settled: Settled | null }) {
  const asked = askedFor(intent);
  return (
    <section aria-labelledby="lookups" className="rounded border border-slate-200 bg-white p-4">
      <h2 id="lookups" className="mb-2 font-semibold">
        Lookups
      </h2>
      {settled ? (
        <p className="mb-2 rounded bg-slate-50 p-2 text-sm text-slate-800" data-testid="settled-note">
          <SettledNote settled={settled} />
        </p>
      ) : (
        intent.lookups.length === 0 && (
          <p className="text-sm text-slate-600">No lookup yet. Ask the provider before resolving.</p>
        )
      )}
      <ol className="space-y-2" aria-label="Lookup history">
        {intent.lookups.map((l, i) => (
          // Anchored, so the reconciler's section can point at the lookup it decided on.
          <li
            key={l.id}
            id={`lookup-${l.id}`}
            className="scroll-mt-4 rounded border border-slate-100 p-2 text-sm target:border-sky-400"
          >
            <div className="flex flex-wrap gap-x-2">
              {i === 0 && <span className="text-slate-600">Latest:</span>}
              <strong data-testid="lookup-outcome">{l.outcome.replace(/_/g, " ")}</strong>
              <span>by {l.method.replace(/_/g, " ")}</span>
              <span className="text-slate-600">
                <Time value={l.startedAt} precision="second" /> ·{" "}
                <ActorName name={l.actor?.name} system={l.actor?.system} />
              </span>
              {l.providerResultId && <span className="font-mono text-xs">{l.providerResultId}</span>}
              {l.errorClass && <span className="text-red-800">{l.errorClass}</span>}
            </div>
            {i === 0 ? (
              <LookupEvidence lookup={l} asked={asked} />
            ) : (
              <details>
                <summary className="cursor-pointer text-xs text-slate-600">Compare with the request</summary>
                <LookupEvidence lookup={l} asked={asked} />
              </details>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
