import type { PrismaClient } from "@/prisma/generated/client";
import { appendAudit } from "@/lib/audit/append";
import { transaction } from "@/lib/db/transaction";
import { auditActor, type Actor } from "@/lib/auth/actor";
import { authorize } from "@/lib/auth/authorize";
import { ResolutionError } from "./errors";

/**
 * An admin sets a tenant's approval thresholds for one currency (minor units); the
 * change is audited with before, after and the reason.
 */
export async function setThreshold(
  db: PrismaClient,
  admin: Actor,
  input: {
    tenantId: string;
    currency: string;
    thresholdMinor: bigint;
    dualThresholdMinor: bigint | null;
    /** Below this the reconciler may confirm on its own; undefined keeps what is set. */
    autoResolveBelowMinor?: bigint | null;
    /** Why the admin changes it: the audit log keeps it beside before and after. */
    reason: string;
  },
  now = new Date(),
) {
  return transaction(db, async (tx) => {
    await authorize(tx, admin, "administer");
    if (input.dualThresholdMinor !== null && input.dualThresholdMinor < input.thresholdMinor) {
      throw new ResolutionError(
        "invalid",
        "The two-approver threshold must be at or above the one-approver threshold.",
      );
    }
    if (input.autoResolveBelowMinor != null && input.autoResolveBelowMinor > input.thresholdMinor) {
      throw new ResolutionError(
        "invalid",
        "The auto-resolve limit must be at or below the one-approver threshold: above it, people decide.",
      );
    }
    const tenant = await tx.tenant.findUnique({ where: { id: input.tenantId } });
    if (!tenant) throw new ResolutionError("not_found", "No such tenant.");
    const before = await tx.approvalThreshold.findUnique({
      where: { tenantId_currency: { tenantId: input.tenantId, currency: input.currency } },
    });
    const after = await tx.approvalThreshold.upsert({
      where: { tenantId_currency: { tenantId: input.tenantId, currency: input.currency } },
      create: {
        tenantId: input.tenantId,
        currency: input.currency,
        thresholdMinor: input.thresholdMinor,
        dualThresholdMinor: input.dualThresholdMinor,
        autoResolveBelowMinor: input.autoResolveBelowMinor ?? null,
        updatedById: admin.id,
        updatedAt: now,
      },
      update: {
        thresholdMinor: input.thresholdMinor,
        dualThresholdMinor: input.dualThresholdMinor,
        autoResolveBelowMinor: input.autoResolveBelowMinor,
        updatedById: admin.id,
        updatedAt: now,
      },
    });
    await appendAudit(tx, {
      actor: auditActor(admin),
      action: "settings.threshold_changed",
      tenantId: input.tenantId,
      targetType: "approval_threshold",
      targetId: `${input.tenantId}/${input.currency}`,
      reason: input.reason,
      requestId: admin.requestId,
      details: {
        currency: input.currency,
        before: before
          ? {
              thresholdMinor: before.thresholdMinor.toString(),
              dualThresholdMinor: before.dualThresholdMinor?.toString() ?? null,
              autoResolveBelowMinor: before.autoResolveBelowMinor?.toString() ?? null,
            }
          : null,
        after: {
          thresholdMinor: after.thresholdMinor.toString(),
          dualThresholdMinor: after.dualThresholdMinor?.toString() ?? null,
          autoResolveBelowMinor: after.autoResolveBelowMinor?.toString() ?? null,
        },
      },
      occurredAt: now,
    });
    return after;
  });
}
