import { z } from "zod";

export type QueryProblem = { field: string; message: string };

type Params = URLSearchParams | Record<string, string | string[] | undefined>;

/**
 * Parses a page's or route's query string field by field: a field that does not parse
 * is dropped and named in `problems` (a page shows them; a route answers 400), so a bad
 * filter never reaches a query. Empty fields count as absent; a field given twice keeps
 * its first value.
 */
export function parseQuery<Shape extends z.ZodRawShape>(
  schema: z.ZodObject<Shape>,
  params: Params,
): { values: z.infer<z.ZodObject<Shape>>; problems: QueryProblem[] } {
  const flat: Record<string, string> = {};
  if (params instanceof URLSearchParams) {
    for (const [k, v] of params) if (!(k in flat) && v !== "") flat[k] = v;
  } else {
    for (const [k, v] of Object.entries(params)) {
      const first = Array.isArray(v) ? v[0] : v;
      if (first !== undefined && first !== "") flat[k] = first;
    }
  }
  const problems: QueryProblem[] = [];
  const kept: Record<string, unknown> = {};
  for (const [field, fieldSchema] of Object.entries(schema.shape)) {
    if (!(field in flat)) continue;
    const parsed = (fieldSchema as z.ZodType).safeParse(flat[field]);
    if (parsed.success) kept[field] = flat[field];
    else problems.push({ field, message: parsed.error.issues[0]?.message ?? `${field} is not valid.` });
  }
  return { values: schema.parse(kept), problems };
}

/** A route's answer to a query it will not run. */
export function queryProblemResponse(problems: QueryProblem[]): Response {
  return Response.json(
    { code: "invalid", message: problems.map((p) => `${p.field}: ${p.message}`).join(" "), issues: problems },
    { status: 400 },
  );
}
