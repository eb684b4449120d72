import { makeCheckpoint, verifyAuditChain } from "@/lib/audit/verify";
import { db } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { withRole } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/** A signed checkpoint of the verified chain, to keep outside Reckon. */
export const GET = withRole(["auditor"], async () => {
  const report = await verifyAuditChain(db);
  if (!report.ok)
    return Response.json(
      { error: "broken", message: report.firstBreak!.message, firstBreak: report.firstBreak },
      { status: 409 },
    );
  const checkpoint = makeCheckpoint(report, getEnv().checkpointKey);
  return new Response(JSON.stringify(checkpoint, null, 2), {
    headers: {
      "content-type": "application/json",
      "content-disposition": `attachment; filename="reckon-audit-checkpoint-${checkpoint.headSeq}.json"`,
    },
  });
});
