import { formatUtc } from "@/lib/format";

/** "Reconciler: next try 14:05 UTC" (the date too when it is not today, in UTC). */
export function reconcilerBadgeText(nextAt: string, now: number): string {
  const at = new Date(nextAt);
  if (at.getTime() <= now) return "Reconciler: due now";
  const sameDay = at.toISOString().slice(0, 10) === new Date(now).toISOString().slice(0, 10);
  const text = formatUtc(at, "minute");
  return `Reconciler: next try ${sameDay ? text.slice(11) : text}`;
}

/** Marks a row the reconciler is working on (shown only when the inbox shows them). */
export function ReconcilerBadge({ nextAt, now }: { nextAt: string; now: number }) {
  return (
    <span
      className="rounded bg-sky-100 px-1 text-xs whitespace-nowrap text-sky-900"
      title="The reconciler is working on this intent: it looks it up again at this time."
    >
      {reconcilerBadgeText(nextAt, now)}
    </span>
  );
}
