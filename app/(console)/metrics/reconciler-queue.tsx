import { Time } from "@/components/time";
import type { ReconcilerMetrics } from "@/lib/reconciler-metrics";

/** The reconciler's work queue now: what it works on, what it handed to people, when it looks next. */
export function ReconcilerQueue({ queue }: { queue: ReconcilerMetrics["queue"] }) {
  const rows: [string, React.ReactNode][] = [
    ["Working on", queue.byState.active.toLocaleString("en")],
    ["Handed to people", queue.byState.escalated.toLocaleString("en")],
    ["Due now", queue.due.toLocaleString("en")],
    ["Next due", <Time key="next" value={queue.nextDueAt} precision="second" />],
  ];
  return (
    <section aria-labelledby="reconciler-queue" className="rounded border border-slate-200 bg-white p-4">
      <h2 id="reconciler-queue" className="mb-3 font-semibold">
        Reconciler queue
      </h2>
      <dl className="grid grid-cols-[10rem_1fr] gap-y-1 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-slate-600">{label}</dt>
            <dd className="tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
