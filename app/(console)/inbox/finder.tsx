import Form from "next/form";
import Link from "next/link";
import { StatusBadge } from "@/components/status-badge";
import { formatAmount, intentPath } from "@/lib/format";
import { FINDER_LIMIT, type FoundIntent } from "@/lib/inbox/search";

/**
 * Find any intent, whatever its status (confirmed, compensated, …), by the same prefix
 * fields as the inbox's search, and go to its page. A GET form rendered on the server:
 * it works without JavaScript, and the inbox's own filters ride along unchanged.
 */
export function Finder({
  find,
  found,
  filterQuery,
}: {
  find: string | undefined;
  found: FoundIntent[] | null;
  filterQuery: string;
}) {
  return (
    <div className="space-y-2 rounded border border-slate-200 bg-white p-3 text-sm">
      <Form
        action="/inbox"
        role="search"
        aria-label="Find any intent"
        className="flex flex-wrap items-end gap-2"
      >
        {[...new URLSearchParams(filterQuery)].map(([k, v]) => (
          <input key={k} type="hidden" name={k} value={v} />
        ))}
        <label className="flex flex-col">
          <span className="text-xs text-slate-600">
            Find any intent (any status; key, object, workflow, customer or provider id prefix)
          </span>
          <input
            name="find"
            type="search"
            defaultValue={find ?? ""}
            placeholder="inv_42"
            className="w-80 max-w-full rounded border border-slate-300 px-2 py-1"
          />
        </label>
        <button type="submit" className="rounded border border-slate-300 px-3 py-1">
          Find
        </button>
      </Form>
      {found && (
        <div>
          <p className="text-xs text-slate-600" role="status">
            {found.length === 0
              ? `No intent starts with “${find}”.`
              : `${found.length}${found.length === FINDER_LIMIT ? "+" : ""} found, newest first`}
          </p>
          {found.length > 0 && (
            <ul aria-label="Found intents" className="divide-y divide-slate-100">
              {found.map((i) => (
                <li key={i.id} className="flex flex-wrap items-center gap-2 py-1">
                  <Link href={intentPath(i)} className="truncate font-mono text-xs text-blue-800 underline">
                    {i.intentKey}
                  </Link>
                  <StatusBadge status={i.status} />
                  <span className="text-xs text-slate-600">
                    {i.tenantId} · {i.provider.name} ·{" "}
                    {i.amountMinor !== null ? formatAmount(i.amountMinor, i.currency) : (i.recipient ?? "—")}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
