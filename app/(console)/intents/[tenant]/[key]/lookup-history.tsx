import { ActorName } from "@/components/actor-name";
import { formatUtc } from "@/lib/format";
import type { IntentView } from "./load";

const time = formatUtc;

export function LookupHistory({ intent }: { intent: IntentView }) {
  return (
    <section aria-labelledby="lookups" className="rounded border border-slate-200 bg-white p-4">
      <h2 id="lookups" className="mb-2 font-semibold">
        Lookups
      </h2>
      {intent.lookups.length === 0 && (
        <p className="text-sm text-slate-600">No lookup yet. Ask the provider before resolving.</p>
      )}
      <ol className="space-y-2" aria-label="Lookup history">
        {intent.lookups.map((l) => (
          // Anchored, so the reconciler's section can point at the lookup it decided on.
          <li
            key={l.id}
            id={`lookup-${l.id}`}
            className="scroll-mt-4 rounded border border-slate-100 p-2 text-sm target:border-sky-400"
          >
            <div className="flex flex-wrap gap-2">
              <strong data-testid="lookup-outcome">{l.outcome.replace(/_/g, " ")}</strong>
              <span>by {l.method.replace(/_/g, " ")}</span>
              <span className="text-slate-600">
                {time(l.startedAt)} · <ActorName name={l.actor?.name} system={l.actor?.system} />
              </span>
              {l.providerResultId && <span className="font-mono text-xs">{l.providerResultId}</span>}
              {l.errorClass && <span className="text-red-800">{l.errorClass}</span>}
            </div>
            <details>
              <summary className="cursor-pointer text-xs text-slate-600">
                Evidence (response digest {l.responseDigest?.slice(0, 12) ?? "—"}…)
              </summary>
              <pre className="mt-1 overflow-x-auto rounded bg-slate-50 p-2 text-xs">
                {JSON.stringify(l.evidence, null, 2)}
              </pre>
            </details>
          </li>
        ))}
      </ol>
    </section>
  );
}
