import { INTENT_STATUSES, STATUS_LABELS, type IntentStatus } from "@/lib/ledger/statuses";

export const STATUS_COLORS: Record<IntentStatus, string> = {
  prepared: "bg-status-prepared",
  dispatched: "bg-status-dispatched",
  confirmed: "bg-status-confirmed",
  rejected: "bg-status-rejected",
  unknown: "bg-status-unknown",
  compensating: "bg-status-compensating",
  compensated: "bg-status-compensated",
};

/** A stacked bar of intents by status; the numbers are in its accessible name too. */
export function StatusBar({ label, counts }: { label: string; counts: Record<IntentStatus, number> }) {
  const total = INTENT_STATUSES.reduce((sum, s) => sum + counts[s], 0);
  const description = INTENT_STATUSES.filter((s) => counts[s] > 0)
    .map((s) => `${STATUS_LABELS[s]} ${counts[s]}`)
    .join(", ");
  return (
    <div
      role="img"
      aria-label={`${label}: ${description || "no intents"}`}
      className="flex h-4 w-full overflow-hidden rounded bg-slate-200"
    >
      {total > 0 &&
        INTENT_STATUSES.filter((s) => counts[s] > 0).map((s) => (
          <div
            key={s}
            className={`${STATUS_COLORS[s]} h-full`}
            style={{ width: `${(counts[s] / total) * 100}%`, minWidth: "2px" }}
            title={`${STATUS_LABELS[s]}: ${counts[s]}`}
          />
        ))}
    </div>
  );
}

export function StatusLegend() {
  return (
    <ul aria-label="Status colours" className="flex flex-wrap gap-3 text-xs text-slate-600">
      {INTENT_STATUSES.map((s) => (
        <li key={s} className="flex items-center gap-1">
          <span className={`inline-block h-3 w-3 rounded-sm ${STATUS_COLORS[s]}`} aria-hidden />
          {STATUS_LABELS[s]}
        </li>
      ))}
    </ul>
  );
}
