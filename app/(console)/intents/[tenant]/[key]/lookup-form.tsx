"use client";

import { useActionState, useEffect, useState } from "react";
import { ActionAlert } from "@/components/action-feedback";
import { lookupAction } from "./actions";

const METHOD_LABELS: Record<string, string> = {
  idempotency_key: "Look up by idempotency key",
  provider_request_id: "Look up by provider id",
  domain_attributes: "Look up by amount, customer and time",
};

/** Ask the provider, one button per lookup method it supports; progress while it answers. */
export function LookupForm({
  intentId,
  tenantId,
  methods,
}: {
  intentId: string;
  tenantId: string;
  methods: string[];
}) {
  const [state, formAction, pending] = useActionState(lookupAction, {});
  const [elapsed, setElapsed] = useState(0);
  useEffect(() => {
    if (!pending) return;
    const started = Date.now();
    const timer = setInterval(() => setElapsed(Math.floor((Date.now() - started) / 1000)), 250);
    return () => {
      clearInterval(timer);
      setElapsed(0);
    };
  }, [pending]);
  return (
    <section
      aria-labelledby="lookup-heading"
      className="space-y-2 rounded border border-slate-200 bg-white p-3 text-sm"
    >
      <h2 id="lookup-heading" className="font-semibold">
        Ask the provider
      </h2>
      <form action={formAction} className="flex flex-col gap-2">
        <input type="hidden" name="intentId" value={intentId} />
        <input type="hidden" name="tenantId" value={tenantId} />
        {methods.map((m) => (
          <button
            key={m}
            type="submit"
            name="method"
            value={m}
            disabled={pending}
            className="rounded border border-slate-300 px-3 py-1 text-left hover:bg-slate-50 disabled:opacity-60"
          >
            {METHOD_LABELS[m] ?? m}
          </button>
        ))}
      </form>
      {pending && (
        <p role="status" aria-live="polite">
          Asking the provider… {elapsed} s
        </p>
      )}
      {state.data && !pending && (
        <p role="status">
          Result: <strong>{state.data.outcome.replace(/_/g, " ")}</strong>
          {state.data.errorClass && ` (${state.data.errorClass}) — not evidence of absence`}
        </p>
      )}
      <ActionAlert state={state} />
    </section>
  );
}
