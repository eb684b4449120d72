import { intentIdParam } from "./schemas";
import { ResolutionError } from "./errors";

export function intentIdFrom(params: { id: string }): string {
  const parsed = intentIdParam.safeParse(params.id);
  if (!parsed.success) throw new ResolutionError("not_found", "No such intent in this tenant.");
  return parsed.data;
}
