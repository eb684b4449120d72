import { screenRoles } from "@/lib/nav";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { z } from "zod";
import { ActorName } from "@/components/actor-name";
import { Time } from "@/components/time";
import { requirePageRole } from "@/lib/auth/session";
import { db } from "@/lib/db";
import { formatAmount, formatDuration, intentPath } from "@/lib/format";

export const metadata: Metadata = { title: "Resolution story" };

type Props = { params: Promise<{ id: string }> };

const time = (d: Date | null) => <Time value={d} precision="second" />;

/** One resolution's whole story: who proposed what, on which evidence, who approved, when, and what happened. */
export default async function ResolutionStory({ params }: Props) {
  const { id } = await params;
  await requirePageRole(screenRoles("/audit/resolutions/[id]"), `/audit/resolutions/${id}`);
  if (!z.uuid().safeParse(id).success) notFound();
  const r = await db.resolution.findUnique({
    where: { id },
    include: {
      intent: { include: { provider: { select: { name: true } } } },
      proposedBy: { select: { name: true, email: true, system: true } },
      lookup: { include: { actor: { select: { name: true, email: true, system: true } } } },
      approvals: {
        orderBy: { createdAt: "asc" },
        include: { approver: { select: { name: true, email: true } } },
      },
    },
  });
  if (!r) notFound();
  const [lookups, events, machines] = await Promise.all([
    db.lookup.findMany({
      where: { intentId: r.intentId, startedAt: { lte: r.decidedAt ?? new Date() } },
      orderBy: { startedAt: "asc" },
      include: { actor: { select: { name: true, system: true } } },
    }),
    db.auditEvent.findMany({
      where: {
        targetType: "intent",
        targetId: r.intentId,
        OR: [{ evidenceRef: `resolution:${r.id}` }, { details: { path: ["resolutionId"], equals: r.id } }],
      },
      orderBy: { seq: "asc" },
    }),
    // Machine actors (the reconciler): audit events name their actor by id and email only.
    db.user.findMany({ where: { system: true }, select: { id: true, name: true } }),
  ]);
  const systemActors = new Map(machines.map((m) => [m.id, m.name]));
  return (
    <div className="space-y-4">
      <nav aria-label="Breadcrumb" className="text-sm">
        <Link href="/audit" className="text-blue-800 underline">
          Audit log
        </Link>
      </nav>
      <h1 className="text-2xl font-semibold">
        {r.kind.replace(/_/g, " ")} — {r.status.replace(/_/g, " ")}
      </h1>
      <section aria-label="Summary" className="rounded border border-slate-200 bg-white p-4 text-sm">
        <dl className="grid grid-cols-1 gap-y-1 sm:grid-cols-[12rem_1fr]">
          <dt className="text-slate-600">Intent</dt>
          <dd>
            <Link
              className="font-mono text-xs text-blue-800 underline"
              href={intentPath({ tenantId: r.tenantId, intentKey: r.intent.intentKey })}
            >
              {r.intent.intentKey}
            </Link>{" "}
            ({r.tenantId}, {r.intent.provider.name}, now {r.intent.status})
          </dd>
          <dt className="text-slate-600">Amount / recipient</dt>
          <dd>
            {r.intent.amountMinor !== null
              ? formatAmount(r.intent.amountMinor, r.intent.currency)
              : r.intent.recipient}
          </dd>
          <dt className="text-slate-600">Proposed by</dt>
          <dd>
            <ActorName name={r.proposedBy.name} system={r.proposedBy.system} /> ({r.proposedBy.email}) at{" "}
            {time(r.createdAt)}
          </dd>
          <dt className="text-slate-600">Reason</dt>
          <dd className="break-words">“{r.reason}”</dd>
          <dt className="text-slate-600">Evidence</dt>
          <dd>
            {r.lookup ? (
              <>
                Lookup by {r.lookup.method.replace(/_/g, " ")}: {r.lookup.outcome.replace(/_/g, " ")} (
                <ActorName name={r.lookup.actor?.name} system={r.lookup.actor?.system} />,{" "}
                {time(r.lookup.startedAt)})
              </>
            ) : (
              (r.externalEvidenceRef ?? "none")
            )}
          </dd>
          <dt className="text-slate-600">Approvals needed</dt>
          <dd>{r.requiredApprovals}</dd>
          <dt className="text-slate-600">Decided</dt>
          <dd>
            {time(r.decidedAt)}
            {r.decidedAt &&
              ` (${formatDuration(Math.round((r.decidedAt.getTime() - r.createdAt.getTime()) / 1000))} after the proposal)`}
          </dd>
          <dt className="text-slate-600">Proposal digest</dt>
          <dd className="font-mono text-xs break-all">{r.proposalDigest}</dd>
        </dl>
      </section>
      <section aria-label="Approvers" className="rounded border border-slate-200 bg-white p-4 text-sm">
        <h2 className="mb-2 font-semibold">Approvers</h2>
        {r.approvals.length === 0 && <p className="text-slate-600">None.</p>}
        <ul className="space-y-1">
          {r.approvals.map((a) => (
            <li key={a.id}>
              <strong>{a.decision}</strong> by {a.approver.name} ({a.approver.email}) at {time(a.createdAt)} —
              “{a.reason}” · bound to v{a.intentVersion}
            </li>
          ))}
        </ul>
      </section>
      <section
        aria-label="Lookups before the decision"
        className="rounded border border-slate-200 bg-white p-4 text-sm"
      >
        <h2 className="mb-2 font-semibold">Lookups on this intent</h2>
        <ul className="space-y-1">
          {lookups.map((l) => (
            <li key={l.id}>
              {time(l.startedAt)} · <ActorName name={l.actor?.name} system={l.actor?.system} /> ·{" "}
              {l.method.replace(/_/g, " ")} → <strong>{l.outcome.replace(/_/g, " ")}</strong>
              {l.id === r.lookupId && " (cited)"}
              <details>
                <summary className="cursor-pointer text-xs text-slate-600">Evidence</summary>
                <pre className="overflow-x-auto rounded bg-slate-50 p-2 text-xs">
                  {JSON.stringify(l.evidence, null, 2)}
                </pre>
              </details>
            </li>
          ))}
        </ul>
      </section>
      <section aria-label="Audit events" className="rounded border border-slate-200 bg-white p-4 text-sm">
        <h2 className="mb-2 font-semibold">Audit events</h2>
        <ol className="space-y-1">
          {events.map((e) => (
            <li key={String(e.seq)}>
              #{String(e.seq)} {time(e.occurredAt)} ·{" "}
              {e.actorId && systemActors.has(e.actorId) ? (
                <ActorName name={systemActors.get(e.actorId)} system email={e.actorEmail} />
              ) : (
                (e.actorEmail ?? "system")
              )}{" "}
              · <span className="font-mono text-xs">{e.action}</span>
              {e.beforeStatus &&
                e.afterStatus &&
                e.beforeStatus !== e.afterStatus &&
                ` · ${e.beforeStatus} → ${e.afterStatus}`}
              {e.reason && ` · “${e.reason}”`}
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
