"use client";

import { useActionState, useState } from "react";
import { ReasonField } from "@/components/reason-field";
import { ActionAlert, fieldError } from "@/components/action-feedback";
import type { Role } from "@/lib/auth/roles";
import { RoleCheckboxes } from "../role-checkboxes";
import { setUserRolesAction } from "./actions";

/**
 * A user's roles, with a reason. The roles the page showed go along (`expectedRoles`):
 * if another admin changed them meanwhile, the server refuses instead of overwriting.
 */
export function UserRolesForm(props: { userId: string; name: string; roles: Role[]; self: boolean }) {
  const { userId, name, roles: saved, self } = props;
  const [state, formAction, pending] = useActionState(setUserRolesAction, {});
  const [roles, setRoles] = useState<Role[]>(saved);
  const [reason, setReason] = useState("");
  const [seen, setSeen] = useState(state);
  if (seen !== state) {
    setSeen(state);
    if (state.data) setReason("");
  }
  return (
    <form action={formAction} aria-label={`Roles of ${name}`} className="space-y-3">
      <input type="hidden" name="userId" value={userId} />
      {saved.map((r) => (
        <input key={r} type="hidden" name="expectedRoles" value={r} />
      ))}
      <RoleCheckboxes
        idPrefix="user"
        legend={`Roles of ${name}`}
        selected={roles}
        onChange={setRoles}
        error={fieldError(state, "roles")}
      />
      {self && (
        <p className="text-xs text-slate-600">
          This is you: another admin must take away your admin role, so the console is never left without one.
        </p>
      )}
      <ReasonField
        id="roles-reason"
        label="Reason for the change (audited)"
        value={reason}
        onChange={setReason}
        error={fieldError(state, "reason")}
        className="w-full max-w-md"
      />
      <button
        type="submit"
        disabled={pending}
        className="rounded bg-slate-900 px-3 py-1.5 text-sm text-white"
      >
        Save roles
      </button>
      {state.data && !pending && (
        <p role="status" className="text-sm text-green-800">
          {state.data.changed ? "Roles saved" : "No change: those are already the roles"}
        </p>
      )}
      <ActionAlert state={state} />
    </form>
  );
}
