"use server";

import { appendAudit } from "@/lib/audit/append";
import { makeCheckpoint, verifyAuditChain } from "@/lib/audit/verify";
import { actionFor } from "@/lib/actions/client";
import { auditActor } from "@/lib/auth/actor";
import { db } from "@/lib/db";
import { getEnv } from "@/lib/env";

/** Walks the chain; returns the first break, or a fresh signed checkpoint. The run is audited. */
export const verifyChainAction = actionFor("verify_audit")
  .metadata({ name: "verify-chain" })
  .action(async ({ ctx }) => {
    const report = await verifyAuditChain(db);
    await db.$transaction((tx) =>
      appendAudit(tx, {
        actor: auditActor(ctx.actor),
        action: "audit.verified",
        targetType: "audit_log",
        requestId: ctx.actor.requestId,
        details: { ok: report.ok, count: report.count, firstBreak: report.firstBreak?.seq ?? null },
      }),
    );
    return {
      ok: report.ok,
      count: report.count,
      head: report.head,
      firstBreak: report.firstBreak,
      checkpoint: report.ok ? makeCheckpoint(report, getEnv().checkpointKey) : null,
    };
  });
