import { routeRoles } from "@/lib/auth/policy";
import { appendAudit } from "@/lib/audit/append";
import { makeCheckpoint, verifyAuditChain } from "@/lib/audit/verify";
import { db } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { withRole } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/** A signed checkpoint of the verified chain, to keep outside Reckon. */
export const GET = withRole(routeRoles("GET /api/audit/checkpoint"), async (_request, user) => {
  const report = await verifyAuditChain(db);
  if (!report.ok)
    return Response.json(
      { error: "broken", message: report.firstBreak!.message, firstBreak: report.firstBreak },
      { status: 409 },
    );
  const checkpoint = makeCheckpoint(report, getEnv().checkpointKey);
  // An export like any other: audited (the checkpoint covers the chain up to just before this event).
  await db.$transaction((tx) =>
    appendAudit(tx, {
      actor: { id: user.id, email: user.email, roles: user.roles },
      action: "audit.checkpoint_exported",
      targetType: "audit_log",
      details: { headSeq: checkpoint.headSeq, count: checkpoint.count },
    }),
  );
  return new Response(JSON.stringify(checkpoint, null, 2), {
    headers: {
      "content-type": "application/json",
      "content-disposition": `attachment; filename="reckon-audit-checkpoint-${checkpoint.headSeq}.json"`,
    },
  });
});
