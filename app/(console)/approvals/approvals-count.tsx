"use client";

import { useWaiting, type WaitingSummary } from "./use-waiting";

/** The navigation's badge: requests waiting that this approver may decide, kept live. */
export function ApprovalsCount({ initial }: { initial: WaitingSummary }) {
  const { data } = useWaiting(initial);
  if (data.count === 0) return null;
  return (
    <span
      data-testid="approvals-count"
      className="-ml-2 inline-block min-w-5 rounded-full bg-amber-400 px-1.5 text-center text-xs font-semibold text-slate-950"
    >
      {data.count}
      <span className="sr-only"> waiting for you</span>
    </span>
  );
}
