"use client";

import { useActionState, useState } from "react";
import { ActionAlert } from "@/components/action-feedback";
import { revokeSessionsAction } from "./actions";

/** End every live session of one user at once, with a reason (audited). */
export function RevokeSessionsForm({ userId, name, live }: { userId: string; name: string; live: number }) {
  const [state, formAction, pending] = useActionState(revokeSessionsAction, {});
  const [reason, setReason] = useState("");
  return (
    <form
      action={formAction}
      aria-label={`End sessions of ${name}`}
      className="flex flex-wrap items-center gap-2"
    >
      <input type="hidden" name="userId" value={userId} />
      <span className="text-xs text-slate-600">
        {live} live session{live === 1 ? "" : "s"}
      </span>
      {live > 0 && (
        <>
          <input
            name="reason"
            aria-label={`Reason to end the sessions of ${name}`}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            required
            minLength={5}
            placeholder="Reason"
            className="w-40 rounded border border-slate-300 px-2 py-0.5 text-xs"
          />
          <button
            type="submit"
            disabled={pending}
            className="rounded border border-slate-300 px-2 py-0.5 text-xs"
          >
            End sessions
          </button>
        </>
      )}
      {state.data && !pending && (
        <span role="status" className="text-xs text-green-800">
          Ended {state.data.ended}
        </span>
      )}
      <ActionAlert state={state} />
    </form>
  );
}
