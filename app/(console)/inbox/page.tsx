import type { Metadata } from "next";
import { requirePageRole } from "@/lib/auth/session";
import { hasAnyRole } from "@/lib/auth/roles";
import { db } from "@/lib/db";
import { toJson } from "@/lib/http/json";
import { filtersToQuery, inboxPage, parseInboxFilters } from "@/lib/inbox/query";
import { OPERATOR_ROLES, screenRoles } from "@/lib/nav";
import { QueryProblems } from "@/components/query-problems";
import { InboxView, type InboxData } from "./inbox-view";

export const metadata: Metadata = { title: "Inbox" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function InboxPage({ searchParams }: Props) {
  const { values: filters, problems } = parseInboxFilters(await searchParams);
  const user = await requirePageRole(screenRoles("/inbox"), `/inbox?${filtersToQuery(filters, true)}`);
  const [page, tenants, providers] = await Promise.all([
    inboxPage(db, filters, user.id),
    db.tenant.findMany({ orderBy: { id: "asc" }, select: { id: true, name: true } }),
    db.providerProfile.findMany({ orderBy: { id: "asc" }, select: { id: true, name: true } }),
  ]);
  // Server-rendered first page: the inbox reads before any JavaScript has loaded.
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold">Unknown effects</h1>
        <p className="text-sm text-slate-600">
          Oldest first. Each may or may not have happened at the provider: look it up, then resolve it with
          evidence.
        </p>
      </div>
      <QueryProblems problems={problems} />
      <InboxView
        initial={toJson({ ...page, now: new Date().toISOString() }) as InboxData}
        filters={filters}
        tenants={tenants}
        providers={providers}
        canAct={hasAnyRole(user.roles, OPERATOR_ROLES)}
        userId={user.id}
      />
    </div>
  );
}
