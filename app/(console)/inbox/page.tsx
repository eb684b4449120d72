import type { Metadata } from "next";
import { requirePageRole } from "@/lib/auth/session";
import { hasAnyRole } from "@/lib/auth/roles";
import { db } from "@/lib/db";
import { toJson } from "@/lib/http/json";
import { filtersToQuery, parseInboxFilters } from "@/lib/inbox/filters";
import { inboxPage } from "@/lib/inbox/query";
import { finderQuery, findIntents } from "@/lib/inbox/search";
import { OPERATOR_ROLES, screenRoles } from "@/lib/nav";
import { parseQuery } from "@/lib/validation/query";
import { QueryProblems } from "@/components/query-problems";
import { Finder } from "./finder";
import { InboxView, type InboxData } from "./inbox-view";

export const metadata: Metadata = { title: "Inbox" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function InboxPage({ searchParams }: Props) {
  const params = await searchParams;
  const { values: filters, problems } = parseInboxFilters(params);
  const finder = parseQuery(finderQuery, params);
  const user = await requirePageRole(screenRoles("/inbox"), `/inbox?${filtersToQuery(filters, true)}`);
  const [page, tenants, providers, currencies, found] = await Promise.all([
    inboxPage(db, filters, user.id),
    db.tenant.findMany({ orderBy: { id: "asc" }, select: { id: true, name: true } }),
    db.providerProfile.findMany({ orderBy: { id: "asc" }, select: { id: true, name: true } }),
    // The currencies the console knows (each has an approval threshold): a small table.
    db.approvalThreshold.findMany({
      distinct: ["currency"],
      orderBy: { currency: "asc" },
      select: { currency: true },
    }),
    finder.values.find ? findIntents(db, finder.values.find) : null,
  ]);
  // Server-rendered first page: the inbox reads before any JavaScript has loaded.
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold">Unknown effects</h1>
        <p className="text-sm text-slate-600">
          What expires soonest first: while the provider keeps the idempotency key, an absent lookup makes a
          retry safe. Each may or may not have happened at the provider: look it up, then resolve it with
          evidence.
        </p>
      </div>
      <QueryProblems problems={[...problems, ...finder.problems]} />
      <Finder find={finder.values.find} found={found} filterQuery={filtersToQuery(filters)} />
      <InboxView
        initial={toJson({ ...page, now: new Date().toISOString() }) as InboxData}
        filters={filters}
        tenants={tenants}
        providers={providers}
        currencies={currencies.map((c) => c.currency)}
        canAct={hasAnyRole(user.roles, OPERATOR_ROLES)}
        userId={user.id}
      />
    </div>
  );
}
