import type { PrismaClient } from "@/prisma/generated/client";
import { INTENT_STATUSES, type IntentStatus } from "./statuses";

export type TenantFigures = {
  tenantId: string;
  tenantName: string;
  total: number;
  byStatus: Record<IntentStatus, number>;
  needsOperator: number;
};

export type Overview = {
  tenants: TenantFigures[];
  totals: Record<IntentStatus, number>;
  total: number;
  generatedAt: string;
};

function zeroes(): Record<IntentStatus, number> {
  return Object.fromEntries(INTENT_STATUSES.map((s) => [s, 0])) as Record<IntentStatus, number>;
}

/** Intents per status per tenant: the landing page's figures, straight from the ledger. */
export async function ledgerOverview(prisma: PrismaClient): Promise<Overview> {
  const [tenants, groups, flagged] = await Promise.all([
    prisma.tenant.findMany({ orderBy: { id: "asc" }, select: { id: true, name: true } }),
    prisma.effectIntent.groupBy({ by: ["tenantId", "status"], _count: { _all: true } }),
    prisma.effectIntent.groupBy({ by: ["tenantId"], where: { needsOperator: true }, _count: { _all: true } }),
  ]);
  const totals = zeroes();
  const rows = new Map<string, TenantFigures>(
    tenants.map((t) => [
      t.id,
      { tenantId: t.id, tenantName: t.name, total: 0, byStatus: zeroes(), needsOperator: 0 },
    ]),
  );
  for (const g of groups) {
    const row = rows.get(g.tenantId);
    if (!row) continue;
    row.byStatus[g.status] += g._count._all;
    row.total += g._count._all;
    totals[g.status] += g._count._all;
  }
  for (const f of flagged) {
    const row = rows.get(f.tenantId);
    if (row) row.needsOperator = f._count._all;
  }
  return {
    tenants: [...rows.values()],
    totals,
    total: Object.values(totals).reduce((a, b) => a + b, 0),
    generatedAt: new Date().toISOString(),
  };
}
