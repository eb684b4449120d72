import Link from "next/link";
import { filtersToQuery, type InboxFilters } from "@/lib/inbox/filters";

/**
 * Says what the inbox leaves out: intents the reconciler is working on (under a policy
 * that is on), with a link to the same view that shows them, and back.
 */
export function AutoNotice({ filters, hidden }: { filters: InboxFilters; hidden: number }) {
  const showing = filters.auto === "show";
  if (!showing && hidden === 0) return null;
  const href = `/inbox?${filtersToQuery({ ...filters, auto: showing ? "hide" : "show", cursor: undefined })}`;
  return (
    <p
      className="rounded border border-sky-200 bg-sky-50 px-3 py-2 text-sm text-sky-950"
      data-testid="auto-notice"
    >
      {showing ? (
        <>
          Including intents the reconciler is working on.{" "}
          <Link href={href} className="font-medium underline">
            Hide them
          </Link>
        </>
      ) : (
        <>
          {hidden.toLocaleString("en")} more {hidden === 1 ? "is" : "are"} being reconciled automatically —{" "}
          <Link href={href} className="font-medium underline">
            Show them
          </Link>
        </>
      )}
    </p>
  );
}
