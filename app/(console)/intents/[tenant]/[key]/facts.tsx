import Link from "next/link";
import { Time } from "@/components/time";
import { StatusBadge } from "@/components/status-badge";
import { formatAge, formatAmount, formatDuration, intentPath } from "@/lib/format";
import type { IntentView } from "./load";

/** What was asked: the request as the ledger recorded it, and the provider's key-retention countdown. */
export function Facts({
  intent,
  now,
  retentionEnds,
}: {
  intent: IntentView;
  now: Date;
  retentionEnds: Date | null;
}) {
  const retentionLeft = retentionEnds ? retentionEnds.getTime() - now.getTime() : null;
  const summary = intent.requestSummary as Record<string, unknown>;
  const lastAttempt = intent.attempts.at(-1);
  return (
    <section aria-labelledby="facts" className="rounded border border-slate-200 bg-white p-4">
      <h2 id="facts" className="mb-2 font-semibold">
        What was asked
      </h2>
      <dl className="grid grid-cols-1 gap-y-1 text-sm sm:grid-cols-[12rem_1fr]">
        <dt className="text-slate-600">Tenant</dt>
        <dd>{intent.tenantId}</dd>
        <dt className="text-slate-600">Workflow / step</dt>
        <dd className="font-mono text-xs break-all">
          {intent.workflowId} / {intent.stepId}
        </dd>
        <dt className="text-slate-600">Customer object</dt>
        <dd className="font-mono text-xs break-all">{intent.customerRef ?? "—"}</dd>
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
        <dd className="font-mono text-xs break-all">{intent.providerResultId ?? "—"}</dd>
        <dt className="text-slate-600">Created</dt>
        <dd>
          <Time value={intent.createdAt} precision="second" /> (
          {formatAge(now.getTime() - intent.createdAt.getTime())} ago)
        </dd>
        <dt className="text-slate-600">Last attempt</dt>
        <dd>
          <Time value={intent.lastAttemptAt} precision="second" />
          {lastAttempt?.errorClass && <span className="ml-2 text-red-800">{lastAttempt.errorClass}</span>}
        </dd>
        <dt className="text-slate-600">Key retention</dt>
        <dd data-testid="retention">
          {retentionEnds === null ? (
            <span className="text-slate-600">
              The provider has no idempotency keys: only Reckon&apos;s ledger prevents a second send.
            </span>
          ) : retentionLeft! <= 0 ? (
            <span role="alert" className="font-medium text-red-800">
              Passed {formatDuration(Math.floor(-retentionLeft! / 1000))} ago (
              <Time value={retentionEnds} precision="second" />
              ): the provider may have forgotten the key. A retry with it is no longer safe.
            </span>
          ) : (
            <span className={retentionLeft! < 2 * 3_600_000 ? "font-medium text-amber-800" : ""}>
              {formatDuration(Math.floor(retentionLeft! / 1000))} left (until{" "}
              <Time value={retentionEnds} precision="second" />)
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
  );
}
