"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { postJson } from "@/components/post-json";

function ErrorText({ error }: { error: Error | null }) {
  if (!error) return null;
  return (
    <p role="alert" className="rounded bg-red-50 p-2 text-sm text-red-800">
      {error.message}
    </p>
  );
}

export function ClaimControl({
  intentId,
  tenantId,
  claim,
}: {
  intentId: string;
  tenantId: string;
  claim: { mine: boolean; name: string; until: string } | null;
}) {
  const router = useRouter();
  const [reason, setReason] = useState("");
  const action = useMutation({
    mutationFn: (kind: "claim" | "release") =>
      postJson(
        `/api/intents/${intentId}/${kind}`,
        kind === "claim"
          ? { tenantId, takeOverReason: claim && !claim.mine ? reason : undefined }
          : { tenantId },
      ),
    onSuccess: () => router.refresh(),
  });
  return (
    <section
      aria-labelledby="claim-heading"
      className="space-y-2 rounded border border-slate-200 bg-white p-3 text-sm"
    >
      <h2 id="claim-heading" className="font-semibold">
        Claim
      </h2>
      {claim ? (
        <p>
          {claim.mine ? "You hold" : `${claim.name} holds`} the claim until{" "}
          {new Date(claim.until).toLocaleTimeString()}.
        </p>
      ) : (
        <p>Nobody is working on this intent.</p>
      )}
      {claim?.mine ? (
        <button
          type="button"
          disabled={action.isPending}
          onClick={() => action.mutate("release")}
          className="rounded border border-slate-300 px-3 py-1"
        >
          Release
        </button>
      ) : claim ? (
        <form
          className="space-y-2"
          onSubmit={(e) => {
            e.preventDefault();
            action.mutate("claim");
          }}
        >
          <label className="block">
            <span className="text-xs text-slate-600">Reason to take over</span>
            <input
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              className="w-full rounded border border-slate-300 px-2 py-1"
            />
          </label>
          <button
            type="submit"
            disabled={action.isPending}
            className="rounded bg-amber-600 px-3 py-1 font-medium text-white"
          >
            Take over
          </button>
        </form>
      ) : (
        <button
          type="button"
          disabled={action.isPending}
          onClick={() => action.mutate("claim")}
          className="rounded bg-slate-900 px-3 py-1 font-medium text-white"
        >
          Claim
        </button>
      )}
      <ErrorText error={action.error} />
    </section>
  );
}

const METHOD_LABELS: Record<string, string> = {
  idempotency_key: "Look up by idempotency key",
  provider_request_id: "Look up by provider id",
  domain_attributes: "Look up by amount, customer and time",
};

export function LookupControl({
  intentId,
  tenantId,
  methods,
}: {
  intentId: string;
  tenantId: string;
  methods: string[];
}) {
  const router = useRouter();
  const [elapsed, setElapsed] = useState(0);
  const lookup = useMutation({
    mutationFn: (method: string) =>
      postJson<{ lookup: { outcome: string; errorClass: string | null } }>(
        `/api/intents/${intentId}/lookups`,
        {
          tenantId,
          method,
        },
      ),
    onSuccess: () => router.refresh(),
  });
  useEffect(() => {
    if (!lookup.isPending) return;
    const started = Date.now();
    const timer = setInterval(() => setElapsed(Math.floor((Date.now() - started) / 1000)), 250);
    return () => clearInterval(timer);
  }, [lookup.isPending]);
  return (
    <section
      aria-labelledby="lookup-heading"
      className="space-y-2 rounded border border-slate-200 bg-white p-3 text-sm"
    >
      <h2 id="lookup-heading" className="font-semibold">
        Ask the provider
      </h2>
      <div className="flex flex-col gap-2">
        {methods.map((m) => (
          <button
            key={m}
            type="button"
            disabled={lookup.isPending}
            onClick={() => lookup.mutate(m)}
            className="rounded border border-slate-300 px-3 py-1 text-left hover:bg-slate-50 disabled:opacity-60"
          >
            {METHOD_LABELS[m] ?? m}
          </button>
        ))}
      </div>
      {lookup.isPending && (
        <p role="status" aria-live="polite">
          Asking the provider… {elapsed} s
        </p>
      )}
      {lookup.data && !lookup.isPending && (
        <p role="status">
          Result: <strong>{lookup.data.lookup.outcome.replace(/_/g, " ")}</strong>
          {lookup.data.lookup.errorClass && ` (${lookup.data.lookup.errorClass}) — not evidence of absence`}
        </p>
      )}
      <ErrorText error={lookup.error} />
    </section>
  );
}

const KINDS = [
  {
    id: "accept_receipt",
    label: "Accept receipt",
    hint: "The provider has exactly this effect (found matching).",
  },
  {
    id: "mark_rejected",
    label: "Mark rejected",
    hint: "The provider proved it absent; safe to retry with the same key.",
  },
  {
    id: "start_compensation",
    label: "Start compensation",
    hint: "Refund a charge that happened; needs an approver.",
  },
  { id: "escalate", label: "Escalate", hint: "The evidence is ambiguous; keep it unknown and flag it." },
] as const;

type Proposal = {
  applied: boolean;
  replayed: boolean;
  intent: { status: string };
  resolution: { requiredApprovals: number };
  compensation: { outcome: string } | null;
};

export function ResolveForm({
  intentId,
  tenantId,
  status,
  version,
  lookups,
}: {
  intentId: string;
  tenantId: string;
  status: string;
  version: number;
  lookups: { id: string; label: string; outcome: string }[];
}) {
  const router = useRouter();
  const [kind, setKind] = useState<string>("accept_receipt");
  const [evidence, setEvidence] = useState<string>(lookups[0]?.id ?? "");
  const [external, setExternal] = useState("");
  const [reason, setReason] = useState("");
  // One key per form submission: a double click or a retry is applied once.
  const [submissionKey, setSubmissionKey] = useState(() => crypto.randomUUID());
  const resolve = useMutation({
    mutationFn: () =>
      postJson<Proposal>(`/api/intents/${intentId}/resolutions`, {
        tenantId,
        kind,
        reason,
        lookupId: evidence && evidence !== "external" ? evidence : null,
        externalEvidenceRef: evidence === "external" ? external : null,
        expectedVersion: version,
        submissionKey,
      }),
    onSuccess: () => {
      setSubmissionKey(crypto.randomUUID());
      router.refresh();
    },
  });
  const resolvable = status === "unknown" || (status === "confirmed" && kind === "start_compensation");
  return (
    <section
      aria-labelledby="resolve-heading"
      className="space-y-2 rounded border border-slate-200 bg-white p-3 text-sm"
    >
      <h2 id="resolve-heading" className="font-semibold">
        Resolve
      </h2>
      <form
        aria-label="Resolve"
        className="space-y-3"
        onSubmit={(e) => {
          e.preventDefault();
          resolve.mutate();
        }}
      >
        <fieldset className="space-y-1">
          <legend className="text-xs text-slate-600">Resolution</legend>
          {KINDS.map((k) => (
            <label key={k.id} className="flex items-start gap-2">
              <input
                type="radio"
                name="kind"
                value={k.id}
                checked={kind === k.id}
                onChange={() => setKind(k.id)}
                className="mt-1"
              />
              <span>
                {k.label}
                <span className="block text-xs text-slate-500">{k.hint}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <label className="block">
          <span className="text-xs text-slate-600">Evidence</span>
          <select
            value={evidence}
            onChange={(e) => setEvidence(e.target.value)}
            className="w-full rounded border border-slate-300 px-2 py-1"
          >
            <option value="">None</option>
            {lookups.map((l) => (
              <option key={l.id} value={l.id}>
                Lookup: {l.label}
              </option>
            ))}
            <option value="external">External evidence reference…</option>
          </select>
        </label>
        {evidence === "external" && (
          <label className="block">
            <span className="text-xs text-slate-600">
              External evidence reference (always needs an approver)
            </span>
            <input
              value={external}
              onChange={(e) => setExternal(e.target.value)}
              className="w-full rounded border border-slate-300 px-2 py-1"
              placeholder="Ticket or statement reference"
            />
          </label>
        )}
        <label className="block">
          <span className="text-xs text-slate-600">Reason</span>
          <textarea
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            rows={3}
            maxLength={2000}
            required
            className="w-full rounded border border-slate-300 px-2 py-1"
          />
        </label>
        <button
          type="submit"
          disabled={resolve.isPending || !resolvable}
          className="w-full rounded bg-slate-900 px-3 py-1.5 font-medium text-white disabled:opacity-50"
        >
          {resolve.isPending ? "Submitting…" : "Submit resolution"}
        </button>
        {!resolvable && (
          <p className="text-xs text-slate-500">This intent is {status}; there is nothing to resolve.</p>
        )}
      </form>
      {resolve.data && (
        <p role="status" className="rounded bg-green-50 p-2 text-green-900">
          {resolve.data.applied
            ? `Applied: the intent is now ${resolve.data.intent.status}.${resolve.data.compensation ? ` Compensation ${resolve.data.compensation.outcome}.` : ""}`
            : `Proposed: waiting for ${resolve.data.resolution.requiredApprovals} approver${resolve.data.resolution.requiredApprovals > 1 ? "s" : ""}. Nothing changes until then.`}
        </p>
      )}
      <ErrorText error={resolve.error} />
    </section>
  );
}
