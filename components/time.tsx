"use client";

import { useSyncExternalStore } from "react";
import { formatUtc } from "@/lib/format";

const noSubscription = () => () => undefined;

/**
 * One time rule everywhere: the time in UTC, rendered the same on the server and in the
 * browser (no hydration drift), with the viewer's local time on hover once the page runs.
 */
export function Time({
  value,
  precision = "minute",
}: {
  value: Date | string | null | undefined;
  precision?: "second" | "minute";
}) {
  // false on the server and while hydrating, true after: the local time never differs between them.
  const inBrowser = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  if (!value) return <span>—</span>;
  const date = new Date(value);
  return (
    <time
      dateTime={date.toISOString()}
      title={inBrowser ? `${date.toLocaleString()} (your time)` : undefined}
    >
      {formatUtc(date, precision)}
    </time>
  );
}
