"use client";

import { useActionState, useState } from "react";
import { ReasonField } from "@/components/reason-field";
import { ActionAlert, fieldError } from "@/components/action-feedback";
import { setUserAccessAction } from "./actions";

/**
 * Disable (ending every live session at once) or enable an account, with a reason. For
 * the reconciler's system account this is its off switch.
 */
export function UserAccessForm(props: {
  userId: string;
  name: string;
  disabled: boolean;
  system: boolean;
  self: boolean;
}) {
  const { userId, name, disabled, system, self } = props;
  const [state, formAction, pending] = useActionState(setUserAccessAction, {});
  const [reason, setReason] = useState("");
  const [seen, setSeen] = useState(state);
  if (seen !== state) {
    setSeen(state);
    if (state.data) setReason("");
  }
  if (self && !disabled)
    return (
      <p className="text-sm text-slate-600">
        This is your own account: another admin must disable it, so the console is never left without one.
      </p>
    );
  const change = disabled ? "enable" : "disable";
  return (
    <form action={formAction} aria-label={`Access of ${name}`} className="space-y-3">
      <input type="hidden" name="userId" value={userId} />
      <input type="hidden" name="change" value={change} />
      <p className="text-sm text-slate-700">
        {disabled
          ? system
            ? "The reconciler is off: no reconciler takes up any intent while its account is disabled."
            : "This account is disabled: it cannot sign in, and the sessions it had were ended."
          : system
            ? "Disabling the reconciler's account is its off switch: every reconciler stops at its next step."
            : "Disabling ends every live session of this user at once; they cannot sign in until enabled again."}
      </p>
      <ReasonField
        id="access-reason"
        label={`Reason to ${change} (audited)`}
        value={reason}
        onChange={setReason}
        error={fieldError(state, "reason")}
        className="w-full max-w-md"
      />
      <button
        type="submit"
        disabled={pending}
        className={`rounded px-3 py-1.5 text-sm text-white ${disabled ? "bg-slate-900" : "bg-red-800"}`}
      >
        {disabled ? "Enable" : "Disable"}
      </button>
      {state.data && !pending && (
        <p role="status" className="text-sm text-green-800">
          {state.data.disabled ? `Disabled; ${state.data.sessionsRevoked} live session(s) ended` : "Enabled"}
        </p>
      )}
      <ActionAlert state={state} />
    </form>
  );
}
