"use client";

import { useActionState, useState } from "react";
import { ActionAlert, FieldError, fieldError } from "@/components/action-feedback";
import { Time } from "@/components/time";
import { claimAction, releaseAction } from "./actions";

type Claim = { mine: boolean; name: string; until: Date | null } | null;

/** Claim, release, or take over with a reason. Plain forms: they work before (and without) JavaScript. */
export function ClaimForm({
  intentId,
  tenantId,
  claim,
}: {
  intentId: string;
  tenantId: string;
  claim: Claim;
}) {
  const [claimed, claimFormAction, claiming] = useActionState(claimAction, {});
  const [released, releaseFormAction, releasing] = useActionState(releaseAction, {});
  const [takeOverReason, setTakeOverReason] = useState("");
  const pending = claiming || releasing;
  const reasonError = fieldError(claimed, "takeOverReason");
  const hidden = (
    <>
      <input type="hidden" name="intentId" value={intentId} />
      <input type="hidden" name="tenantId" value={tenantId} />
    </>
  );
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
          <Time value={claim.until} precision="second" />.
        </p>
      ) : (
        <p>Nobody is working on this intent.</p>
      )}
      {claim?.mine ? (
        <form action={releaseFormAction}>
          {hidden}
          <button type="submit" disabled={pending} className="rounded border border-slate-300 px-3 py-1">
            {releasing ? "Releasing…" : "Release"}
          </button>
        </form>
      ) : (
        <form action={claimFormAction} className="space-y-2">
          {hidden}
          {claim && (
            <label className="block">
              <span className="text-xs text-slate-600">Reason to take over</span>
              <input
                name="takeOverReason"
                value={takeOverReason}
                onChange={(e) => setTakeOverReason(e.target.value)}
                required
                minLength={5}
                maxLength={2000}
                aria-invalid={reasonError ? true : undefined}
                aria-describedby="take-over-error"
                className="w-full rounded border border-slate-300 px-2 py-1"
              />
              <FieldError id="take-over-error" message={reasonError} />
            </label>
          )}
          <button
            type="submit"
            disabled={pending}
            className={`rounded px-3 py-1 font-medium text-white disabled:opacity-60 ${claim ? "bg-amber-600" : "bg-slate-900"}`}
          >
            {claiming ? "Claiming…" : claim ? "Take over" : "Claim"}
          </button>
        </form>
      )}
      {/* The answer that matches what the page shows now: a claim's while you hold it, a release's after. */}
      {!pending && (claim?.mine ? claimed.data : released.data) && (
        <p role="status" className="text-green-900">
          {(claim?.mine ? claimed.data : released.data)!.message}
        </p>
      )}
      <ActionAlert state={claimed} />
      <ActionAlert state={released} />
    </section>
  );
}
