"use client";

import { useActionState, useState } from "react";
import { ActionAlert, FieldError, fieldError } from "@/components/action-feedback";
import { decideAction } from "./actions";

type Decided = {
  resolutionId: string;
  outcome: "approved_waiting" | "applied" | "denied";
  approvals: number;
  required: number;
  compensationOutcome: string | null;
};

function outcomeText(d: Decided): string {
  if (d.outcome === "applied")
    return `Approved and applied.${d.compensationOutcome ? ` Compensation ${d.compensationOutcome}.` : ""}`;
  if (d.outcome === "denied") return "Denied: the request is closed and nothing was applied.";
  return `Approved (${d.approvals} of ${d.required}): waiting for another approver.`;
}

/**
 * Approve or deny, with a reason. A plain form: the decision is the button pressed, so
 * it works without JavaScript; while it is being decided both buttons are disabled.
 */
export function DecisionForm({ resolutionId, label }: { resolutionId: string; label: string }) {
  const [state, formAction, pending] = useActionState(decideAction, {});
  const [reason, setReason] = useState("");
  const reasonError = fieldError(state, "reason");
  const inputId = `reason-${resolutionId}`;
  if (state.data && !pending)
    return (
      <p role="status" className="mt-3 rounded bg-green-50 p-2 text-green-900">
        {outcomeText(state.data)}
      </p>
    );
  return (
    <form action={formAction} aria-label={`Decide on ${label}`} className="mt-3 space-y-2">
      <input type="hidden" name="resolutionId" value={resolutionId} />
      <div className="flex flex-wrap items-end gap-2">
        <label className="flex w-full flex-col sm:w-auto" htmlFor={inputId}>
          <span className="text-xs text-slate-600">Reason for your decision</span>
          <input
            id={inputId}
            name="reason"
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            required
            minLength={5}
            maxLength={2000}
            aria-invalid={reasonError ? true : undefined}
            aria-describedby={`${inputId}-error`}
            className="w-full rounded border border-slate-300 px-2 py-1 sm:w-96"
          />
        </label>
        <button
          type="submit"
          name="decision"
          value="approved"
          disabled={pending}
          className="rounded bg-green-700 px-3 py-1 font-medium text-white disabled:opacity-60"
        >
          Approve
        </button>
        <button
          type="submit"
          name="decision"
          value="denied"
          disabled={pending}
          className="rounded bg-red-700 px-3 py-1 font-medium text-white disabled:opacity-60"
        >
          Deny
        </button>
        {pending && (
          <span role="status" aria-live="polite" className="text-slate-600">
            Deciding…
          </span>
        )}
      </div>
      <FieldError id={`${inputId}-error`} message={reasonError} />
      <ActionAlert state={state} />
    </form>
  );
}
