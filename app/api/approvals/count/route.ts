import { routeRoles } from "@/lib/auth/policy";
import { db } from "@/lib/db";
import { withRole } from "@/lib/http/route";
import { waitingSummary } from "@/lib/approvals/queue";

export const dynamic = "force-dynamic";

/** How many open requests the signed-in approver may decide; polled by the navigation and the queue. */
export const GET = withRole(routeRoles("GET /api/approvals/count"), async (_request, user) =>
  Response.json(await waitingSummary(db, user)),
);
