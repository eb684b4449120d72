import { db } from "@/lib/db";
import { withRole } from "@/lib/http/route";
import { toJson } from "@/lib/http/json";
import { inboxPage, parseInboxFilters } from "@/lib/inbox/query";
import { screenRoles } from "@/lib/nav";

export const dynamic = "force-dynamic";

export const GET = withRole(screenRoles("/inbox"), async (request, user) => {
  const filters = parseInboxFilters(new URL(request.url).searchParams);
  return Response.json(toJson({ ...(await inboxPage(db, filters, user.id)), now: new Date().toISOString() }));
});
