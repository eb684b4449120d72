"use client";

import type { FailureBody } from "@/lib/http/errors";

/**
 * What a guarded server action answers (next-safe-action's result): data on success,
 * a typed refusal or an error id in `serverError`, field errors in `validationErrors`.
 */
export type ActionState = {
  serverError?: FailureBody;
  validationErrors?: { formErrors: string[]; fieldErrors: { [field: string]: string[] | undefined } };
};

export function fieldError(state: ActionState, name: string): string | undefined {
  return state.validationErrors?.fieldErrors[name]?.[0];
}

/** The form-level refusal, if any: a conflict naming what changed, a role refusal, or an error id. */
export function ActionAlert({ state }: { state: ActionState }) {
  const fieldErrors = Object.values(state.validationErrors?.fieldErrors ?? {}).filter(Boolean);
  const message =
    state.serverError?.message ??
    state.validationErrors?.formErrors[0] ??
    (fieldErrors.length > 0 ? "Check the fields marked below." : null);
  if (!message) return null;
  return (
    <p role="alert" className="rounded bg-red-50 p-2 text-sm text-red-800">
      {message}
    </p>
  );
}

/** A field's own error, tied to its input by id (aria-describedby). */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="mt-0.5 text-xs text-red-800">
      {message}
    </p>
  );
}
