import { db } from "@/lib/db";
import { withRole } from "@/lib/http/route";
import { ledgerOverview } from "@/lib/ledger/overview";
import { screenRoles } from "@/lib/nav";

export const dynamic = "force-dynamic";

export const GET = withRole(screenRoles("/"), async () => Response.json(await ledgerOverview(db)));
