import { z } from "zod";

// Control characters never belong in what people type here: a NUL byte cannot even be
// stored by PostgreSQL, and the others hide text in logs, CSV and the audit trail.
// Multi-line text keeps tab and line breaks; one-line text keeps nothing below U+0020.
const CONTROL_MULTI_LINE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
const CONTROL_ONE_LINE = /[\u0000-\u001F\u007F]/;

function text(label: string, min: number, max: number, control: RegExp, controlMessage: string) {
  return z
    .string({ error: `${label} is required.` })
    .trim()
    .min(min, min > 1 ? `${label}: at least ${min} characters.` : `${label} is required.`)
    .max(max, `${label}: at most ${max.toLocaleString("en")} characters.`)
    .refine((v) => !control.test(v), controlMessage);
}

export const multiLineText = (label: string, min: number, max: number) =>
  text(label, min, max, CONTROL_MULTI_LINE, `${label} contains a control character.`);

export const oneLineText = (label: string, min: number, max: number) =>
  text(label, min, max, CONTROL_ONE_LINE, `${label} must be one line of plain text.`);

/** A record's id as the client names it: a UUID, or a "no such" answer before any query. */
export function recordId(what: string) {
  return z.uuid({ error: `No such ${what}.` });
}
