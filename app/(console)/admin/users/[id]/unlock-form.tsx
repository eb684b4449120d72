"use client";

import { useActionState } from "react";
import { ActionAlert } from "@/components/action-feedback";
import { unlockUserAction } from "./actions";

/**
 * Clears failed sign-ins and lifts a lock they set, for a person who proved who they
 * are another way. Stays on the page once done, so its answer does too.
 */
export function UnlockForm(props: {
  userId: string;
  name: string;
  failedSignIns: number;
  lockedUntil: string | null;
}) {
  const { userId, name, failedSignIns, lockedUntil } = props;
  const [state, formAction, pending] = useActionState(unlockUserAction, {});
  const nothing = failedSignIns === 0 && !lockedUntil;
  return (
    <form action={formAction} aria-label={`Unlock ${name}`} className="space-y-2">
      <input type="hidden" name="userId" value={userId} />
      <p className="text-sm text-slate-700">
        {nothing
          ? "No failed sign-ins: nothing to unlock."
          : `${failedSignIns} failed sign-in(s) in a row${lockedUntil ? `; locked until ${lockedUntil}` : ""}.`}
      </p>
      {!nothing && (
        <button
          type="submit"
          disabled={pending}
          className="rounded bg-slate-900 px-3 py-1.5 text-sm text-white"
        >
          Unlock
        </button>
      )}
      {state.data && !pending && (
        <p role="status" className="text-sm text-green-800">
          Unlocked; {state.data.cleared} failed sign-in(s) cleared
        </p>
      )}
      <ActionAlert state={state} />
    </form>
  );
}
