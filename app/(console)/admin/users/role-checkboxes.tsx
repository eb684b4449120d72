"use client";

import { FieldError } from "@/components/action-feedback";
import { rolesConflict } from "@/lib/auth/authorize";
import { ROLE_LABELS, ROLES, type Role } from "@/lib/auth/roles";

/** The rule, in the words the server refuses with (lib/auth/authorize.ts derives both from DUTIES). */
const RULE = rolesConflict(ROLES);

const ROLE_HINTS: Record<Role, string> = {
  operator: "claims, looks up and resolves intents",
  approver: "approves or denies resolutions above the threshold",
  auditor: "reads everything, verifies the audit log",
  admin: "users, thresholds, providers, the reconciler",
};

/**
 * A group of role checkboxes posting `name` once per ticked role. Warns as soon as the
 * ticked roles break separation of duties; the server refuses them with the same words.
 */
export function RoleCheckboxes(props: {
  idPrefix: string;
  legend: string;
  selected: readonly Role[];
  onChange: (roles: Role[]) => void;
  error: string | undefined;
}) {
  const { idPrefix, legend, selected, onChange, error } = props;
  const conflict = rolesConflict(selected);
  const errorId = `${idPrefix}-roles-error`;
  const ruleId = `${idPrefix}-roles-rule`;
  const message = error ?? conflict ?? undefined;
  return (
    <fieldset aria-describedby={`${ruleId} ${errorId}`} className="space-y-1">
      <legend className="text-sm font-medium">{legend}</legend>
      <div className="flex flex-wrap gap-x-4 gap-y-1">
        {ROLES.map((role) => (
          <label key={role} className="flex items-start gap-1.5 text-sm">
            <input
              type="checkbox"
              name="roles"
              value={role}
              checked={selected.includes(role)}
              onChange={(e) =>
                onChange(
                  e.target.checked
                    ? ROLES.filter((r) => r === role || selected.includes(r))
                    : selected.filter((r) => r !== role),
                )
              }
              aria-invalid={message ? true : undefined}
              className="mt-0.5 h-4 w-4"
            />
            <span>
              {ROLE_LABELS[role]}
              <span className="block text-xs text-slate-600">{ROLE_HINTS[role]}</span>
            </span>
          </label>
        ))}
      </div>
      <p id={ruleId} className="text-xs text-slate-600">
        {RULE}
      </p>
      <FieldError id={errorId} message={message} />
    </fieldset>
  );
}
