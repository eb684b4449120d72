import { randomUUID } from "node:crypto";
import type { Metadata } from "next";
import { StatusBadge } from "@/components/status-badge";
import Link from "next/link";
import { notFound } from "next/navigation";
import { hasAnyRole } from "@/lib/auth/roles";
import { requirePageRole } from "@/lib/auth/session";
import { formatUtc } from "@/lib/format";
import { OPERATOR_ROLES, screenRoles } from "@/lib/nav";
import { isClaimLive } from "@/lib/resolution/claims";
import { decidingLookup, resolutionOffer } from "@/lib/resolution/offer";
import { keyRetentionEndsAt } from "@/lib/resolution/rules";
import { pathSegment } from "@/lib/validation/path";
import { approvalProgress, KIND_LABELS, staleness } from "@/lib/resolution/requests";
import { AttemptsTable } from "./attempts-table";
import { AuditTrail } from "./audit-trail";
import { ClaimForm } from "./claim-form";
import { Facts } from "./facts";
import { loadIntentPage } from "./load";
import { LookupHistory } from "./lookup-history";
import { ReconcilerSection } from "./reconciler-section";
import { ResolutionList } from "./resolution-list";
import { LookupForm } from "./lookup-form";
import { nextUnknownPath } from "./next-unknown";
import { ResolveForm } from "./resolve-form";
import type { Settled } from "./settled-note";
import { SendCompensationForm } from "./send-compensation-form";

type Props = { params: Promise<{ tenant: string; key: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: pathSegment((await params).key) ?? "Not found" };
}

export default async function IntentPage({ params }: Props) {
  const { tenant, key } = await params;
  const user = await requirePageRole(screenRoles("/intents/[tenant]/[key]"), `/intents/${tenant}/${key}`);
  const tenantId = pathSegment(tenant, 64);
  const intentKey = pathSegment(key);
  if (!tenantId || !intentKey) notFound();
  const data = await loadIntentPage(tenantId, intentKey);
  if (!data) notFound();
  const { intent, audit, policyMode, systemActors, threshold } = data;
  const now = new Date();
  const canAct = hasAnyRole(user.roles, OPERATOR_ROLES);
  const nextUnknown = canAct ? await nextUnknownPath(user.id, intent.id, now) : null;
  // Only an unknown intent has an open question; any other says why there is nothing to resolve.
  const settled: Settled | null =
    intent.status === "unknown"
      ? null
      : {
          status: intent.status,
          at: intent.resolvedAt ?? intent.settledAt ?? intent.attempts.at(-1)?.finishedAt ?? intent.updatedAt,
          receipt: intent.providerResultId,
          errorClass: intent.attempts.at(-1)?.errorClass ?? null,
          compensationKey: intent.compensations.find((c) => c.status === "confirmed")?.intentKey ?? null,
          leaseExpiresAt: intent.leaseExpiresAt,
        };
  const retentionEnds = keyRetentionEndsAt(intent, intent.provider);
  const claimLive = isClaimLive(intent, now);
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
        <div className="min-w-0 space-y-5">
          <Facts intent={intent} now={now} retentionEnds={retentionEnds} />

          <ReconcilerSection intent={intent} policyMode={policyMode} />

          <AttemptsTable intent={intent} />

          <LookupHistory intent={intent} settled={settled} />

          <ResolutionList intent={intent} />

          <AuditTrail audit={audit} systemActors={systemActors} />
        </div>

        <aside className="min-w-0 space-y-4" aria-label="Actions">
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
                        until: intent.claimExpiresAt,
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
                // A new lookup brings a new offer and becomes the default evidence.
                key={intent.lookups[0]?.id ?? "no-lookup"}
                intentId={intent.id}
                tenantId={intent.tenantId}
                version={intent.version}
                submissionKey={randomUUID()}
                lookups={intent.lookups.map((l) => ({
                  id: l.id,
                  // An <option> holds text only: the time as the page prints it everywhere (UTC).
                  label: `${l.outcome.replace(/_/g, " ")} — ${l.method.replace(/_/g, " ")} — ${formatUtc(l.startedAt)}`,
                }))}
                evidenceLookupId={decidingLookup(intent.lookups)?.id ?? null}
                offers={resolutionOffer({
                  intent,
                  provider: intent.provider,
                  lookups: intent.lookups,
                  threshold,
                  now,
                })}
                settled={settled}
                nextUnknown={nextUnknown}
                openRequest={
                  openRequest
                    ? {
                        id: openRequest.id,
                        kind: KIND_LABELS[openRequest.kind],
                        progress: approvalProgress(openRequest),
                        proposer: openRequest.proposedBy.name,
                        proposedAt: openRequest.createdAt,
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
