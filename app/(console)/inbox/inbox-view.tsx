"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { formatAge, formatAmount, intentPath } from "@/lib/format";
import { filtersToQuery, type InboxFilters } from "@/lib/inbox/query";
import { claimAction } from "../intents/[tenant]/[key]/actions";
import { BulkBar } from "./bulk-bar";
import type { InboxData, InboxRowJson } from "./types";

export type { InboxData };

type Option = { id: string; name: string };

type Props = {
  initial: InboxData;
  filters: InboxFilters;
  tenants: Option[];
  providers: Option[];
  canAct: boolean;
  userId: string;
};

async function fetchInbox(query: string): Promise<InboxData> {
  const response = await fetch(`/api/inbox?${query}`, { cache: "no-store" });
  if (!response.ok) throw new Error(`Inbox refresh failed (${response.status})`);
  return (await response.json()) as InboxData;
}

function typing(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))
  );
}

export function InboxView({ initial, filters, tenants, providers, canAct, userId }: Props) {
  const router = useRouter();
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
  // as they are resolved, and its progress and results must stay on screen.
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

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.metaKey || event.ctrlKey || event.altKey) return;
      if (event.key === "/" && !typing(event.target)) {
        event.preventDefault();
        searchRef.current?.focus();
        return;
      }
      if (typing(event.target)) return;
      const row = rows[activeIndex];
      if (event.key === "j" || event.key === "ArrowDown") {
        event.preventDefault();
        move(1);
      } else if (event.key === "k" || event.key === "ArrowUp") {
        event.preventDefault();
        move(-1);
      } else if ((event.key === "Enter" || event.key === "o") && row) {
        event.preventDefault();
        router.push(intentPath(row));
      } else if (event.key === "c" && row && canAct) {
        event.preventDefault();
        void claim(row);
      } else if (event.key === "x" && row && canAct) {
        event.preventDefault();
        setSelected((s) => {
          const next = new Map(s);
          if (next.has(row.id)) next.delete(row.id);
          else next.set(row.id, row);
          return next;
        });
      }
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [rows, activeIndex, move, router, canAct, claim]);

  const selectedRows = useMemo(() => [...selected.values()], [selected]);

  function applyFilters(form: HTMLFormElement) {
    const data = new FormData(form);
    const next: Record<string, string> = {};
    for (const [k, v] of data) if (typeof v === "string" && v !== "") next[k] = v;
    router.push(`/inbox?${new URLSearchParams(next)}`);
  }

  const exportQuery = filtersToQuery(filters);
  return (
    <div className="space-y-3">
      <form
        aria-label="Inbox filters"
        className="flex flex-wrap items-end gap-3 rounded border border-slate-200 bg-white p-3 text-sm"
        onSubmit={(e) => {
          e.preventDefault();
          applyFilters(e.currentTarget);
        }}
      >
        <label className="flex flex-col">
          <span className="text-xs text-slate-600">Search (key, workflow, customer or provider id)</span>
          <input
            ref={searchRef}
            name="q"
            type="search"
            defaultValue={filters.q ?? ""}
            className="w-80 rounded border border-slate-300 px-2 py-1"
            placeholder="invoice:inv_42:collect:v1"
          />
        </label>
        <Select label="Tenant" name="tenant" value={filters.tenant} options={tenants} />
        <Select label="Provider" name="provider" value={filters.provider} options={providers} />
        <Select
          label="Age"
          name="age"
          value={filters.age}
          options={[
            { id: "over_window", name: "Past response window" },
            { id: "over_1h", name: "Older than 1 h" },
            { id: "over_24h", name: "Older than 24 h" },
          ]}
          anyLabel="Any age"
        />
        <label className="flex flex-col">
          <span className="text-xs text-slate-600">Amount from</span>
          <input
            name="min"
            type="number"
            min="0"
            step="any"
            defaultValue={filters.min ?? ""}
            className="w-24 rounded border border-slate-300 px-2 py-1"
          />
        </label>
        <label className="flex flex-col">
          <span className="text-xs text-slate-600">Amount to</span>
          <input
            name="max"
            type="number"
            min="0"
            step="any"
            defaultValue={filters.max ?? ""}
            className="w-24 rounded border border-slate-300 px-2 py-1"
          />
        </label>
        <Select
          label="Claim"
          name="claim"
          value={filters.claim}
          options={[
            { id: "unclaimed", name: "Unclaimed" },
            { id: "claimed", name: "Claimed" },
            { id: "mine", name: "Mine" },
          ]}
          anyLabel="Anyone's"
        />
        <Select
          label="Needs operator"
          name="needsOperator"
          value={filters.needsOperator}
          options={[
            { id: "1", name: "Needs operator" },
            { id: "0", name: "Not flagged" },
          ]}
          anyLabel="Either"
        />
        <button type="submit" className="rounded bg-slate-900 px-3 py-1.5 font-medium text-white">
          Filter
        </button>
        <Link href="/inbox" className="px-1 py-1.5 text-slate-600 underline">
          Reset
        </Link>
        <a
          href={`/api/inbox/export?${exportQuery}`}
          className="ml-auto rounded border border-slate-300 px-3 py-1.5"
          download
        >
          Export CSV
        </a>
      </form>

      <div className="flex items-center gap-3 text-xs text-slate-600">
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
        <BulkBar rows={selectedRows} onDone={() => void refetch()} onClear={() => setSelected(new Map())} />
      )}

      <table className="w-full rounded border border-slate-200 bg-white text-sm" aria-label="Unknown intents">
        <thead>
          <tr className="border-b border-slate-200 text-left text-xs text-slate-600">
            {canAct && (
              <th scope="col" className="p-2">
                <span className="sr-only">Select</span>
              </th>
            )}
            <th scope="col" className="p-2">
              Intent
            </th>
            <th scope="col" className="p-2">
              Tenant
            </th>
            <th scope="col" className="p-2">
              Provider
            </th>
            <th scope="col" className="p-2 text-right">
              Amount / recipient
            </th>
            <th scope="col" className="p-2">
              Age
            </th>
            <th scope="col" className="p-2 text-right">
              Attempts
            </th>
            <th scope="col" className="p-2">
              Flags
            </th>
            <th scope="col" className="p-2">
              Claimed by
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && (
            <tr>
              <td colSpan={9} className="p-6 text-center text-slate-600">
                Nothing unknown under this filter.
              </td>
            </tr>
          )}
          {rows.map((row) => {
            const age = now - Date.parse(row.lastAttemptAt ?? row.createdAt);
            const overWindow = age > row.provider.responseWindowSeconds * 1000;
            const claimLive = row.claimedBy && row.claimExpiresAt && Date.parse(row.claimExpiresAt) > now;
            const active = row.id === rows[activeIndex]?.id;
            return (
              <tr
                key={row.id}
                ref={(el) => {
                  if (el) rowRefs.current.set(row.id, el);
                  else rowRefs.current.delete(row.id);
                }}
                tabIndex={active ? 0 : -1}
                aria-selected={active}
                onFocus={() => setActiveId(row.id)}
                onClick={() => setActiveId(row.id)}
                className={`border-b border-slate-100 ${active ? "bg-blue-50 outline outline-1 outline-blue-300" : ""}`}
              >
                {canAct && (
                  <td className="p-2">
                    <input
                      type="checkbox"
                      aria-label={`Select ${row.intentKey}`}
                      checked={selected.has(row.id)}
                      onChange={(e) => {
                        const next = new Map(selected);
                        if (e.target.checked) next.set(row.id, row);
                        else next.delete(row.id);
                        setSelected(next);
                      }}
                    />
                  </td>
                )}
                <td className="p-2">
                  <Link href={intentPath(row)} className="font-mono text-xs text-blue-800 underline">
                    {row.intentKey}
                  </Link>
                  <div className="text-xs text-slate-600">
                    {row.operation}
                    {row.status === "dispatched" && " · lease expired"}
                  </div>
                </td>
                <td className="p-2">{row.tenantId}</td>
                <td className="p-2">{row.provider.name}</td>
                <td className="p-2 text-right tabular-nums">
                  {row.amountMinor ? formatAmount(row.amountMinor, row.currency) : (row.recipient ?? "—")}
                </td>
                <td className="p-2 whitespace-nowrap">
                  {formatAge(age)}
                  {overWindow && (
                    <span
                      className="ml-1 rounded bg-red-100 px-1 text-xs text-red-800"
                      title={`Past the ${row.provider.responseWindowSeconds} s response window`}
                    >
                      past window
                    </span>
                  )}
                </td>
                <td className="p-2 text-right tabular-nums">{row.attemptCount}</td>
                <td className="p-2">
                  {row.needsOperator && (
                    <span className="rounded bg-amber-100 px-1 text-xs text-amber-900">needs operator</span>
                  )}
                </td>
                <td className="p-2">
                  {claimLive ? (
                    row.claimedBy!.id === userId ? (
                      "You"
                    ) : (
                      row.claimedBy!.name
                    )
                  ) : (
                    <span className="text-slate-600">—</span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <nav aria-label="Pages" className="flex gap-3 text-sm">
        {filters.cursor && (
          <Link href={`/inbox?${filtersToQuery(filters)}`} className="underline">
            ← Oldest first
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

function Select({
  label,
  name,
  value,
  options,
  anyLabel = "All",
}: {
  label: string;
  name: string;
  value: string | undefined;
  options: Option[];
  anyLabel?: string;
}) {
  return (
    <label className="flex flex-col">
      <span className="text-xs text-slate-600">{label}</span>
      <select
        name={name}
        defaultValue={value === "any" ? "" : (value ?? "")}
        className="rounded border border-slate-300 px-2 py-1"
      >
        <option value="">{anyLabel}</option>
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
    </label>
  );
}
