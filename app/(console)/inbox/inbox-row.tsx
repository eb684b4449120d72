"use client";

import Link from "next/link";
import { formatAge, formatAmount, intentPath } from "@/lib/format";
import { ReconcilerBadge } from "./reconciler-badge";
import type { InboxRowJson } from "./types";

type Props = {
  row: InboxRowJson;
  /** The server's time of this page (ages are counted from it, not from the browser's clock). */
  now: number;
  active: boolean;
  canAct: boolean;
  checked: boolean;
  userId: string;
  onCheck: (checked: boolean) => void;
  onActivate: () => void;
  rowRef: (el: HTMLTableRowElement | null) => void;
};

/** One unknown intent in the inbox table. */
export function InboxTableRow({
  row,
  now,
  active,
  canAct,
  checked,
  userId,
  onCheck,
  onActivate,
  rowRef,
}: Props) {
  const age = now - Date.parse(row.lastAttemptAt ?? row.createdAt);
  const overWindow = age > row.provider.responseWindowSeconds * 1000;
  const claimLive = row.claimedBy && row.claimExpiresAt && Date.parse(row.claimExpiresAt) > now;
  return (
    <tr
      ref={rowRef}
      tabIndex={active ? 0 : -1}
      aria-selected={active}
      onFocus={onActivate}
      onClick={onActivate}
      className={`border-b border-slate-100 ${active ? "bg-blue-50 outline outline-1 outline-blue-300" : ""}`}
    >
      {canAct && (
        <td className="p-2">
          <input
            type="checkbox"
            aria-label={`Select ${row.intentKey}`}
            checked={checked}
            onChange={(e) => onCheck(e.target.checked)}
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
      <td className="space-x-1 p-2">
        {row.needsOperator && (
          <span className="rounded bg-amber-100 px-1 text-xs text-amber-900">needs operator</span>
        )}
        {row.reconciler && <ReconcilerBadge nextAt={row.reconciler.nextAt} now={now} />}
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
}
