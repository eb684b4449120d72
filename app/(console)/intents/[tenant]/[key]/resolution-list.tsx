import Link from "next/link";
import { Time } from "@/components/time";
import { ActorName } from "@/components/actor-name";
import { StatusBadge } from "@/components/status-badge";
import { intentPath } from "@/lib/format";
import type { IntentView } from "./load";

export function ResolutionList({ intent }: { intent: IntentView }) {
  if (intent.compensations.length === 0 && intent.resolutions.length === 0) return null;
  return (
    <section aria-labelledby="resolutions" className="rounded border border-slate-200 bg-white p-4">
      <h2 id="resolutions" className="mb-2 font-semibold">
        Resolutions and compensations
      </h2>
      <ul className="space-y-1 text-sm">
        {intent.resolutions.map((r) => (
          <li key={r.id}>
            <strong>{r.kind.replace(/_/g, " ")}</strong> — {r.status.replace(/_/g, " ")} · proposed by{" "}
            <ActorName name={r.proposedBy.name} system={r.proposedBy.system} /> at{" "}
            <Time value={r.createdAt} precision="second" />
            {r.requiredApprovals > 0 &&
              ` · ${r.approvals.filter((a) => a.decision === "approved").length}/${r.requiredApprovals} approvals`}
            <div className="text-slate-600">“{r.reason}”</div>
          </li>
        ))}
        {intent.compensations.map((c) => (
          <li key={c.intentKey}>
            Compensation{" "}
            <Link className="font-mono text-xs text-blue-800 underline" href={intentPath(c)}>
              {c.intentKey}
            </Link>{" "}
            <StatusBadge status={c.status} />
          </li>
        ))}
      </ul>
    </section>
  );
}
