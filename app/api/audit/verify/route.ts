import { appendAudit } from "@/lib/audit/append";
import { makeCheckpoint, verifyAuditChain } from "@/lib/audit/verify";
import { db } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { withRole } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/** Walks the chain; returns the first break, or a fresh signed checkpoint. */
export const POST = withRole(["auditor"], async (_request, user) => {
  const report = await verifyAuditChain(db);
  await db.$transaction((tx) =>
    appendAudit(tx, {
      actor: { id: user.id, email: user.email, roles: user.roles },
      action: "audit.verified",
      targetType: "audit_log",
      details: { ok: report.ok, count: report.count, firstBreak: report.firstBreak?.seq ?? null },
    }),
  );
  return Response.json({
    ...report,
    checkpoint: report.ok ? makeCheckpoint(report, getEnv().checkpointKey) : null,
  });
});
