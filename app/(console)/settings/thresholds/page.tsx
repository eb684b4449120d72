import type { Metadata } from "next";
import Link from "next/link";
import { requirePageRole } from "@/lib/auth/session";
import { db } from "@/lib/db";
import { formatUtc, majorAmountText } from "@/lib/format";
import { screenRoles } from "@/lib/nav";
import { ThresholdRow } from "./threshold-row";

export const metadata: Metadata = { title: "Approval thresholds" };

export default async function ThresholdsPage() {
  await requirePageRole(screenRoles("/settings/thresholds"), "/settings/thresholds");
  const thresholds = await db.approvalThreshold.findMany({
    orderBy: [{ tenantId: "asc" }, { currency: "asc" }],
    include: { updatedBy: { select: { name: true } } },
  });
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold">Approval thresholds</h1>
        <p className="text-sm text-slate-600">
          Per tenant and currency, in the currency&apos;s major units: 1000.00 (or 1,000.00) for USD, EUR and
          GBP; whole yen, such as 150000, for JPY, which has no minor unit. The amount each field means is
          shown beneath it. At or above the first, a resolution waits for one approver; at or above the
          second, for two different approvers. Compensating a payment always needs one. Below the auto-resolve
          limit (“Reconciler may confirm below”, at most the one-approver threshold; empty: never) the{" "}
          <Link href="/settings/reconciler" className="text-blue-800 underline">
            reconciler
          </Link>{" "}
          may confirm a receipt the provider holds exactly, without a person. Every change needs a reason,
          which the audit log keeps beside before and after.
        </p>
      </div>
      <div className="sm:overflow-x-auto">
        <table
          className="responsive-table w-full rounded border border-slate-200 bg-white text-sm"
          aria-label="Approval thresholds"
        >
          <thead>
            <tr className="border-b border-slate-200 text-left text-xs text-slate-600">
              <th scope="col" className="p-2">
                Tenant
              </th>
              <th scope="col" className="p-2">
                Currency
              </th>
              <th scope="col" className="p-2">
                One approver from
              </th>
              <th scope="col" className="p-2">
                Two approvers from
              </th>
              <th scope="col" className="p-2">
                Reconciler may confirm below
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
            {thresholds.map((t) => (
              <ThresholdRow
                key={t.id}
                tenantId={t.tenantId}
                currency={t.currency}
                threshold={majorAmountText(t.thresholdMinor, t.currency)}
                dualThreshold={
                  t.dualThresholdMinor === null ? "" : majorAmountText(t.dualThresholdMinor, t.currency)
                }
                autoResolveBelow={
                  t.autoResolveBelowMinor === null ? "" : majorAmountText(t.autoResolveBelowMinor, t.currency)
                }
                changed={`${t.updatedBy?.name ?? "system"}, ${formatUtc(t.updatedAt, "minute")}`}
              />
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
