"use client";

import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";

const LOCKED_PREFIX = "locked:";

function describeError(error: string): string {
  if (error.startsWith(LOCKED_PREFIX)) {
    const until = new Date(error.slice(LOCKED_PREFIX.length));
    const time = Number.isNaN(until.getTime()) ? "a while" : until.toLocaleTimeString();
    return `Too many failed sign-ins. This account is locked until ${time}.`;
  }
  return "Wrong email or password.";
}

type Props = { callbackUrl: string; sso: { name: string } | null; initialError: string | null };

export function LoginForm({ callbackUrl, sso, initialError }: Props) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(initialError);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(null);
    try {
      const result = await signIn("credentials", {
        redirect: false,
        email: String(form.get("email") ?? ""),
        password: String(form.get("password") ?? ""),
        callbackUrl,
      });
      if (result?.ok && !result.error) {
        router.replace(callbackUrl);
        router.refresh();
        return;
      }
      setError(describeError(result?.error ?? ""));
    } catch {
      setError("Sign-in is not reachable right now. Try again.");
    }
    setPending(false);
  }

  return (
    <>
      <form className="mt-6 space-y-4" onSubmit={(e) => void submit(e)} aria-label="Sign in">
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
            className="mt-1 w-full rounded border border-slate-300 px-3 py-2"
          />
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
            className="mt-1 w-full rounded border border-slate-300 px-3 py-2"
          />
        </div>
        {error && (
          <p role="alert" className="rounded bg-red-50 p-2 text-sm text-red-800">
            {error}
          </p>
        )}
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
