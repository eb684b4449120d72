"use client";

import { signIn } from "next-auth/react";
import { useActionState, useState } from "react";
import { ActionAlert, FieldError, fieldError } from "@/components/action-feedback";
import { signInAction } from "./actions";

type Props = { callbackUrl: string; sso: { name: string } | null; initialError: string | null };

/**
 * Password sign-in as a form post to a server action: the password never reaches a URL,
 * and it works before (and without) JavaScript. Single sign-on goes through NextAuth.
 */
export function LoginForm({ callbackUrl, sso, initialError }: Props) {
  const [state, formAction, pending] = useActionState(signInAction, {});
  // Kept across a refusal (React resets a form's uncontrolled fields after an action).
  const [email, setEmail] = useState("");
  const emailError = fieldError(state, "email");
  const passwordError = fieldError(state, "password");
  return (
    <>
      <form action={formAction} className="mt-6 space-y-4" aria-label="Sign in">
        <input type="hidden" name="callbackUrl" value={callbackUrl} />
        <div>
          <label htmlFor="email" className="block text-sm font-medium">
            Email
          </label>
          <input
            id="email"
            name="email"
            type="email"
            autoComplete="username"
            required
            autoFocus
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            aria-invalid={emailError ? true : undefined}
            aria-describedby="email-error"
            className="mt-1 w-full rounded border border-slate-300 px-3 py-2"
          />
          <FieldError id="email-error" message={emailError} />
        </div>
        <div>
          <label htmlFor="password" className="block text-sm font-medium">
            Password
          </label>
          <input
            id="password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            aria-invalid={passwordError ? true : undefined}
            aria-describedby="password-error"
            className="mt-1 w-full rounded border border-slate-300 px-3 py-2"
          />
          <FieldError id="password-error" message={passwordError} />
        </div>
        {initialError && !state.serverError && (
          <p role="alert" className="rounded bg-red-50 p-2 text-sm text-red-800">
            {initialError}
          </p>
        )}
        <ActionAlert state={state} />
        <button
          type="submit"
          disabled={pending}
          className="w-full rounded bg-slate-900 px-3 py-2 font-medium text-white hover:bg-slate-700 disabled:opacity-60"
        >
          {pending ? "Signing in…" : "Sign in"}
        </button>
      </form>
      {sso && (
        <button
          type="button"
          onClick={() => void signIn("oidc", { callbackUrl })}
          className="mt-3 w-full rounded border border-slate-300 px-3 py-2 font-medium hover:bg-slate-50"
        >
          Sign in with {sso.name}
        </button>
      )}
    </>
  );
}
