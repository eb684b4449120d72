import { STATUS_LABELS } from "@/lib/ledger/statuses";

const STATUS_STYLES: Record<string, string> = {
  unknown: "bg-red-100 text-red-900",
  confirmed: "bg-green-100 text-green-900",
  rejected: "bg-purple-100 text-purple-900",
  dispatched: "bg-blue-100 text-blue-900",
  prepared: "bg-slate-100 text-slate-800",
  compensating: "bg-amber-100 text-amber-900",
  compensated: "bg-teal-100 text-teal-900",
};

/** An intent status as a coloured label. */
export function StatusBadge({ status }: { status: string }) {
  return (
    <span className={`rounded px-2 py-0.5 text-sm font-medium ${STATUS_STYLES[status] ?? ""}`}>
      {STATUS_LABELS[status as keyof typeof STATUS_LABELS] ?? status}
    </span>
  );
}
