"use client";

import { useActionState } from "react";
import { ActionAlert } from "@/components/action-feedback";
import { sendCompensationAction } from "./actions";

/** A compensation prepared but not sent (the sender stopped, or sending failed): send it now. */
export function SendCompensationForm({ intentId, tenantId }: { intentId: string; tenantId: string }) {
  const [state, formAction, pending] = useActionState(sendCompensationAction, {});
  return (
    <section
      aria-labelledby="send-heading"
      className="space-y-2 rounded border border-amber-200 bg-amber-50 p-3 text-sm"
    >
      <h2 id="send-heading" className="font-semibold">
        Not sent yet
      </h2>
      <p>This compensation was approved and prepared but has not reached the provider.</p>
      <form action={formAction}>
        <input type="hidden" name="intentId" value={intentId} />
        <input type="hidden" name="tenantId" value={tenantId} />
        <button
          type="submit"
          disabled={pending}
          className="rounded bg-slate-900 px-3 py-1 font-medium text-white disabled:opacity-60"
        >
          {pending ? "Sending…" : "Send it now"}
        </button>
      </form>
      {state.data && !pending && <p role="status">Sent: {state.data.outcome}.</p>}
      <ActionAlert state={state} />
    </section>
  );
}
