import type { QueryProblem } from "@/lib/validation/query";

/** Filters in the URL that could not be used, said plainly (the rest of the page still shows). */
export function QueryProblems({ problems }: { problems: QueryProblem[] }) {
  if (problems.length === 0) return null;
  return (
    <div role="alert" className="rounded border border-amber-200 bg-amber-50 p-2 text-sm text-amber-950">
      Some filters in this link were ignored:
      <ul className="ml-5 list-disc">
        {problems.map((p) => (
          <li key={p.field}>{p.message}</li>
        ))}
      </ul>
    </div>
  );
}
