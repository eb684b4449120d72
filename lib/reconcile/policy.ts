import type { PrismaClient, ReconcilePolicy } from "@/prisma/generated/client";
import type { ReconcileMode } from "@/prisma/generated/enums";
import { appendAudit } from "@/lib/audit/append";
import { transaction } from "@/lib/db/transaction";
import { auditActor, type Actor } from "@/lib/auth/actor";
import { authorize } from "@/lib/auth/authorize";
import { ResolutionError } from "@/lib/resolution/errors";

export type PolicyInput = {
  tenantId: string;
  providerId: string;
  mode: ReconcileMode;
  redispatch: boolean;
  maxRedispatches: number;
  /** Why the admin changes it: the audit log keeps it beside before and after. */
  reason: string;
};

const view = (p: Pick<ReconcilePolicy, "mode" | "redispatch" | "maxRedispatches"> | null) =>
  p ? { mode: p.mode, redispatch: p.redispatch, maxRedispatches: p.maxRedispatches } : { mode: "off" };

/**
 * An admin sets how the reconciler may act for one tenant at one provider: on, dry run,
 * or off (the kill switch, which takes effect at the reconciler's next pick). Audited
 * with before, after and the reason, in the same transaction as the change.
 */
export async function setReconcilePolicy(
  db: PrismaClient,
  admin: Actor,
  input: PolicyInput,
  now = new Date(),
): Promise<ReconcilePolicy> {
  return transaction(db, async (tx) => {
    await authorize(tx, admin, "administer");
    if (input.maxRedispatches < 0 || input.maxRedispatches > 10)
      throw new ResolutionError("invalid", "Redispatches: between 0 and 10.");
    const [tenant, provider] = await Promise.all([
      tx.tenant.findUnique({ where: { id: input.tenantId } }),
      tx.providerProfile.findUnique({ where: { id: input.providerId } }),
    ]);
    if (!tenant) throw new ResolutionError("not_found", "No such tenant.");
    if (!provider) throw new ResolutionError("not_found", "No such provider.");
    const where = { tenantId_providerId: { tenantId: input.tenantId, providerId: input.providerId } };
    const before = await tx.reconcilePolicy.findUnique({ where });
    const data = {
      mode: input.mode,
      redispatch: input.redispatch,
      maxRedispatches: input.maxRedispatches,
      updatedById: admin.id,
      updatedAt: now,
    };
    const after = await tx.reconcilePolicy.upsert({
      where,
      create: { tenantId: input.tenantId, providerId: input.providerId, ...data },
      update: data,
    });
    await appendAudit(tx, {
      actor: auditActor(admin),
      action: "settings.reconcile_policy_changed",
      tenantId: input.tenantId,
      targetType: "reconcile_policy",
      targetId: `${input.tenantId}/${input.providerId}`,
      reason: input.reason,
      requestId: admin.requestId,
      details: { providerId: input.providerId, before: view(before), after: view(after) },
      occurredAt: now,
    });
    return after;
  });
}
