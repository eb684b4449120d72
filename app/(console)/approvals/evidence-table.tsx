import { ActorName } from "@/components/actor-name";
import { Time } from "@/components/time";
import { citedCandidate, compareFields, type Mark } from "@/lib/approvals/compare";
import type { WaitingRequest } from "@/lib/approvals/queue";

const MARKS: Record<Mark, { icon: string; text: string; className: string }> = {
  match: { icon: "✓", text: "match", className: "text-green-800" },
  mismatch: { icon: "✗", text: "mismatch", className: "font-semibold text-red-800" },
  missing: { icon: "–", text: "not stated", className: "text-slate-600" },
};

function MarkCell({ mark }: { mark: Mark }) {
  const m = MARKS[mark];
  return (
    <td className={`px-1 py-1 sm:px-2 whitespace-nowrap ${m.className}`} data-mark={mark}>
      <span aria-hidden="true">{m.icon}</span> {m.text}
    </td>
  );
}

/**
 * What was asked beside what the provider said, field by field, with a match mark each;
 * the lookup's raw (redacted) evidence one click away.
 */
export function EvidenceTable({ r }: { r: WaitingRequest }) {
  const { intent, lookup } = r;
  const candidate = lookup ? citedCandidate(lookup.evidence, lookup.providerResultId) : null;
  const rows = compareFields(intent, candidate);
  const label = `Evidence for ${intent.intentKey}`;
  return (
    <div className="mt-3 space-y-1">
      <div className="overflow-x-auto">
        <table aria-label={label} className="w-full border-collapse text-left text-xs sm:text-sm">
          <thead className="bg-slate-50 text-xs text-slate-600">
            <tr>
              <th scope="col" className="px-1 py-1 sm:px-2">
                Field
              </th>
              <th scope="col" className="px-1 py-1 sm:px-2">
                What was asked
              </th>
              <th scope="col" className="px-1 py-1 sm:px-2">
                What the provider said
              </th>
              <th scope="col" className="px-1 py-1 sm:px-2">
                Match
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            <tr>
              <th scope="row" className="px-1 py-1 sm:px-2 font-normal text-slate-600">
                Provider
              </th>
              <td className="px-1 py-1 sm:px-2">
                {intent.provider.name} · intent v{r.intentVersion}
              </td>
              <td className="px-1 py-1 sm:px-2">
                {lookup ? (
                  <>
                    <strong>{lookup.outcome.replace(/_/g, " ")}</strong> by lookup on{" "}
                    {lookup.method.replace(/_/g, " ")} ·{" "}
                    <ActorName name={lookup.actor?.name} system={lookup.actor?.system} /> at{" "}
                    <Time value={lookup.startedAt} />
                  </>
                ) : r.externalEvidenceRef ? (
                  <>External reference: {r.externalEvidenceRef}</>
                ) : intent.providerResultId ? (
                  <>No lookup cited; the intent was confirmed by the provider</>
                ) : (
                  "No lookup cited"
                )}
              </td>
              <td className="px-1 py-1 sm:px-2 text-slate-600">—</td>
            </tr>
            {(lookup || !r.externalEvidenceRef) &&
              rows.map((f) => (
                <tr key={f.field}>
                  <th scope="row" className="px-1 py-1 sm:px-2 font-normal text-slate-600">
                    {f.field}
                  </th>
                  <td className="px-1 py-1 sm:px-2 break-all">{f.asked}</td>
                  <td className="px-1 py-1 sm:px-2 break-all">{lookup ? f.said : "—"}</td>
                  <MarkCell mark={lookup ? f.mark : "missing"} />
                </tr>
              ))}
            <tr>
              <th scope="row" className="px-1 py-1 sm:px-2 font-normal text-slate-600">
                Provider result
              </th>
              <td className="px-1 py-1 sm:px-2 font-mono text-xs">{intent.providerResultId ?? "—"}</td>
              <td className="px-1 py-1 sm:px-2 font-mono text-xs">
                {lookup?.providerResultId ?? r.providerResultId ?? "—"}
                {typeof candidate?.status === "string" && ` (${candidate.status})`}
              </td>
              <td className="px-1 py-1 sm:px-2 text-slate-600">—</td>
            </tr>
          </tbody>
        </table>
      </div>
      {lookup && (
        <details>
          <summary className="cursor-pointer text-xs text-blue-800 underline">
            Raw evidence (redacted) from the provider
          </summary>
          <pre className="mt-1 max-h-72 overflow-auto rounded bg-slate-50 p-2 text-xs">
            {JSON.stringify(lookup.evidence, null, 2)}
          </pre>
        </details>
      )}
    </div>
  );
}
