"use client";

import Link from "next/link";
import { useActionState, useState } from "react";
import { ActionAlert, FieldError, fieldError } from "@/components/action-feedback";
import type { Role } from "@/lib/auth/roles";
import { createUserAction } from "./actions";
import { RoleCheckboxes } from "./role-checkboxes";

const input = "w-full rounded border border-slate-300 px-2 py-1";

/**
 * Adds a user: email, name, roles, and how they sign in — a one-time initial password
 * shown here once, or (when single sign-on is configured) single sign-on only.
 */
export function CreateUserForm({ ssoName }: { ssoName: string | null }) {
  const [state, formAction, pending] = useActionState(createUserAction, {});
  const [email, setEmail] = useState("");
  const [name, setName] = useState("");
  const [roles, setRoles] = useState<Role[]>([]);
  const [signIn, setSignIn] = useState<"password" | "sso">("password");
  // A created user clears the form for the next (React's "state from the previous render").
  const [seen, setSeen] = useState(state);
  if (seen !== state) {
    setSeen(state);
    if (state.data) {
      setEmail("");
      setName("");
      setRoles([]);
      setSignIn("password");
    }
  }
  const created = state.data;
  const describe = (field: string) => ({
    "aria-invalid": fieldError(state, field) ? true : undefined,
    "aria-describedby": `new-user-${field}-error`,
  });
  return (
    <form action={formAction} aria-label="Add a user" className="space-y-3">
      <div className="grid gap-3 sm:grid-cols-2">
        <div>
          <label htmlFor="new-user-email" className="block text-sm font-medium">
            Email
          </label>
          <input
            id="new-user-email"
            name="email"
            type="email"
            autoComplete="off"
            required
            maxLength={320}
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            className={input}
            {...describe("email")}
          />
          <FieldError id="new-user-email-error" message={fieldError(state, "email")} />
        </div>
        <div>
          <label htmlFor="new-user-name" className="block text-sm font-medium">
            Name
          </label>
          <input
            id="new-user-name"
            name="name"
            autoComplete="off"
            required
            maxLength={120}
            value={name}
            onChange={(e) => setName(e.target.value)}
            className={input}
            {...describe("name")}
          />
          <FieldError id="new-user-name-error" message={fieldError(state, "name")} />
        </div>
      </div>
      <RoleCheckboxes
        idPrefix="new-user"
        legend="Roles"
        selected={roles}
        onChange={setRoles}
        error={fieldError(state, "roles")}
      />
      <fieldset className="space-y-1">
        <legend className="text-sm font-medium">Sign-in</legend>
        <label className="flex items-center gap-1.5 text-sm">
          <input
            type="radio"
            name="signIn"
            value="password"
            checked={signIn === "password"}
            onChange={() => setSignIn("password")}
          />
          A one-time initial password, shown here once
        </label>
        {ssoName ? (
          <label className="flex items-center gap-1.5 text-sm">
            <input
              type="radio"
              name="signIn"
              value="sso"
              checked={signIn === "sso"}
              onChange={() => setSignIn("sso")}
            />
            Single sign-on only ({ssoName}), no password
          </label>
        ) : (
          <p className="text-xs text-slate-600">
            Single sign-on is not configured, so every user gets a password.
          </p>
        )}
      </fieldset>
      <button
        type="submit"
        disabled={pending}
        className="rounded bg-slate-900 px-3 py-1.5 text-sm text-white"
      >
        Create user
      </button>
      {created && !pending && (
        <div role="status" className="space-y-2 rounded border border-green-200 bg-green-50 p-3 text-sm">
          <p>
            Created{" "}
            <Link href={`/admin/users/${created.id}`} className="text-blue-800 underline">
              {created.name}
            </Link>{" "}
            ({created.email}).
            {!created.initialPassword && " They sign in by single sign-on only."}
          </p>
          {created.initialPassword && (
            <div>
              <label htmlFor="initial-password" className="block font-medium">
                One-time initial password
              </label>
              <input
                id="initial-password"
                readOnly
                value={created.initialPassword}
                aria-describedby="initial-password-note"
                className="w-full max-w-xs rounded border border-slate-300 bg-white px-2 py-1 font-mono"
              />
              <p id="initial-password-note" className="text-xs text-slate-700">
                Shown only now: Reckon keeps only its hash. Hand it over by a safe channel.
              </p>
            </div>
          )}
        </div>
      )}
      <ActionAlert state={state} />
    </form>
  );
}
