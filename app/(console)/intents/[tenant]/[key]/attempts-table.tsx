import type { IntentView } from "./load";
import { Time } from "@/components/time";

export function AttemptsTable({ intent }: { intent: IntentView }) {
  return (
    <section aria-labelledby="attempts" className="rounded border border-slate-200 bg-white p-4">
      <h2 id="attempts" className="mb-2 font-semibold">
        Attempts
      </h2>
      <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Attempts, scrollable">
        <table className="w-full text-sm" aria-label="Attempts">
          <thead>
            <tr className="text-left text-xs text-slate-600">
              <th className="py-1">#</th>
              <th>Worker</th>
              <th>Started</th>
              <th>Finished</th>
              <th>Outcome</th>
              <th>Error class</th>
              <th>Provider request</th>
            </tr>
          </thead>
          <tbody>
            {intent.attempts.map((a) => (
              <tr key={a.id} className="border-t border-slate-100">
                <td className="py-1">{a.attemptNo}</td>
                <td className="font-mono text-xs">{a.leaseOwner}</td>
                <td>
                  <Time value={a.startedAt} precision="second" />
                </td>
                <td>
                  <Time value={a.finishedAt} precision="second" />
                </td>
                <td>{a.outcome.replace(/_/g, " ")}</td>
                <td>{a.errorClass ?? "—"}</td>
                <td className="font-mono text-xs">{a.providerRequestId ?? "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
