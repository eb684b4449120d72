import { formatDuration } from "@/lib/format";
import type { ReconcilerMetrics, SettledBy } from "@/lib/reconciler-metrics";

const WHO: Record<SettledBy, string> = { reconciler: "Automatically", person: "By people" };
const n = (x: number) => x.toLocaleString("en");
const seconds = (s: number) => formatDuration(Math.round(s));

/** Unknown intents settled automatically vs by people, and how long each took (p50, p95). */
export function ReconciliationSection({ r }: { r: ReconcilerMetrics }) {
  const total = r.settled.reconciler + r.settled.person;
  const share = (x: number) => (total ? (x / total) * 100 : 0);
  return (
    <section aria-labelledby="who-settles" className="rounded border border-slate-200 bg-white p-4">
      <h2 id="who-settles" className="mb-3 font-semibold">
        Who settles unknown intents
      </h2>
      <div
        role="img"
        aria-label={`Settled automatically ${r.settled.reconciler}, by people ${r.settled.person}`}
        className="space-y-1"
      >
        <div className="flex h-4 overflow-hidden rounded bg-slate-100">
          <div className="h-4 bg-sky-700" style={{ width: `${share(r.settled.reconciler)}%` }} />
          <div className="h-4 bg-amber-600" style={{ width: `${share(r.settled.person)}%` }} />
        </div>
        <div className="flex flex-wrap justify-between gap-x-3 text-sm">
          <span>
            <span className="mr-1 inline-block h-3 w-3 rounded-sm bg-sky-700" aria-hidden />
            Automatically {n(r.settled.reconciler)} ({share(r.settled.reconciler).toFixed(1)} %)
          </span>
          <span>
            <span className="mr-1 inline-block h-3 w-3 rounded-sm bg-amber-600" aria-hidden />
            By people {n(r.settled.person)} ({share(r.settled.person).toFixed(1)} %)
          </span>
        </div>
      </div>
      <table className="responsive-table mt-3 w-full text-sm" aria-label="Time to resolution">
        <thead>
          <tr className="text-left text-xs text-slate-600">
            <th scope="col" className="py-1">
              Provider
            </th>
            <th scope="col">Settled</th>
            <th scope="col" className="text-right">
              Intents
            </th>
            <th scope="col" className="text-right">
              p50
            </th>
            <th scope="col" className="text-right">
              p95
            </th>
          </tr>
        </thead>
        <tbody>
          {r.timeToResolution.length === 0 && (
            <tr>
              <td colSpan={5} className="py-2 text-slate-600">
                No unknown intent settled yet.
              </td>
            </tr>
          )}
          {r.timeToResolution.map((t) => (
            <tr key={`${t.providerId ?? "*"}:${t.by}`} className="border-t border-slate-100">
              <td data-label="Provider" className="py-1">
                {t.providerId ?? <strong>All providers</strong>}
              </td>
              <td data-label="Settled">{WHO[t.by]}</td>
              <td data-label="Intents" className="text-right tabular-nums">
                {n(t.count)}
              </td>
              <td data-label="p50" className="text-right tabular-nums">
                {seconds(t.p50Seconds)}
              </td>
              <td data-label="p95" className="text-right tabular-nums">
                {seconds(t.p95Seconds)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="mt-2 text-xs text-slate-600">
        Time to resolution: from when an intent became unknown to when it was settled.
      </p>
    </section>
  );
}
