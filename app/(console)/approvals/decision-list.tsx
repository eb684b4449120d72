import Link from "next/link";
import { Time } from "@/components/time";
import type { Decision } from "@/lib/approvals/history";
import { intentPath } from "@/lib/format";
import { KIND_LABELS } from "@/lib/resolution/requests";

/** An approver's own decisions, each with where its request and intent stand now. */
export function DecisionList({ decisions, label }: { decisions: Decision[]; label: string }) {
  return (
    <ul
      aria-label={label}
      className="divide-y divide-slate-100 rounded border border-slate-200 bg-white text-sm"
    >
      {decisions.map((a) => {
        const r = a.resolution;
        const approved = r.approvals.filter((v) => v.decision === "approved").length;
        const now =
          r.status === "pending_approval"
            ? `waiting (${approved} of ${r.requiredApprovals} approvals)`
            : r.status.replace(/_/g, " ");
        return (
          <li key={a.id} className="flex flex-wrap gap-x-3 gap-y-1 p-3">
            <span>
              You {a.decision} <strong>{KIND_LABELS[r.kind]}</strong> of{" "}
              <Link
                className="font-mono text-xs break-all text-blue-800 underline"
                href={intentPath(r.intent)}
              >
                {r.intent.intentKey}
              </Link>{" "}
              at <Time value={a.createdAt} />
            </span>
            <span>
              Request: <strong>{now}</strong>; intent {r.intent.status}
            </span>
            <span className="text-slate-600">“{a.reason}”</span>
            <Link className="text-blue-800 underline" href={`/audit/resolutions/${r.id}`}>
              Story
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
