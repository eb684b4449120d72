"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import type { WaitingSummary } from "@/lib/approvals/queue";

export type { WaitingSummary };

/** One poll for the navigation's count and the queue's live refresh (the same query key: fetched once). */
export const WAITING_KEY = ["approvals", "waiting"] as const;

async function fetchWaiting(): Promise<WaitingSummary> {
  const response = await fetch("/api/approvals/count", { cache: "no-store" });
  if (!response.ok) throw new Error(`Approvals refresh failed (${response.status})`);
  return (await response.json()) as WaitingSummary;
}

export function useWaiting(initial: WaitingSummary) {
  const queryClient = useQueryClient();
  // A server render (a decision's refresh, a navigation) is newer than the last poll: take it.
  useEffect(() => {
    queryClient.setQueryData(WAITING_KEY, initial);
  }, [initial, queryClient]);
  return useQuery({
    queryKey: WAITING_KEY,
    queryFn: fetchWaiting,
    initialData: initial,
    // Server-rendered just now: poll from here on, like the inbox.
    initialDataUpdatedAt: Date.now,
    refetchInterval: 15_000,
  });
}
