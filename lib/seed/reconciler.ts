import type { PrismaClient } from "@/prisma/generated/client";
import { setReconcilePolicy } from "@/lib/reconcile/policy";
import { setThreshold } from "@/lib/resolution/thresholds";
import { DEMO_PROVIDERS, DEMO_TENANTS, DEMO_USERS } from "./demo";

// What the reconciler may confirm on its own in the demo: a fifth of the one-approver threshold.
const AUTO_RESOLVE_BELOW: Record<string, bigint> = { USD: 20_000n, EUR: 20_000n, GBP: 16_000n, JPY: 30_000n };

/**
 * The demo's reconciler policy, set by the demo admin through the same audited services
 * an admin uses: on for every tenant at every provider, and auto-resolve limits.
 */
export async function enableDemoReconciler(db: PrismaClient, at = new Date()) {
  const email = DEMO_USERS.find((u) => u.roles.includes("admin"))!.email;
  const admin = await db.user.findUniqueOrThrow({ where: { email } });
  const actor = { id: admin.id, email: admin.email, roles: admin.roles };
  for (const tenant of DEMO_TENANTS) {
    for (const provider of DEMO_PROVIDERS) {
      await setReconcilePolicy(
        db,
        actor,
        {
          tenantId: tenant.id,
          providerId: provider.id!,
          mode: "on",
          redispatch: true,
          maxRedispatches: 2,
          reason: "Demo: the reconciler settles what a lookup settles",
        },
        at,
      );
    }
    const thresholds = await db.approvalThreshold.findMany({ where: { tenantId: tenant.id } });
    for (const t of thresholds) {
      const limit = AUTO_RESOLVE_BELOW[t.currency];
      if (limit === undefined) continue;
      await setThreshold(
        db,
        actor,
        {
          tenantId: t.tenantId,
          currency: t.currency,
          thresholdMinor: t.thresholdMinor,
          dualThresholdMinor: t.dualThresholdMinor,
          autoResolveBelowMinor: limit < t.thresholdMinor ? limit : t.thresholdMinor,
          reason: "Demo: the reconciler confirms exact matches below a fifth of the approval threshold",
        },
        at,
      );
    }
  }
}
