import { z } from "zod";

/**
 * Lets one schema take either a plain object (a call from code) or the FormData a
 * <form> posts (with or without JavaScript). Empty fields count as absent, and
 * Next.js's own `$ACTION_…` fields are dropped; a field given twice keeps its last value,
 * except the fields named in `lists` (a group of checkboxes sharing one name), which
 * become an array of every value given.
 */
export function formInput<T extends z.ZodType>(schema: T, options: { lists?: readonly string[] } = {}) {
  const lists = options.lists ?? [];
  return z.preprocess((value) => (value instanceof FormData ? fieldsOf(value, lists) : value), schema);
}

function fieldsOf(form: FormData, lists: readonly string[]): Record<string, string | string[]> {
  const fields: Record<string, string | string[]> = {};
  for (const [name, value] of form.entries()) {
    if (name.startsWith("$ACTION") || typeof value !== "string" || value === "") continue;
    if (lists.includes(name)) {
      const list = fields[name];
      fields[name] = Array.isArray(list) ? [...list, value] : [value];
    } else fields[name] = value;
  }
  return fields;
}
