"use client";

import { useActionState } from "react";
import { signOutAction } from "./actions";

/** A plain form: signing out works before (and without) JavaScript. */
export function SignOutButton() {
  const [, formAction, pending] = useActionState(signOutAction, {});
  return (
    <form action={formAction}>
      <button
        type="submit"
        disabled={pending}
        className="rounded border border-slate-600 px-2 py-1 text-sm hover:bg-slate-800"
      >
        Sign out
      </button>
    </form>
  );
}
