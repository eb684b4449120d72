import { routeRoles } from "@/lib/auth/policy";
import { db } from "@/lib/db";
import { withRole } from "@/lib/http/route";
import { toJson } from "@/lib/http/json";
import { inboxPage, parseInboxFilters } from "@/lib/inbox/query";
import { queryProblemResponse } from "@/lib/validation/query";

export const dynamic = "force-dynamic";

export const GET = withRole(routeRoles("GET /api/inbox"), async (request, user) => {
  const { values: filters, problems } = parseInboxFilters(new URL(request.url).searchParams);
  if (problems.length > 0) return queryProblemResponse(problems);
  return Response.json(toJson({ ...(await inboxPage(db, filters, user.id)), now: new Date().toISOString() }));
});
