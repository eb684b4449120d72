import "server-only";
import { db } from "@/lib/db";

/** Everything the intent page shows, in one read (and its audit trail in a second). */
export async function loadIntentPage(tenantId: string, intentKey: string) {
  const intent = await db.effectIntent.findUnique({
    where: { tenantId_intentKey: { tenantId, intentKey } },
    include: {
      provider: true,
      claimedBy: { select: { id: true, name: true } },
      attempts: { orderBy: { attemptNo: "asc" } },
      lookups: { orderBy: { startedAt: "desc" }, include: { actor: { select: { name: true } } } },
      resolutions: {
        orderBy: { createdAt: "desc" },
        include: {
          proposedBy: { select: { name: true } },
          approvals: { include: { approver: { select: { name: true } } } },
        },
      },
      compensations: {
        select: { tenantId: true, intentKey: true, status: true, providerResultId: true, createdAt: true },
      },
      compensates: { select: { tenantId: true, intentKey: true, status: true } },
    },
  });
  if (!intent) return null;
  const audit = await db.auditEvent.findMany({
    where: { targetType: "intent", targetId: intent.id },
    orderBy: { seq: "asc" },
  });
  return { intent, audit };
}

export type IntentPageData = NonNullable<Awaited<ReturnType<typeof loadIntentPage>>>;
export type IntentView = IntentPageData["intent"];
