import type { Metadata } from "next";
import Link from "next/link";
import { requirePageRole } from "@/lib/auth/session";
import { db } from "@/lib/db";
import { formatUtc } from "@/lib/format";
import { screenRoles } from "@/lib/nav";
import { loadPolicyPairs } from "./load-policies";
import { PolicyRow } from "./policy-row";

export const metadata: Metadata = { title: "Reconciler" };

export default async function ReconcilerSettingsPage() {
  await requirePageRole(screenRoles("/settings/reconciler"), "/settings/reconciler");
  const pairs = await loadPolicyPairs(db);
  return (
    <div className="space-y-4">
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold">Reconciler</h1>
        <p className="text-sm text-slate-600">
          The reconciler takes up unknown intents on its own: it looks each one up at the provider and acts on
          what the lookup proves, through the same guarded services as people, every step audited. Per tenant
          and provider, it works in one of three modes:
        </p>
        <dl className="grid grid-cols-[max-content_1fr] gap-x-3 gap-y-1 text-sm text-slate-700">
          <dt className="font-medium">Off</dt>
          <dd>
            The kill switch, and what a pair without a policy gets: it leaves these intents to people. It
            takes effect at the reconciler&apos;s next pick.
          </dd>
          <dt className="font-medium">Dry run</dt>
          <dd>
            It looks each intent up and records what it would do — confirm, send again or escalate — and
            changes nothing.
          </dd>
          <dt className="font-medium">On</dt>
          <dd>
            It confirms a receipt the provider holds exactly as asked when the amount is below the
            tenant&apos;s auto-resolve limit for its currency and needs no approval; if the policy allows it,
            it sends an intent the provider proved absent again with its original key (at most the maximum
            times, and only while the provider still keeps the key); everything else it escalates to people
            with the lookup attached.
          </dd>
        </dl>
        <p className="text-sm text-slate-600">
          The auto-resolve limit is set per tenant and currency on the{" "}
          <Link href="/settings/thresholds" className="text-blue-800 underline">
            approval thresholds
          </Link>{" "}
          page (“Reconciler may confirm below”; empty: it never confirms in that currency). Every change here
          needs a reason, which the audit log keeps with the policy before and after.
        </p>
      </div>
      <table
        className="responsive-table w-full rounded border border-slate-200 bg-white text-sm"
        aria-label="Reconcile policies"
      >
        <thead>
          <tr className="border-b border-slate-200 text-left text-xs text-slate-600">
            <th scope="col" className="p-2">
              Tenant
            </th>
            <th scope="col" className="p-2">
              Provider
            </th>
            <th scope="col" className="p-2">
              Mode
            </th>
            <th scope="col" className="p-2">
              Send absent again
            </th>
            <th scope="col" className="p-2">
              Max redispatches
            </th>
            <th scope="col" className="p-2">
              Reconciler now
            </th>
            <th scope="col" className="p-2">
              Last changed
            </th>
            <th scope="col" className="p-2">
              Change
            </th>
          </tr>
        </thead>
        <tbody>
          {pairs.map(({ changedBy, changedAt, ...pair }) => (
            <PolicyRow
              key={`${pair.tenantId}/${pair.providerId}`}
              {...pair}
              changed={changedAt ? `${changedBy}, ${formatUtc(changedAt, "minute")}` : "Never set (off)"}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}
