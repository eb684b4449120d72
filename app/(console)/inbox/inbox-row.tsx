"use client";

import Link from "next/link";
import { Time } from "@/components/time";
import { formatAge, formatAmount, formatDuration, intentPath } from "@/lib/format";
import { actBeforeText, keyExpiresSoon } from "@/lib/inbox/deadline";
import { CELL, ROW } from "./cells";
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

function Badge({ tone, children, title }: { tone: string; children: React.ReactNode; title?: string }) {
  return (
    <span title={title} className={`rounded px-1 text-xs whitespace-nowrap ${tone}`}>
      {children}
    </span>
  );
}

/** One unknown intent in the inbox table: one line, each long value truncated with its full text as a title. */
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
  const claimLive = row.claimedBy && row.claimExpiresAt && Date.parse(row.claimExpiresAt) > now;
  const amount = row.amountMinor ? formatAmount(row.amountMinor, row.currency) : (row.recipient ?? "—");
  const deadlinePassed = row.actBefore !== null && Date.parse(row.actBefore) <= now;
  return (
    <tr
      ref={rowRef}
      tabIndex={active ? 0 : -1}
      aria-selected={active}
      onFocus={onActivate}
      onClick={onActivate}
      className={`${ROW} ${active ? "bg-blue-50 outline outline-1 outline-blue-300" : ""}`}
    >
      {canAct && (
        <td className={CELL} data-label="Select">
          <input
            type="checkbox"
            aria-label={`Select ${row.intentKey}`}
            checked={checked}
            onChange={(e) => onCheck(e.target.checked)}
          />
        </td>
      )}
      <td className={`${CELL} sm:max-w-72`} data-label="Intent">
        <Link
          href={intentPath(row)}
          title={`${row.intentKey} · ${row.operation}${row.status === "dispatched" ? " · lease expired" : ""}`}
          className="block truncate font-mono text-xs text-blue-800 underline"
        >
          {row.intentKey}
        </Link>
      </td>
      <td className={CELL} data-label="Tenant">
        {row.tenantId}
      </td>
      <td className={`${CELL} sm:max-w-40`} data-label="Provider">
        <span className="block truncate" title={row.provider.name}>
          {row.provider.name}
        </span>
      </td>
      <td className={`${CELL} tabular-nums sm:max-w-48 sm:text-right`} data-label="Amount / recipient">
        <span className="block truncate" title={amount}>
          {amount}
        </span>
      </td>
      <td className={CELL} data-label="Act before">
        <span>
          <span className={deadlinePassed ? "text-slate-600" : "font-medium"}>
            {actBeforeText(row.actBefore, now)}
          </span>
          {row.actBefore && (
            <span className="ml-1 text-xs text-slate-600">
              <Time value={row.actBefore} />
            </span>
          )}
        </span>
      </td>
      <td className={CELL} data-label="Age">
        <span
          title={`Since the last attempt; the provider normally answers within ${formatDuration(row.provider.responseWindowSeconds)}`}
        >
          {formatAge(age)}
          <span className="text-xs text-slate-600">
            {" "}
            / {formatDuration(row.provider.responseWindowSeconds)}
          </span>
        </span>
      </td>
      <td className={`${CELL} tabular-nums sm:text-right`} data-label="Attempts">
        {row.attemptCount}
      </td>
      <td className={`${CELL} space-x-1`} data-label="Flags">
        <span className="space-x-1">
          {keyExpiresSoon(row.actBefore, now) && (
            <Badge
              tone="bg-red-100 text-red-800"
              title="The provider forgets this key soon: after that, an absent lookup no longer makes a retry safe"
            >
              key expires in &lt; 2 h
            </Badge>
          )}
          {row.needsOperator && <Badge tone="bg-amber-100 text-amber-900">needs operator</Badge>}
          {row.awaiting && (
            <Badge tone="bg-violet-100 text-violet-900" title="An approval request is waiting on this intent">
              awaiting {row.awaiting.required - row.awaiting.approved} of {row.awaiting.required}
            </Badge>
          )}
          {claimLive && (
            <Badge tone="bg-slate-100 text-slate-800">
              claimed by {row.claimedBy!.id === userId ? "you" : row.claimedBy!.name}
            </Badge>
          )}
          {row.reconciler && <ReconcilerBadge nextAt={row.reconciler.nextAt} now={now} />}
        </span>
      </td>
    </tr>
  );
}
