import { z } from "zod";

// Control characters never belong in what people type here: a NUL byte cannot even be
// stored by PostgreSQL, and the others — C0 and C1 controls, bidirectional overrides,
// line and paragraph separators — hide or reorder text in logs, CSV and the audit
// trail. Multi-line text keeps tab and line breaks; one-line text keeps none of them.
const CONTROL_MULTI_LINE =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/;
const CONTROL_ONE_LINE = /[\u0000-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/;

function text(label: string, min: number, max: number, control: RegExp, controlMessage: string) {
  return (
    z
      .string({ error: `${label} is required.` })
      .trim()
      .min(min, min > 1 ? `${label}: at least ${min} characters.` : `${label} is required.`)
      .max(max, `${label}: at most ${max.toLocaleString("en")} characters.`)
      .refine((v) => !control.test(v), controlMessage)
      // A lone surrogate is not text: PostgreSQL would store U+FFFD in its place.
      .refine((v) => v.isWellFormed(), `${label} holds an invalid character.`)
  );
}

export const multiLineText = (label: string, min: number, max: number) =>
  text(label, min, max, CONTROL_MULTI_LINE, `${label} contains a control character.`);

export const oneLineText = (label: string, min: number, max: number) =>
  text(label, min, max, CONTROL_ONE_LINE, `${label} must be one line of plain text.`);

/** A record's id as the client names it: a UUID, or a "no such" answer before any query. */
export function recordId(what: string) {
  return z.uuid({ error: `No such ${what}.` });
}
