"use client";

import Link from "next/link";
import { useActionState, useState } from "react";
import { ActionAlert, FieldError, fieldError, type ActionState } from "@/components/action-feedback";
import { proposeAction } from "./actions";

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

type Proposed = {
  resolutionId: string;
  applied: boolean;
  replayed: boolean;
  intentStatus: string;
  requiredApprovals: number;
  compensationOutcome: string | null;
  nextSubmissionKey: string;
};

/** The request already waiting for approval, shown instead of a second proposal. */
export type OpenRequest = {
  id: string;
  kind: string;
  progress: string;
  proposer: string;
  proposedAt: string;
};

function outcomeText(p: Proposed): string {
  if (p.replayed)
    return `Already submitted: this was ${p.applied ? "applied" : "proposed"} before; nothing was done again.`;
  if (p.applied)
    return `Applied: the intent is now ${p.intentStatus}.${p.compensationOutcome ? ` Compensation ${p.compensationOutcome}.` : ""}`;
  return `Proposed: waiting for ${p.requiredApprovals} approver${p.requiredApprovals > 1 ? "s" : ""}. Nothing changes until then.`;
}

/**
 * Propose a resolution. A plain form (it works without JavaScript): every value is a
 * named field, the submission key a hidden one — a double click or a retry of one
 * submission applies once, and each success brings a fresh key.
 */
export function ResolveForm(props: {
  intentId: string;
  tenantId: string;
  status: string;
  version: number;
  submissionKey: string;
  lookups: { id: string; label: string }[];
  openRequest: OpenRequest | null;
}) {
  const [state, formAction, pending] = useActionState(proposeAction, {});
  // The key of the submission being made: kept across refreshes of the page and across a
  // refusal (a retry of the same submission), replaced only by a success's next key.
  const [submissionKey, setSubmissionKey] = useState(props.submissionKey);
  const nextKey = state.data?.nextSubmissionKey;
  if (nextKey && nextKey !== submissionKey) setSubmissionKey(nextKey);
  const resolvable = props.status === "unknown" || props.status === "confirmed";
  return (
    <section
      aria-labelledby="resolve-heading"
      className="space-y-2 rounded border border-slate-200 bg-white p-3 text-sm"
    >
      <h2 id="resolve-heading" className="font-semibold">
        Resolve
      </h2>
      {state.data && !pending && (
        <p role="status" className="rounded bg-green-50 p-2 text-green-900">
          {outcomeText(state.data)}
        </p>
      )}
      <ActionAlert state={state} />
      {props.openRequest ? (
        <div
          role="note"
          aria-label="Waiting for approval"
          className="space-y-1 rounded bg-amber-50 p-2 text-amber-950"
        >
          <p>
            A <strong>{props.openRequest.kind}</strong> request is waiting for approval (
            {props.openRequest.progress}
            ), proposed by {props.openRequest.proposer} at {props.openRequest.proposedAt}. Nothing else can be
            proposed until an approver decides or it expires.
          </p>
          <Link className="text-blue-800 underline" href={`/approvals#request-${props.openRequest.id}`}>
            See it in Approvals
          </Link>
        </div>
      ) : resolvable ? (
        // A fresh set of fields after each success (a new key), so nothing typed lingers.
        <ResolveFields
          key={submissionKey}
          {...props}
          submissionKey={submissionKey}
          formAction={formAction}
          pending={pending}
          state={state}
        />
      ) : (
        <p className="text-xs text-slate-600">This intent is {props.status}; there is nothing to resolve.</p>
      )}
    </section>
  );
}

function ResolveFields({
  intentId,
  tenantId,
  version,
  submissionKey,
  lookups,
  formAction,
  pending,
  state,
}: {
  intentId: string;
  tenantId: string;
  version: number;
  submissionKey: string;
  lookups: { id: string; label: string }[];
  formAction: (form: FormData) => void;
  pending: boolean;
  state: ActionState;
}) {
  // Controlled, so a refusal keeps what was typed (React resets uncontrolled fields after an action).
  const [kind, setKind] = useState("");
  const [evidence, setEvidence] = useState(lookups[0]?.id ?? "");
  const [external, setExternal] = useState("");
  const [reason, setReason] = useState("");
  const errors = {
    kind: fieldError(state, "kind"),
    externalEvidenceRef: fieldError(state, "externalEvidenceRef"),
    reason: fieldError(state, "reason"),
  };
  return (
    <form action={formAction} aria-label="Resolve" className="group space-y-3">
      <input type="hidden" name="intentId" value={intentId} />
      <input type="hidden" name="tenantId" value={tenantId} />
      <input type="hidden" name="expectedVersion" value={version} />
      <input type="hidden" name="submissionKey" value={submissionKey} />
      <fieldset className="space-y-1" aria-describedby="kind-error">
        <legend className="text-xs text-slate-600">Resolution</legend>
        {KINDS.map((k) => (
          <label key={k.id} className="flex items-start gap-2">
            <input
              type="radio"
              name="kind"
              value={k.id}
              checked={kind === k.id}
              onChange={() => setKind(k.id)}
              required
              className="mt-1"
            />
            <span>
              {k.label}
              <span className="block text-xs text-slate-600">{k.hint}</span>
            </span>
          </label>
        ))}
        <FieldError id="kind-error" message={errors.kind} />
      </fieldset>
      <label className="block">
        <span className="text-xs text-slate-600">Evidence</span>
        <select
          name="evidence"
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
      {/* Shown when "External evidence reference" is chosen — by CSS, so it works without JavaScript too. */}
      <label className="hidden group-has-[option[value=external]:checked]:block">
        <span className="text-xs text-slate-600">External evidence reference (always needs an approver)</span>
        <input
          name="externalEvidenceRef"
          value={external}
          onChange={(e) => setExternal(e.target.value)}
          maxLength={200}
          aria-invalid={errors.externalEvidenceRef ? true : undefined}
          aria-describedby="external-error"
          className="w-full rounded border border-slate-300 px-2 py-1"
          placeholder="Ticket or statement reference"
        />
        <FieldError id="external-error" message={errors.externalEvidenceRef} />
      </label>
      <label className="block">
        <span className="text-xs text-slate-600">Reason</span>
        <textarea
          name="reason"
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          rows={3}
          minLength={5}
          maxLength={2000}
          required
          aria-invalid={errors.reason ? true : undefined}
          aria-describedby="reason-error"
          className="w-full rounded border border-slate-300 px-2 py-1"
        />
        <FieldError id="reason-error" message={errors.reason} />
      </label>
      <button
        type="submit"
        disabled={pending}
        className="w-full rounded bg-slate-900 px-3 py-1.5 font-medium text-white disabled:opacity-50"
      >
        {pending ? "Submitting…" : "Submit resolution"}
      </button>
    </form>
  );
}
