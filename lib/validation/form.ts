import { z } from "zod";

/**
 * Lets one schema take either a plain object (a call from code) or the FormData a
 * <form> posts (with or without JavaScript). Empty fields count as absent, and
 * Next.js's own `$ACTION_…` fields are dropped; a field given twice keeps its last value.
 */
export function formInput<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => (value instanceof FormData ? fieldsOf(value) : value), schema);
}

function fieldsOf(form: FormData): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of form.entries()) {
    if (name.startsWith("$ACTION") || typeof value !== "string" || value === "") continue;
    fields[name] = value;
  }
  return fields;
}
