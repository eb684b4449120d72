import Link from "next/link";
import { Time } from "@/components/time";
import type { Role } from "@/lib/auth/roles";
import { mayPerform } from "@/lib/auth/authorize";
import { formatAmount, intentPath } from "@/lib/format";
import { type Person, type WaitingRequest, whoMayStillDecide } from "@/lib/approvals/queue";
import { KIND_LABELS } from "@/lib/resolution/requests";
import { DecisionForm } from "./decision-form";
import { EvidenceTable } from "./evidence-table";

type Viewer = { id: string; roles: readonly Role[] };

/** Why this viewer sees no buttons, or null when they may decide. */
function whyNotYou(r: WaitingRequest, viewer: Viewer): string | null {
  if (!mayPerform(viewer.roles, "decide"))
    return "You hold the admin role, so you may not approve or deny (separation of duties).";
  if (r.proposedById === viewer.id) return "You proposed this: another approver must decide.";
  if (r.lookup?.actorId === viewer.id) return "You ran the lookup it rests on: another approver must decide.";
  return null;
}

/** One waiting request: what was asked beside what the provider said, the votes so far, and who may still decide. */
export function RequestCard({ r, viewer, onDuty }: { r: WaitingRequest; viewer: Viewer; onDuty: Person[] }) {
  const label = `${KIND_LABELS[r.kind]} ${r.intent.intentKey}`;
  const approved = r.approvals.filter((a) => a.decision === "approved");
  const myVote = r.approvals.find((a) => a.approverId === viewer.id);
  const mayDecide = whoMayStillDecide(r, onDuty);
  const notYou = whyNotYou(r, viewer);
  const left = r.requiredApprovals - approved.length;
  return (
    <li
      id={`request-${r.id}`}
      aria-label={label}
      className="rounded border border-slate-200 bg-white p-4 text-sm"
    >
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <h2 className="text-base font-semibold">{KIND_LABELS[r.kind]}</h2>
        <Link className="font-mono text-xs break-all text-blue-800 underline" href={intentPath(r.intent)}>
          {r.intent.intentKey}
        </Link>
        <span>{r.tenantId}</span>
        <span className="font-medium">
          {r.intent.amountMinor !== null
            ? formatAmount(r.intent.amountMinor, r.intent.currency)
            : r.intent.recipient}
        </span>
      </div>
      <p className="mt-1 text-slate-600">
        Proposed by {r.proposedBy.name} at <Time value={r.createdAt} /> · expires <Time value={r.expiresAt} />
      </p>
      <p className="mt-1">“{r.reason}”</p>
      <EvidenceTable r={r} />
      <dl className="mt-3 grid grid-cols-1 gap-x-4 gap-y-1 sm:grid-cols-[11rem_1fr]">
        <dt className="text-slate-600">Approvals so far</dt>
        <dd>
          {approved.length} of {r.requiredApprovals}
          {approved.map((a) => (
            <span key={a.id}>
              {" · "}
              {a.approver.name} at <Time value={a.createdAt} />
            </span>
          ))}
        </dd>
        <dt className="text-slate-600">May still decide</dt>
        <dd data-testid="may-decide">
          {mayDecide.length > 0
            ? mayDecide.map((p) => p.name).join(", ")
            : "No other approver is on duty: an admin must add one."}
          <span className="text-slate-600"> (not the proposer, the lookup&apos;s author, or who voted)</span>
        </dd>
      </dl>
      {notYou ? (
        <p className="mt-2 text-slate-600">{notYou}</p>
      ) : myVote ? (
        <p className="mt-2 text-slate-600">
          You {myVote.decision} at <Time value={myVote.createdAt} />: waiting for {left} more approver
          {left === 1 ? "" : "s"}.
        </p>
      ) : (
        <DecisionForm resolutionId={r.id} label={label} />
      )}
    </li>
  );
}
