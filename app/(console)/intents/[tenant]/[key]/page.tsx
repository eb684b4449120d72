import { randomUUID } from "node:crypto";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { hasAnyRole } from "@/lib/auth/roles";
import { requirePageRole } from "@/lib/auth/session";
import { db } from "@/lib/db";
import { formatAge, formatAmount, formatDuration, formatUtc, intentPath } from "@/lib/format";
import { STATUS_LABELS } from "@/lib/ledger/statuses";
import { OPERATOR_ROLES, screenRoles } from "@/lib/nav";
import { isClaimLive } from "@/lib/resolution/claims";
import { keyRetentionEndsAt } from "@/lib/resolution/rules";
import { pathSegment } from "@/lib/validation/path";
import { approvalProgress, KIND_LABELS, staleness } from "@/lib/resolution/requests";
import { ClaimForm } from "./claim-form";
import { LookupForm } from "./lookup-form";
import { ResolveForm } from "./resolve-form";
import { SendCompensationForm } from "./send-compensation-form";

type Props = { params: Promise<{ tenant: string; key: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: pathSegment((await params).key) ?? "Not found" };
}

const STATUS_STYLES: Record<string, string> = {
  unknown: "bg-red-100 text-red-900",
  confirmed: "bg-green-100 text-green-900",
  rejected: "bg-purple-100 text-purple-900",
  dispatched: "bg-blue-100 text-blue-900",
  prepared: "bg-slate-100 text-slate-800",
  compensating: "bg-amber-100 text-amber-900",
  compensated: "bg-teal-100 text-teal-900",
};

function StatusBadge({ status }: { status: string }) {
  return (
    <span className={`rounded px-2 py-0.5 text-sm font-medium ${STATUS_STYLES[status] ?? ""}`}>
      {STATUS_LABELS[status as keyof typeof STATUS_LABELS] ?? status}
    </span>
  );
}

const time = formatUtc;

export default async function IntentPage({ params }: Props) {
  const { tenant, key } = await params;
  const user = await requirePageRole(screenRoles("/intents/[tenant]/[key]"), `/intents/${tenant}/${key}`);
  const tenantId = pathSegment(tenant, 64);
  const intentKey = pathSegment(key);
  if (!tenantId || !intentKey) notFound();
  const intent = await db.effectIntent.findUnique({
    where: { tenantId_intentKey: { tenantId, intentKey } },
    include: {
      provider: true,
      claimedBy: { select: { id: true, name: true } },
      attempts: { orderBy: { attemptNo: "asc" } },
      lookups: { orderBy: { startedAt: "desc" }, include: { actor: { select: { name: true } } } },
      resolutions: {
        orderBy: { createdAt: "desc" },
        include: {
          proposedBy: { select: { name: true } },
          approvals: { include: { approver: { select: { name: true } } } },
        },
      },
      compensations: {
        select: { tenantId: true, intentKey: true, status: true, providerResultId: true, createdAt: true },
      },
      compensates: { select: { tenantId: true, intentKey: true, status: true } },
    },
  });
  if (!intent) notFound();
  const audit = await db.auditEvent.findMany({
    where: { targetType: "intent", targetId: intent.id },
    orderBy: { seq: "asc" },
  });
  const now = new Date();
  const canAct = hasAnyRole(user.roles, OPERATOR_ROLES);
  const retentionEnds = keyRetentionEndsAt(intent, intent.provider);
  const retentionLeft = retentionEnds ? retentionEnds.getTime() - now.getTime() : null;
  const claimLive = isClaimLive(intent, now);
  const summary = intent.requestSummary as Record<string, unknown>;
  const lastAttempt = intent.attempts.at(-1);
  // A pending request that can no longer be decided does not block: the next proposal closes it.
  const openRequest =
    intent.resolutions.find((r) => r.status === "pending_approval" && !staleness(r, intent, now)) ?? null;

  return (
    <div className="space-y-5">
      <nav aria-label="Breadcrumb" className="text-sm">
        <Link href="/inbox" className="text-blue-800 underline">
          Inbox
        </Link>{" "}
        / {intent.tenantId}
      </nav>
      <header className="flex flex-wrap items-center gap-3">
        <h1 className="font-mono text-xl font-semibold break-all">{intent.intentKey}</h1>
        <StatusBadge status={intent.status} />
        {intent.needsOperator && (
          <span className="rounded bg-amber-100 px-2 py-0.5 text-sm text-amber-900">needs operator</span>
        )}
        <span className="text-sm text-slate-600">version {intent.version}</span>
      </header>

      <div className="grid gap-5 lg:grid-cols-[1fr_22rem]">
        <div className="space-y-5">
          <section aria-labelledby="facts" className="rounded border border-slate-200 bg-white p-4">
            <h2 id="facts" className="mb-2 font-semibold">
              What was asked
            </h2>
            <dl className="grid grid-cols-[12rem_1fr] gap-y-1 text-sm">
              <dt className="text-slate-600">Tenant</dt>
              <dd>{intent.tenantId}</dd>
              <dt className="text-slate-600">Workflow / step</dt>
              <dd className="font-mono text-xs">
                {intent.workflowId} / {intent.stepId}
              </dd>
              <dt className="text-slate-600">Customer object</dt>
              <dd className="font-mono text-xs">{intent.customerRef ?? "—"}</dd>
              <dt className="text-slate-600">Provider / operation</dt>
              <dd>
                {intent.provider.name} · {intent.operation}
              </dd>
              <dt className="text-slate-600">{intent.amountMinor !== null ? "Amount" : "Recipient"}</dt>
              <dd className="font-medium">
                {intent.amountMinor !== null
                  ? formatAmount(intent.amountMinor, intent.currency)
                  : `${intent.recipient ?? "—"} (${intent.template ?? "no template"})`}
                {typeof summary.customer === "string" && (
                  <span className="ml-2 font-mono text-xs text-slate-600">{summary.customer}</span>
                )}
              </dd>
              <dt className="text-slate-600">Request digest</dt>
              <dd className="font-mono text-xs break-all">{intent.requestDigest}</dd>
              <dt className="text-slate-600">Provider result id</dt>
              <dd className="font-mono text-xs">{intent.providerResultId ?? "—"}</dd>
              <dt className="text-slate-600">Created</dt>
              <dd>
                {time(intent.createdAt)} ({formatAge(now.getTime() - intent.createdAt.getTime())} ago)
              </dd>
              <dt className="text-slate-600">Last attempt</dt>
              <dd>
                {time(intent.lastAttemptAt)}
                {lastAttempt?.errorClass && (
                  <span className="ml-2 text-red-800">{lastAttempt.errorClass}</span>
                )}
              </dd>
              <dt className="text-slate-600">Key retention</dt>
              <dd data-testid="retention">
                {retentionEnds === null ? (
                  <span className="text-slate-600">
                    The provider has no idempotency keys: only Reckon&apos;s ledger prevents a second send.
                  </span>
                ) : retentionLeft! <= 0 ? (
                  <span role="alert" className="font-medium text-red-800">
                    Passed {formatDuration(Math.floor(-retentionLeft! / 1000))} ago ({time(retentionEnds)}):
                    the provider may have forgotten the key. A retry with it is no longer safe.
                  </span>
                ) : (
                  <span className={retentionLeft! < 2 * 3_600_000 ? "font-medium text-amber-800" : ""}>
                    {formatDuration(Math.floor(retentionLeft! / 1000))} left (until {time(retentionEnds)})
                    {retentionLeft! < 2 * 3_600_000 && " — close: resolve soon or escalate"}
                  </span>
                )}
              </dd>
              {intent.compensates && (
                <>
                  <dt className="text-slate-600">Compensates</dt>
                  <dd>
                    <Link
                      className="font-mono text-xs text-blue-800 underline"
                      href={intentPath(intent.compensates)}
                    >
                      {intent.compensates.intentKey}
                    </Link>{" "}
                    <StatusBadge status={intent.compensates.status} />
                  </dd>
                </>
              )}
            </dl>
          </section>

          <section aria-labelledby="attempts" className="rounded border border-slate-200 bg-white p-4">
            <h2 id="attempts" className="mb-2 font-semibold">
              Attempts
            </h2>
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
                    <td>{time(a.startedAt)}</td>
                    <td>{time(a.finishedAt)}</td>
                    <td>{a.outcome.replace(/_/g, " ")}</td>
                    <td>{a.errorClass ?? "—"}</td>
                    <td className="font-mono text-xs">{a.providerRequestId ?? "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>

          <section aria-labelledby="lookups" className="rounded border border-slate-200 bg-white p-4">
            <h2 id="lookups" className="mb-2 font-semibold">
              Lookups
            </h2>
            {intent.lookups.length === 0 && (
              <p className="text-sm text-slate-600">No lookup yet. Ask the provider before resolving.</p>
            )}
            <ol className="space-y-2" aria-label="Lookup history">
              {intent.lookups.map((l) => (
                <li key={l.id} className="rounded border border-slate-100 p-2 text-sm">
                  <div className="flex flex-wrap gap-2">
                    <strong data-testid="lookup-outcome">{l.outcome.replace(/_/g, " ")}</strong>
                    <span>by {l.method.replace(/_/g, " ")}</span>
                    <span className="text-slate-600">
                      {time(l.startedAt)} · {l.actor?.name ?? "system"}
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

          {(intent.compensations.length > 0 || intent.resolutions.length > 0) && (
            <section aria-labelledby="resolutions" className="rounded border border-slate-200 bg-white p-4">
              <h2 id="resolutions" className="mb-2 font-semibold">
                Resolutions and compensations
              </h2>
              <ul className="space-y-1 text-sm">
                {intent.resolutions.map((r) => (
                  <li key={r.id}>
                    <strong>{r.kind.replace(/_/g, " ")}</strong> — {r.status.replace(/_/g, " ")} · proposed by{" "}
                    {r.proposedBy.name} at {time(r.createdAt)}
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
          )}

          <section aria-labelledby="trail" className="rounded border border-slate-200 bg-white p-4">
            <h2 id="trail" className="mb-2 font-semibold">
              Audit trail
            </h2>
            <table className="w-full text-sm" aria-label="Audit trail">
              <thead>
                <tr className="text-left text-xs text-slate-600">
                  <th className="py-1">When</th>
                  <th>Who</th>
                  <th>Action</th>
                  <th>Status</th>
                  <th>Reason</th>
                </tr>
              </thead>
              <tbody>
                {audit.length === 0 && (
                  <tr>
                    <td colSpan={5} className="py-2 text-slate-600">
                      No operator action yet.
                    </td>
                  </tr>
                )}
                {audit.map((e) => (
                  <tr key={String(e.seq)} className="border-t border-slate-100">
                    <td className="py-1 whitespace-nowrap">{time(e.occurredAt)}</td>
                    <td>{e.actorEmail ?? "system"}</td>
                    <td>{e.action}</td>
                    <td>
                      {e.beforeStatus && e.afterStatus
                        ? e.beforeStatus === e.afterStatus
                          ? e.afterStatus
                          : `${e.beforeStatus} → ${e.afterStatus}`
                        : "—"}
                    </td>
                    <td className="text-slate-600">{e.reason ?? ""}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        </div>

        <aside className="space-y-4" aria-label="Actions">
          {canAct ? (
            <>
              <ClaimForm
                intentId={intent.id}
                tenantId={intent.tenantId}
                claim={
                  claimLive
                    ? {
                        mine: intent.claimedById === user.id,
                        name: intent.claimedBy?.name ?? "someone",
                        until: time(intent.claimExpiresAt),
                      }
                    : null
                }
              />
              {intent.compensatesId && intent.status === "prepared" && (
                <SendCompensationForm intentId={intent.id} tenantId={intent.tenantId} />
              )}
              <LookupForm
                intentId={intent.id}
                tenantId={intent.tenantId}
                methods={intent.provider.lookupMethods}
              />
              <ResolveForm
                // A new lookup becomes the default evidence.
                key={intent.lookups[0]?.id ?? "no-lookup"}
                intentId={intent.id}
                tenantId={intent.tenantId}
                status={intent.status}
                version={intent.version}
                submissionKey={randomUUID()}
                lookups={intent.lookups.map((l) => ({
                  id: l.id,
                  label: `${l.outcome.replace(/_/g, " ")} — ${l.method.replace(/_/g, " ")} — ${time(l.startedAt)}`,
                }))}
                openRequest={
                  openRequest
                    ? {
                        id: openRequest.id,
                        kind: KIND_LABELS[openRequest.kind],
                        progress: approvalProgress(openRequest),
                        proposer: openRequest.proposedBy.name,
                        proposedAt: time(openRequest.createdAt),
                      }
                    : null
                }
              />
            </>
          ) : (
            <p className="rounded border border-slate-200 bg-white p-3 text-sm text-slate-600">
              Read only: resolving needs the operator role.
            </p>
          )}
        </aside>
      </div>
    </div>
  );
}
