"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { postJson } from "@/components/post-json";

type Result = {
  outcome: "approved_waiting" | "applied" | "denied";
  compensation: { outcome: string } | null;
};

export function DecisionForm({ resolutionId, label }: { resolutionId: string; label: string }) {
  const router = useRouter();
  const [reason, setReason] = useState("");
  const decide = useMutation({
    mutationFn: (decision: "approved" | "denied") =>
      postJson<Result>(`/api/resolutions/${resolutionId}/decision`, { decision, reason }),
    // A decided request leaves the queue on the next visit; the answer stays on screen now.
    onSuccess: (result) => {
      if (result.outcome === "approved_waiting") router.refresh();
    },
  });
  return (
    <form
      aria-label={`Decide on ${label}`}
      className="mt-3 flex flex-wrap items-end gap-2"
      onSubmit={(e) => e.preventDefault()}
    >
      <label className="flex flex-col">
        <span className="text-xs text-slate-600">Reason for your decision</span>
        <input
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          maxLength={2000}
          className="w-96 rounded border border-slate-300 px-2 py-1"
        />
      </label>
      <button
        type="button"
        disabled={decide.isPending}
        onClick={() => decide.mutate("approved")}
        className="rounded bg-green-700 px-3 py-1 font-medium text-white disabled:opacity-60"
      >
        Approve
      </button>
      <button
        type="button"
        disabled={decide.isPending}
        onClick={() => decide.mutate("denied")}
        className="rounded bg-red-700 px-3 py-1 font-medium text-white disabled:opacity-60"
      >
        Deny
      </button>
      {decide.data && (
        <p role="status" className="w-full text-green-900">
          {decide.data.outcome === "applied"
            ? `Approved and applied.${decide.data.compensation ? ` Compensation ${decide.data.compensation.outcome}.` : ""}`
            : decide.data.outcome === "denied"
              ? "Denied: the request is closed."
              : "Approved: waiting for another approver."}
        </p>
      )}
      {decide.error && (
        <p role="alert" className="w-full rounded bg-red-50 p-2 text-red-800">
          {decide.error.message}
        </p>
      )}
    </form>
  );
}
