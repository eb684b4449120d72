import Link from "next/link";

export const TABS = [
  { id: "waiting", label: "Waiting" },
  { id: "decided", label: "Decided by me" },
  { id: "closed", label: "Voided and expired" },
] as const;

export type Tab = (typeof TABS)[number]["id"];

export function tabFrom(value: string | string[] | undefined): Tab {
  return TABS.find((t) => t.id === value)?.id ?? "waiting";
}

/** The queue's views as links (?tab=…): they work without JavaScript and can be shared. */
export function QueueTabs({ current, waiting }: { current: Tab; waiting: number }) {
  return (
    <nav aria-label="Approval views" className="flex flex-wrap gap-1 border-b border-slate-200">
      {TABS.map((t) => (
        <Link
          key={t.id}
          href={t.id === "waiting" ? "/approvals" : `/approvals?tab=${t.id}`}
          aria-current={t.id === current ? "page" : undefined}
          className={`-mb-px rounded-t border px-3 py-1.5 text-sm ${
            t.id === current
              ? "border-slate-200 border-b-white bg-white font-semibold"
              : "border-transparent text-blue-800 hover:bg-slate-50"
          }`}
        >
          {t.label}
          {t.id === "waiting" && ` (${waiting})`}
        </Link>
      ))}
    </nav>
  );
}
