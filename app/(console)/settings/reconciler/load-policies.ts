import "server-only";
import type { PrismaClient } from "@/prisma/generated/client";
import type { ReconcileModeId } from "./schemas";

export type PolicyPair = {
  tenantId: string;
  providerId: string;
  providerName: string;
  mode: ReconcileModeId;
  redispatch: boolean;
  maxRedispatches: number;
  /** Who changed it last and when; null: never set, so off. */
  changedBy: string | null;
  changedAt: Date | null;
  /** Intents the reconciler is working on now, and those it handed to people. */
  active: number;
  escalated: number;
};

// What the reconciler does for a pair that has no policy row yet (prisma/schema.prisma).
const NO_POLICY = { mode: "off", redispatch: true, maxRedispatches: 2 } as const;

const pairKey = (tenantId: string, providerId: string) => `${tenantId}\u0000${providerId}`;

/** Every tenant × provider profile, with its policy (no row: off) and the reconciler's work on it. */
export async function loadPolicyPairs(db: PrismaClient): Promise<PolicyPair[]> {
  const [tenants, providers, policies, work] = await Promise.all([
    db.tenant.findMany({ orderBy: { id: "asc" }, select: { id: true } }),
    db.providerProfile.findMany({ orderBy: { id: "asc" }, select: { id: true, name: true } }),
    db.reconcilePolicy.findMany({ include: { updatedBy: { select: { name: true } } } }),
    db.reconciliation.groupBy({
      by: ["tenantId", "providerId", "state"],
      where: { state: { in: ["active", "escalated"] } },
      _count: { _all: true },
    }),
  ]);
  const policyOf = new Map(policies.map((p) => [pairKey(p.tenantId, p.providerId), p]));
  const countOf = new Map(
    work.map((w) => [`${pairKey(w.tenantId, w.providerId)}\u0000${w.state}`, w._count._all]),
  );
  return tenants.flatMap((t) =>
    providers.map((p) => {
      const key = pairKey(t.id, p.id);
      const policy = policyOf.get(key);
      return {
        tenantId: t.id,
        providerId: p.id,
        providerName: p.name,
        mode: policy?.mode ?? NO_POLICY.mode,
        redispatch: policy?.redispatch ?? NO_POLICY.redispatch,
        maxRedispatches: policy?.maxRedispatches ?? NO_POLICY.maxRedispatches,
        changedBy: policy ? (policy.updatedBy?.name ?? "system") : null,
        changedAt: policy?.updatedAt ?? null,
        active: countOf.get(`${key}\u0000active`) ?? 0,
        escalated: countOf.get(`${key}\u0000escalated`) ?? 0,
      };
    }),
  );
}
