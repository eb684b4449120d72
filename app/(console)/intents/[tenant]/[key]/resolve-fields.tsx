"use client";

import { useState } from "react";
import { FieldError, fieldError, type ActionState } from "@/components/action-feedback";
import type { KindOffer } from "@/lib/resolution/offer";
import { EXTERNAL_EVIDENCE } from "@/lib/resolution/schemas";

const KINDS: Record<KindOffer["kind"], { label: string; hint: string }> = {
  accept_receipt: { label: "Accept receipt", hint: "The provider has exactly this effect." },
  mark_rejected: {
    label: "Mark rejected",
    hint: "The provider proved it absent; safe to retry with the same key.",
  },
  start_compensation: { label: "Start compensation", hint: "Refund a charge that happened." },
  escalate: { label: "Escalate", hint: "The evidence is ambiguous; keep it unknown and flag it." },
};

function approvalsText(n: number): string {
  return n === 0 ? "No approval needed." : `Needs ${n} approver${n > 1 ? "s" : ""}.`;
}

/** Why a kind can or cannot be chosen, in words beside it. */
function offerText(o: KindOffer): string {
  if (o.allowed) return `${KINDS[o.kind].hint} ${approvalsText(o.approvals)}`;
  if (o.externalOnly)
    return `Only with an external evidence reference: no lookup found exactly this effect. ${approvalsText(o.approvals)}`;
  return `Not available: ${o.reason ?? "the evidence does not allow it."}`;
}

/** The resolve form's fields: nothing chosen until the person chooses; only what the evidence allows can be. */
export function ResolveFields({
  intentId,
  tenantId,
  version,
  submissionKey,
  lookups,
  evidenceLookupId,
  offers,
  formAction,
  pending,
  state,
}: {
  intentId: string;
  tenantId: string;
  version: number;
  submissionKey: string;
  lookups: { id: string; label: string }[];
  evidenceLookupId: string | null;
  offers: KindOffer[];
  formAction: (form: FormData) => void;
  pending: boolean;
  state: ActionState;
}) {
  // Controlled, so a refusal keeps what was typed (React resets uncontrolled fields after an action).
  const [kind, setKind] = useState("");
  const [evidence, setEvidence] = useState(evidenceLookupId ?? "");
  const [external, setExternal] = useState("");
  const [reason, setReason] = useState("");
  const errors = {
    kind: fieldError(state, "kind"),
    externalEvidenceRef: fieldError(state, "externalEvidenceRef"),
    reason: fieldError(state, "reason"),
  };
  const chosen = offers.find((o) => o.kind === kind);
  const note = !chosen
    ? "Choose a resolution: each says whether it needs an approver."
    : evidence === EXTERNAL_EVIDENCE
      ? chosen.externalApprovalNote
      : chosen.approvalNote;
  function choose(o: KindOffer) {
    setKind(o.kind);
    // Accepting on an external reference is the only way the evidence leaves open: cite one.
    if (o.externalOnly) setEvidence(EXTERNAL_EVIDENCE);
  }
  return (
    <form action={formAction} aria-label="Resolve" className="group space-y-3">
      <input type="hidden" name="intentId" value={intentId} />
      <input type="hidden" name="tenantId" value={tenantId} />
      <input type="hidden" name="expectedVersion" value={version} />
      <input type="hidden" name="submissionKey" value={submissionKey} />
      <fieldset className="space-y-1.5" aria-describedby="kind-error">
        <legend className="text-xs text-slate-600">Resolution (what the latest evidence allows)</legend>
        {offers.map((o) => {
          const enabled = o.allowed || o.externalOnly;
          return (
            <label key={o.kind} className={`flex items-start gap-2 ${enabled ? "" : "text-slate-500"}`}>
              <input
                type="radio"
                name="kind"
                value={o.kind}
                checked={kind === o.kind}
                onChange={() => choose(o)}
                disabled={!enabled}
                required
                className="mt-1"
              />
              <span>
                {KINDS[o.kind].label}
                <span className="block text-xs text-slate-600">{offerText(o)}</span>
              </span>
            </label>
          );
        })}
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
          <option value={EXTERNAL_EVIDENCE}>External evidence reference…</option>
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
      <p id="approval-note" aria-live="polite" className="rounded bg-slate-50 p-2 text-xs text-slate-800">
        {note}
      </p>
      <button
        type="submit"
        disabled={pending}
        aria-describedby="approval-note"
        className="w-full rounded bg-slate-900 px-3 py-1.5 font-medium text-white disabled:opacity-50"
      >
        {pending ? "Submitting…" : "Submit resolution"}
      </button>
    </form>
  );
}
