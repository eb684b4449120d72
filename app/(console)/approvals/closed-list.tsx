import Link from "next/link";
import { Time } from "@/components/time";
import type { ClosedRequest } from "@/lib/approvals/history";
import { intentPath } from "@/lib/format";
import { KIND_LABELS } from "@/lib/resolution/requests";

/** "the intent changed (v3 → v4)" from the closing event's "intent changed (v3 → v4) after the proposal". */
function closedBecause({ request: r, why }: ClosedRequest): string {
  if (r.status === "expired") return "expired: the approval window passed";
  if (why)
    return `voided: ${why.replace(/^intent changed (\(.*\)) after the proposal$/, "the intent changed $1")}`;
  return `voided: the intent changed (v${r.intentVersion} → v${r.intent.version})`;
}

/** What became of the intent: truthful about an effect that was settled some other way meanwhile. */
function Since({ c }: { c: ClosedRequest }) {
  const { aftermath: a, request: r } = c;
  if (a?.by === "resolution")
    return (
      <>
        — it was already applied: {a.kind} proposed by {a.proposer}
        {a.approvers.length > 0 && `, approved by ${a.approvers.join(" and ")}`} at <Time value={a.at} />; the
        intent is now {r.intent.status}. Nothing is left to do.
      </>
    );
  if (a?.by === "event")
    return (
      <>
        — it was already settled by {a.actor} ({a.action} at <Time value={a.at} />
        ); the intent is now {a.status}. Nothing is left to do.
      </>
    );
  if (r.intent.status === "unknown")
    return (
      <>
        — nothing was applied and the intent is still unknown: an operator may{" "}
        <Link className="text-blue-800 underline" href={intentPath(r.intent)}>
          propose it again
        </Link>
        .
      </>
    );
  return <>— nothing was applied by this request; the intent is now {r.intent.status}.</>;
}

export function ClosedList({ closed }: { closed: ClosedRequest[] }) {
  return (
    <ul
      aria-label="Voided and expired requests"
      className="divide-y divide-slate-100 rounded border border-slate-200 bg-white text-sm"
    >
      {closed.map((c) => {
        const r = c.request;
        const approved = r.approvals.filter((a) => a.decision === "approved");
        return (
          <li key={r.id} className="space-y-1 p-3">
            <p className="flex flex-wrap gap-x-3">
              <strong>{KIND_LABELS[r.kind]}</strong>
              <Link
                className="font-mono text-xs break-all text-blue-800 underline"
                href={intentPath(r.intent)}
              >
                {r.intent.intentKey}
              </Link>
              <span>{r.tenantId}</span>
              <span className="text-slate-600">
                proposed by {r.proposedBy.name} at <Time value={r.createdAt} />, closed{" "}
                <Time value={r.decidedAt} />
              </span>
            </p>
            <p>“{r.reason}”</p>
            <p data-testid="closed-why">
              <span className="font-medium">{closedBecause(c)}</span> <Since c={c} />
            </p>
            <p className="text-slate-600">
              {approved.length} of {r.requiredApprovals} approvals
              {approved.length > 0 && ` (${approved.map((a) => a.approver.name).join(", ")})`}
              {" · "}
              <Link className="text-blue-800 underline" href={`/audit/resolutions/${r.id}`}>
                Story
              </Link>
            </p>
          </li>
        );
      })}
    </ul>
  );
}
