import { routeRoles } from "@/lib/auth/policy";
import { db } from "@/lib/db";
import { withRole } from "@/lib/http/route";
import { ledgerOverview } from "@/lib/ledger/overview";

export const dynamic = "force-dynamic";

export const GET = withRole(routeRoles("GET /api/overview"), async () =>
  Response.json(await ledgerOverview(db)),
);
