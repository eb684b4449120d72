import type { Metadata } from "next";
import Link from "next/link";
import { ActorName } from "@/components/actor-name";
import { requirePageRole } from "@/lib/auth/session";
import { db } from "@/lib/db";
import { formatAge, formatAmount, formatUtc, intentPath } from "@/lib/format";
import { screenRoles } from "@/lib/nav";
import { closeStaleRequests } from "@/lib/resolution/approvals";
import { mayPerform } from "@/lib/auth/authorize";
import { KIND_LABELS } from "@/lib/resolution/requests";
import { DecisionForm } from "./decision-form";

export const metadata: Metadata = { title: "Approvals" };

const time = (d: Date) => formatUtc(d, "minute");

async function loadQueue(userId: string) {
  const now = new Date();
  // Requests past their window, or whose intent changed, leave the queue (each closing audited).
  await closeStaleRequests(db, now);
  const pending = await db.resolution.findMany({
    where: { status: "pending_approval" },
    orderBy: { createdAt: "asc" },
    include: {
      intent: { include: { provider: { select: { name: true } } } },
      proposedBy: { select: { name: true, email: true } },
      lookup: { include: { actor: { select: { name: true, system: true } } } },
      approvals: { include: { approver: { select: { name: true } } } },
    },
  });
  const mine = await db.approval.findMany({
    where: { approverId: userId, createdAt: { gte: new Date(now.getTime() - 24 * 3_600_000) } },
    orderBy: { createdAt: "desc" },
    take: 20,
    include: {
      resolution: {
        include: {
          intent: { select: { tenantId: true, intentKey: true, status: true } },
          approvals: { select: { decision: true } },
        },
      },
    },
  });
  return { now, pending, mine };
}

export default async function ApprovalsPage() {
  const user = await requirePageRole(screenRoles("/approvals"), "/approvals");
  const { now, pending, mine } = await loadQueue(user.id);
  const mayDecide = mayPerform(user.roles, "decide");
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold">Approvals</h1>
        <p className="text-sm text-slate-600">
          Resolutions above a threshold wait here for a second person. You see the exact evidence the proposer
          cited. You cannot approve what you proposed or looked up yourself.
        </p>
      </div>
      {pending.length === 0 && (
        <p className="rounded border border-slate-200 bg-white p-6 text-center text-slate-600">
          Nothing waits for approval.
        </p>
      )}
      <ul className="space-y-4" aria-label="Pending resolutions">
        {pending.map((r) => {
          const changed = r.intent.version !== r.intentVersion;
          const own = r.proposedById === user.id || r.lookup?.actorId === user.id;
          const myVote = r.approvals.find((a) => a.approverId === user.id);
          const approvedBy = r.approvals.filter((a) => a.decision === "approved").map((a) => a.approver.name);
          return (
            <li
              key={r.id}
              id={`request-${r.id}`}
              aria-label={`${r.kind.replace(/_/g, " ")} ${r.intent.intentKey}`}
              className="rounded border border-slate-200 bg-white p-4 text-sm"
            >
              <div className="flex flex-wrap items-baseline gap-3">
                <h2 className="text-base font-semibold">{r.kind.replace(/_/g, " ")}</h2>
                <Link
                  className="font-mono text-xs text-blue-800 underline"
                  href={intentPath({ tenantId: r.tenantId, intentKey: r.intent.intentKey })}
                >
                  {r.intent.intentKey}
                </Link>
                <span>{r.tenantId}</span>
                <span className="font-medium">
                  {r.intent.amountMinor !== null
                    ? formatAmount(r.intent.amountMinor, r.intent.currency)
                    : r.intent.recipient}
                </span>
                <span className="text-slate-600">
                  proposed {formatAge(now.getTime() - r.createdAt.getTime())} ago by {r.proposedBy.name} ·
                  expires {r.expiresAt ? time(r.expiresAt) : "never"}
                </span>
              </div>
              <p className="mt-1">“{r.reason}”</p>
              <dl className="mt-2 grid grid-cols-[11rem_1fr] gap-y-1">
                <dt className="text-slate-600">Intent now</dt>
                <dd className={changed ? "font-medium text-red-800" : ""}>
                  {r.intent.status} (version {r.intent.version}
                  {changed
                    ? `, proposed on version ${r.intentVersion}: changed since — approval would be void`
                    : ""}
                  )
                </dd>
                <dt className="text-slate-600">Approvals</dt>
                <dd>
                  {approvedBy.length}/{r.requiredApprovals}
                  {approvedBy.length > 0 && ` (${approvedBy.join(", ")})`}
                </dd>
                <dt className="text-slate-600">Evidence</dt>
                <dd>
                  {r.lookup ? (
                    <>
                      Lookup by {r.lookup.method.replace(/_/g, " ")}:{" "}
                      <strong>{r.lookup.outcome.replace(/_/g, " ")}</strong> ·{" "}
                      <ActorName name={r.lookup.actor?.name} system={r.lookup.actor?.system} /> at{" "}
                      {time(r.lookup.startedAt)}
                      {r.lookup.providerResultId && (
                        <span className="ml-1 font-mono text-xs">{r.lookup.providerResultId}</span>
                      )}
                      <details>
                        <summary className="cursor-pointer text-xs text-slate-600">
                          What the provider said
                        </summary>
                        <pre className="mt-1 overflow-x-auto rounded bg-slate-50 p-2 text-xs">
                          {JSON.stringify(r.lookup.evidence, null, 2)}
                        </pre>
                      </details>
                    </>
                  ) : r.externalEvidenceRef ? (
                    <>External reference: {r.externalEvidenceRef}</>
                  ) : (
                    "None cited"
                  )}
                </dd>
              </dl>
              {!mayDecide ? (
                <p className="mt-2 text-slate-600">
                  You hold the admin role, so you may not approve or deny (separation of duties).
                </p>
              ) : own ? (
                <p className="mt-2 text-slate-600">
                  You proposed this or ran its lookup: another approver must decide.
                </p>
              ) : myVote ? (
                <p className="mt-2 text-slate-600">
                  You approved at {time(myVote.createdAt)}: waiting for{" "}
                  {r.requiredApprovals - approvedBy.length} more approver
                  {r.requiredApprovals - approvedBy.length === 1 ? "" : "s"}.
                </p>
              ) : (
                <DecisionForm
                  resolutionId={r.id}
                  label={`${r.kind.replace(/_/g, " ")} ${r.intent.intentKey}`}
                />
              )}
            </li>
          );
        })}
      </ul>
      {mine.length > 0 && (
        <section aria-labelledby="mine-heading" className="space-y-2">
          <h2 id="mine-heading" className="text-lg font-semibold">
            Your decisions in the last 24 hours
          </h2>
          <ul
            aria-label="Your recent decisions"
            className="divide-y divide-slate-100 rounded border border-slate-200 bg-white text-sm"
          >
            {mine.map((a) => {
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
                    <Link className="font-mono text-xs text-blue-800 underline" href={intentPath(r.intent)}>
                      {r.intent.intentKey}
                    </Link>{" "}
                    at {time(a.createdAt)}
                  </span>
                  <span>
                    Request: <strong>{now}</strong>; intent {r.intent.status}
                  </span>
                  <Link className="text-blue-800 underline" href={`/audit/resolutions/${r.id}`}>
                    Story
                  </Link>
                </li>
              );
            })}
          </ul>
        </section>
      )}
    </div>
  );
}
