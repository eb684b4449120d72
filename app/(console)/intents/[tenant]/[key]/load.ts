import "server-only";
import { db } from "@/lib/db";

const person = { select: { name: true, system: true } } as const;

/** Everything the intent page shows, in one read (and its audit trail, the reconciler's view and the thresholds in a second). */
export async function loadIntentPage(tenantId: string, intentKey: string) {
  const intent = await db.effectIntent.findUnique({
    where: { tenantId_intentKey: { tenantId, intentKey } },
    include: {
      provider: true,
      claimedBy: { select: { id: true, name: true } },
      attempts: { orderBy: { attemptNo: "asc" } },
      lookups: { orderBy: { startedAt: "desc" }, include: { actor: person } },
      resolutions: {
        orderBy: { createdAt: "desc" },
        include: {
          proposedBy: person,
          approvals: { include: { approver: { select: { name: true } } } },
        },
      },
      compensations: {
        select: { tenantId: true, intentKey: true, status: true, providerResultId: true, createdAt: true },
      },
      compensates: { select: { tenantId: true, intentKey: true, status: true } },
      reconciliation: true,
    },
  });
  if (!intent) return null;
  const [audit, policy, machines, threshold] = await Promise.all([
    db.auditEvent.findMany({
      where: { targetType: "intent", targetId: intent.id },
      orderBy: { seq: "asc" },
    }),
    db.reconcilePolicy.findUnique({
      where: { tenantId_providerId: { tenantId: intent.tenantId, providerId: intent.providerId } },
      select: { mode: true },
    }),
    // Machine actors (the reconciler): few, and audit events name their actor by id and email only.
    db.user.findMany({ where: { system: true }, select: { id: true, name: true } }),
    // The tenant's approval thresholds for the currency: the resolve form says what a resolution will need.
    intent.currency
      ? db.approvalThreshold.findUnique({
          where: { tenantId_currency: { tenantId: intent.tenantId, currency: intent.currency } },
          select: { thresholdMinor: true, dualThresholdMinor: true },
        })
      : null,
  ]);
  return {
    intent,
    audit,
    // No policy row: the reconciler is off for this tenant and provider.
    policyMode: policy?.mode ?? "off",
    systemActors: new Map(machines.map((m) => [m.id, m.name])),
    threshold,
  };
}

export type IntentPageData = NonNullable<Awaited<ReturnType<typeof loadIntentPage>>>;
export type IntentView = IntentPageData["intent"];
