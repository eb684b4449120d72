"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useCallback, useMemo, useRef, useState } from "react";
import { filtersToQuery, type InboxFilters } from "@/lib/inbox/filters";
import { claimAction } from "../intents/[tenant]/[key]/actions";
import { AutoNotice } from "./auto-notice";
import { BulkBar } from "./bulk-bar";
import { HEAD } from "./cells";
import { InboxTableRow } from "./inbox-row";
import { InboxFiltersForm } from "./inbox-filters";
import { useInboxKeyboard } from "./use-inbox-keyboard";
import type { InboxData, InboxRowJson } from "./types";

export type { InboxData };

type Option = { id: string; name: string };

type Props = {
  initial: InboxData;
  filters: InboxFilters;
  tenants: Option[];
  providers: Option[];
  currencies: string[];
  canAct: boolean;
  userId: string;
};

const COLUMNS: [string, string][] = [
  ["Intent", ""],
  ["Tenant", ""],
  ["Provider", ""],
  ["Amount / recipient", "text-right"],
  ["Act before", ""],
  ["Age / window", ""],
  ["Attempts", "text-right"],
  ["Flags", ""],
];

async function fetchInbox(query: string): Promise<InboxData> {
  const response = await fetch(`/api/inbox?${query}`, { cache: "no-store" });
  if (!response.ok) throw new Error(`Inbox refresh failed (${response.status})`);
  return (await response.json()) as InboxData;
}

export function InboxView({ initial, filters, tenants, providers, currencies, canAct, userId }: Props) {
  const query = filtersToQuery(filters, true);
  const { data, isFetching, isError, refetch } = useQuery({
    queryKey: ["inbox", query],
    queryFn: () => fetchInbox(query),
    initialData: initial,
    refetchInterval: 15_000,
  });
  const rows = data.rows;
  const now = Date.parse(data.now);

  // The row under the keyboard cursor is kept by id, so a live refresh never moves the reader.
  const [activeId, setActiveId] = useState<string | null>(rows[0]?.id ?? null);
  // Selected rows are kept as they were when picked: a bulk run's rows leave the inbox
  // as they are resolved, and each one's lookup and result stay on screen until dismissed.
  const [selected, setSelected] = useState<Map<string, InboxRowJson>>(new Map());
  const [message, setMessage] = useState<string | null>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const rowRefs = useRef(new Map<string, HTMLTableRowElement>());
  const activeIndex = Math.max(
    0,
    rows.findIndex((r) => r.id === activeId),
  );

  const move = useCallback(
    (delta: number) => {
      const next = rows[Math.min(rows.length - 1, Math.max(0, activeIndex + delta))];
      if (next) {
        setActiveId(next.id);
        rowRefs.current.get(next.id)?.focus();
      }
    },
    [rows, activeIndex],
  );

  const claim = useCallback(
    async (row: InboxRowJson) => {
      const result = await claimAction({}, { intentId: row.id, tenantId: row.tenantId });
      setMessage(result.data ? `Claimed ${row.intentKey}` : (result.serverError?.message ?? "Not claimed."));
      await refetch();
    },
    [refetch],
  );

  const toggle = useCallback((row: InboxRowJson) => {
    setSelected((s) => {
      const next = new Map(s);
      if (next.has(row.id)) next.delete(row.id);
      else next.set(row.id, row);
      return next;
    });
  }, []);

  useInboxKeyboard({ rows, activeIndex, move, canAct, claim, searchRef, toggle });

  const selectedRows = useMemo(() => [...selected.values()], [selected]);

  return (
    <div className="space-y-3">
      {/* Keyed by the filter: its fields are uncontrolled, and a link to another filter
          (Show them, Reset) must show that filter's values, not the last ones typed. */}
      <InboxFiltersForm
        key={filtersToQuery(filters)}
        filters={filters}
        tenants={tenants}
        providers={providers}
        currencies={currencies}
        searchRef={searchRef}
      />

      <AutoNotice filters={filters} hidden={data.autoHidden} />

      {data.total !== null && (
        <p className="text-sm font-medium" data-testid="inbox-total">
          {data.total.toLocaleString("en")} unknown {data.total === 1 ? "matches" : "match"} these filters
        </p>
      )}

      <div className="flex flex-wrap items-center gap-3 text-xs text-slate-600">
        <span aria-live="polite">
          {isError
            ? "Live refresh failed; showing the last rows"
            : isFetching
              ? "Refreshing…"
              : `Live · updated ${new Date(data.now).toLocaleTimeString()}`}
        </span>
        <span>
          Keys: <kbd>j</kbd>/<kbd>k</kbd> move · <kbd>Enter</kbd> open ·{" "}
          {canAct && (
            <>
              <kbd>c</kbd> claim · <kbd>x</kbd> select ·{" "}
            </>
          )}
          <kbd>/</kbd> search
        </span>
        {message && (
          <span role="status" className="ml-auto text-slate-700">
            {message}
          </span>
        )}
      </div>

      {canAct && selectedRows.length > 0 && (
        <BulkBar
          rows={selectedRows}
          now={now}
          onDone={() => void refetch()}
          onDismiss={(ids) =>
            setSelected((s) => {
              const next = new Map(s);
              for (const id of ids) next.delete(id);
              return next;
            })
          }
        />
      )}

      <table
        className="block w-full text-sm sm:table sm:rounded sm:border sm:border-slate-200 sm:bg-white"
        aria-label="Unknown intents"
      >
        <thead className="hidden sm:table-header-group">
          <tr className="text-left text-xs text-slate-600">
            {canAct && (
              <th scope="col" className={HEAD}>
                <span className="sr-only">Select</span>
              </th>
            )}
            {COLUMNS.map(([name, align]) => (
              <th key={name} scope="col" className={`${HEAD} ${align}`}>
                {name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="block sm:table-row-group">
          {rows.length === 0 && (
            <tr>
              <td colSpan={COLUMNS.length + 1} className="block p-6 text-center text-slate-600 sm:table-cell">
                {data.autoHidden > 0
                  ? "Nothing for people under this filter: the reconciler is working on the rest."
                  : "Nothing unknown under this filter."}
              </td>
            </tr>
          )}
          {rows.map((row) => (
            <InboxTableRow
              key={row.id}
              row={row}
              now={now}
              active={row.id === rows[activeIndex]?.id}
              canAct={canAct}
              checked={selected.has(row.id)}
              userId={userId}
              onCheck={(checked) => {
                const next = new Map(selected);
                if (checked) next.set(row.id, row);
                else next.delete(row.id);
                setSelected(next);
              }}
              onActivate={() => setActiveId(row.id)}
              rowRef={(el) => {
                if (el) rowRefs.current.set(row.id, el);
                else rowRefs.current.delete(row.id);
              }}
            />
          ))}
        </tbody>
      </table>
      <nav aria-label="Pages" className="flex gap-3 text-sm">
        {filters.cursor && (
          <Link href={`/inbox?${filtersToQuery(filters)}`} className="underline">
            ← First page
          </Link>
        )}
        {data.nextCursor && (
          <Link
            href={`/inbox?${new URLSearchParams({ ...Object.fromEntries(new URLSearchParams(filtersToQuery(filters))), cursor: data.nextCursor })}`}
            className="underline"
          >
            Next page →
          </Link>
        )}
      </nav>
    </div>
  );
}
