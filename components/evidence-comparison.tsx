import { Time } from "@/components/time";
import { VERDICT_LABELS, type ComparedField, type FieldVerdict } from "@/lib/providers/comparison";

const VERDICT_ICONS: Record<FieldVerdict, string> = { match: "✓", mismatch: "✗", not_reported: "–" };
const VERDICT_STYLES: Record<FieldVerdict, string> = {
  match: "text-green-800",
  mismatch: "font-semibold text-red-800",
  not_reported: "text-slate-600",
};

function Value({ value, time }: { value: string | null; time?: true }) {
  if (value === null) return <span className="text-slate-500">—</span>;
  return time ? <Time value={value} precision="second" /> : <span>{value}</span>;
}

/**
 * What the ledger asked for beside what the provider has, one row a field, each marked
 * match, mismatch or not reported in words and an icon (never by colour alone).
 */
export function EvidenceComparison({ caption, rows }: { caption: string; rows: ComparedField[] }) {
  return (
    <table className="w-full table-fixed border-collapse text-xs">
      <caption className="mb-1 text-left text-slate-600">{caption}</caption>
      <thead>
        <tr className="border-b border-slate-200 text-left text-slate-600">
          <th scope="col" className="w-[22%] py-1 pr-2 font-medium">
            Field
          </th>
          <th scope="col" className="py-1 pr-2 font-medium">
            Ledger asked
          </th>
          <th scope="col" className="py-1 pr-2 font-medium">
            Provider has
          </th>
          <th scope="col" className="w-[24%] py-1 font-medium">
            Verdict
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.field} className="border-b border-slate-100 align-top">
            <th scope="row" className="py-1 pr-2 text-left font-normal text-slate-700">
              {r.field}
            </th>
            <td className="py-1 pr-2 font-mono break-all">
              <Value value={r.asked} time={r.time} />
            </td>
            <td className="py-1 pr-2 font-mono break-all">
              <Value value={r.reported} time={r.time} />
            </td>
            <td className={`py-1 ${VERDICT_STYLES[r.verdict]}`} data-verdict={r.verdict}>
              <span aria-hidden="true">{VERDICT_ICONS[r.verdict]} </span>
              {VERDICT_LABELS[r.verdict]}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
