import type { Metadata } from "next";
import { hasAnyRole } from "@/lib/auth/roles";
import { requirePageRole } from "@/lib/auth/session";
import { db } from "@/lib/db";
import { ledgerOverview } from "@/lib/ledger/overview";
import { screenRoles } from "@/lib/nav";
import { OverviewFigures } from "./overview-figures";

export const metadata: Metadata = { title: "Overview" };

export default async function OverviewPage() {
  const user = await requirePageRole(screenRoles("/"), "/");
  const overview = await ledgerOverview(db);
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Ledger overview</h1>
        <p className="text-sm text-slate-600">Every recorded effect intent, by tenant and status.</p>
      </div>
      {/* The unknown counts link to the inbox, for those who may open it (admins may not). */}
      <OverviewFigures initial={overview} inboxLinks={hasAnyRole(user.roles, screenRoles("/inbox"))} />
    </div>
  );
}
