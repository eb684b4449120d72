import type { Metadata } from "next";
import type { Role } from "@/lib/auth/roles";
import { requirePageRole } from "@/lib/auth/session";
import { db } from "@/lib/db";
import { screenRoles } from "@/lib/nav";
import { closeStaleRequests } from "@/lib/resolution/approvals";
import { closedRequests, decisionsBy } from "@/lib/approvals/history";
import { approversOnDuty, waitingRequests, waitingSummary } from "@/lib/approvals/queue";
import { ClosedList } from "./closed-list";
import { DecisionList } from "./decision-list";
import { QueueWatch } from "./queue-watch";
import { RequestCard } from "./request-card";
import { QueueTabs, tabFrom, type Tab } from "./tabs";

export const metadata: Metadata = { title: "Approvals" };

type Props = { searchParams: Promise<{ tab?: string | string[] }> };

function Empty({ children }: { children: React.ReactNode }) {
  return (
    <p className="rounded border border-slate-200 bg-white p-6 text-center text-slate-600">{children}</p>
  );
}

export default async function ApprovalsPage({ searchParams }: Props) {
  const user = await requirePageRole(screenRoles("/approvals"), "/approvals");
  const tab: Tab = tabFrom((await searchParams).tab);
  const now = new Date();
  // Requests past their window, or whose intent changed, leave the queue (each closing audited).
  await closeStaleRequests(db, now);
  const [waiting, summary] = await Promise.all([waitingRequests(db, now), waitingSummary(db, user, now)]);
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold">Approvals</h1>
        <p className="text-sm text-slate-600">
          Resolutions above a threshold wait here for a second person, with what was asked beside what the
          provider said. You cannot decide what you proposed or looked up yourself, nor decide twice.
        </p>
      </div>
      <QueueWatch initial={summary} />
      <QueueTabs current={tab} waiting={waiting.length} />
      {tab === "waiting" && <WaitingTab user={user} waiting={waiting} now={now} />}
      {tab === "decided" && <DecidedTab userId={user.id} />}
      {tab === "closed" && <ClosedTab />}
    </div>
  );
}

async function WaitingTab({
  user,
  waiting,
  now,
}: {
  user: { id: string; roles: readonly Role[] };
  waiting: Awaited<ReturnType<typeof waitingRequests>>;
  now: Date;
}) {
  const [onDuty, recent] = await Promise.all([
    approversOnDuty(db),
    decisionsBy(db, user.id, { lastDay: true }, now),
  ]);
  return (
    <>
      {waiting.length === 0 && <Empty>Nothing waits for approval.</Empty>}
      <ul className="space-y-4" aria-label="Pending resolutions">
        {waiting.map((r) => (
          <RequestCard key={r.id} r={r} viewer={user} onDuty={onDuty} />
        ))}
      </ul>
      {recent.length > 0 && (
        <section aria-labelledby="mine-heading" className="space-y-2">
          <h2 id="mine-heading" className="text-lg font-semibold">
            Your decisions in the last 24 hours
          </h2>
          <DecisionList decisions={recent} label="Your recent decisions" />
        </section>
      )}
    </>
  );
}

async function DecidedTab({ userId }: { userId: string }) {
  const decisions = await decisionsBy(db, userId, { lastDay: false });
  if (decisions.length === 0) return <Empty>You have not decided on any request yet.</Empty>;
  return <DecisionList decisions={decisions} label="Decided by me" />;
}

async function ClosedTab() {
  const closed = await closedRequests(db);
  if (closed.length === 0) return <Empty>No request was voided or expired.</Empty>;
  return (
    <>
      <p className="text-sm text-slate-600">
        A request closes unapproved when its window passes (24 h) or its intent changes before the last
        approval. Nothing it proposed was applied.
      </p>
      <ClosedList closed={closed} />
    </>
  );
}
