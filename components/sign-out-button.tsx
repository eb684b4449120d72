"use client";

import { signOut } from "next-auth/react";

export function SignOutButton() {
  return (
    <button
      type="button"
      onClick={() => void signOut({ callbackUrl: "/login" })}
      className="rounded border border-slate-600 px-2 py-1 text-sm hover:bg-slate-800"
    >
      Sign out
    </button>
  );
}
