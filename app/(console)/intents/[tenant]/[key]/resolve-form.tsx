"use client";

import Link from "next/link";
import { useActionState, useRef, useState } from "react";
import { ActionAlert } from "@/components/action-feedback";
import { Time } from "@/components/time";
import type { KindOffer } from "@/lib/resolution/offer";
import { proposeAction } from "./actions";
import { ResolveFields } from "./resolve-fields";
import { SettledNote, type Settled } from "./settled-note";
import { useResolveShortcut } from "./use-resolve-shortcut";

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
  proposedAt: Date;
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
 * submission applies once, and each success brings a fresh key. It offers what the
 * evidence allows (`offers`, computed on the server with the rules it applies).
 */
export function ResolveForm(props: {
  intentId: string;
  tenantId: string;
  version: number;
  submissionKey: string;
  lookups: { id: string; label: string }[];
  /** The lookup the offer rests on: the evidence the form cites unless the person picks another. */
  evidenceLookupId: string | null;
  offers: KindOffer[];
  openRequest: OpenRequest | null;
  settled: Settled | null;
  /** The next intent in the inbox's order, for after a success. */
  nextUnknown: string | null;
}) {
  const [state, formAction, pending] = useActionState(proposeAction, {});
  // The key of the submission being made: kept across refreshes of the page and across a
  // refusal (a retry of the same submission), replaced only by a success's next key.
  const [submissionKey, setSubmissionKey] = useState(props.submissionKey);
  const nextKey = state.data?.nextSubmissionKey;
  if (nextKey && nextKey !== submissionKey) setSubmissionKey(nextKey);
  const section = useRef<HTMLElement>(null);
  useResolveShortcut(section);
  const offered = props.offers.some((o) => o.allowed || o.externalOnly);
  return (
    <section
      ref={section}
      id="resolve"
      tabIndex={-1}
      aria-labelledby="resolve-heading"
      className="space-y-2 rounded border border-slate-200 bg-white p-3 text-sm"
    >
      <div className="flex items-baseline justify-between gap-2">
        <h2 id="resolve-heading" className="font-semibold">
          Resolve
        </h2>
        <p className="text-xs text-slate-600">
          Press <kbd className="rounded border border-slate-300 px-1 font-mono">r</kbd> to jump here
        </p>
      </div>
      {state.data && !pending && (
        <>
          <p role="status" className="rounded bg-green-50 p-2 text-green-900">
            {outcomeText(state.data)}
          </p>
          {props.nextUnknown ? (
            <Link className="block font-medium text-blue-800 underline" href={props.nextUnknown}>
              Next unknown
            </Link>
          ) : (
            <p className="text-xs text-slate-600">No other unknown intent waits in the inbox.</p>
          )}
        </>
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
            ), proposed by {props.openRequest.proposer} at <Time value={props.openRequest.proposedAt} />.
            Nothing else can be proposed until an approver decides or it expires.
          </p>
          <Link className="text-blue-800 underline" href={`/approvals#request-${props.openRequest.id}`}>
            See it in Approvals
          </Link>
        </div>
      ) : offered ? (
        // A fresh set of fields after each success (a new key), so nothing typed lingers.
        <ResolveFields
          key={submissionKey}
          intentId={props.intentId}
          tenantId={props.tenantId}
          version={props.version}
          submissionKey={submissionKey}
          lookups={props.lookups}
          evidenceLookupId={props.evidenceLookupId}
          offers={props.offers}
          formAction={formAction}
          pending={pending}
          state={state}
        />
      ) : (
        <p className="text-xs text-slate-600">
          {props.settled ? (
            <SettledNote settled={props.settled} />
          ) : (
            "Nothing can be resolved on this evidence yet: ask the provider."
          )}
        </p>
      )}
    </section>
  );
}
