"use server";

import { appendAudit } from "@/lib/audit/append";
import { againstLatestCheckpoint } from "@/lib/audit/checkpoints";
import { makeCheckpoint, verifyAuditChain } from "@/lib/audit/verify";
import { actionFor } from "@/lib/actions/client";
import { auditActor } from "@/lib/auth/actor";
import { db } from "@/lib/db";
import { getEnv } from "@/lib/env";

/** Walks the chain; returns the first break, or a fresh signed checkpoint. The run is audited. */
export const verifyChainAction = actionFor("verify_audit")
  .metadata({ name: "verify-chain" })
  .action(async ({ ctx }) => {
    const env = getEnv();
    const report = await verifyAuditChain(db, { key: env.auditChainKey });
    const sink = await againstLatestCheckpoint(db, report, {
      dir: env.checkpointDir,
      checkpointKey: env.checkpointKey,
    });
    await db.$transaction((tx) =>
      appendAudit(tx, {
        actor: auditActor(ctx.actor),
        action: "audit.verified",
        targetType: "audit_log",
        requestId: ctx.actor.requestId,
        details: {
          ok: report.ok && sink.ok,
          count: report.count,
          firstBreak: report.firstBreak?.seq ?? null,
          checkpointHead: sink.checkpoint?.headSeq ?? null,
          checkpointOk: sink.ok,
        },
      }),
    );
    return {
      ok: report.ok,
      count: report.count,
      head: report.head,
      firstBreak: report.firstBreak,
      legacyCount: report.legacyCount,
      againstCheckpoint: { ok: sink.ok, message: sink.message },
      checkpoint: report.ok ? makeCheckpoint(report, env.checkpointKey) : null,
    };
  });
