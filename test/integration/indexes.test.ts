import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedReferenceData } from "@/lib/seed/demo";
import { freshPostgres, type TestDatabase } from "./support";

// With sequential scans priced out, the planner still picks one when no index
// can serve the query, so each plan below proves an index exists for it.
let database: TestDatabase;
beforeAll(async () => {
  database = await freshPostgres();
  await seedReferenceData(database.prisma);
  await database.prisma.effectIntent.createMany({
    data: Array.from({ length: 500 }, (_, i) => ({
      tenantId: ["acme-shop", "globex-travel", "initech-saas"][i % 3]!,
      intentKey: `invoice:inv_${i}:collect:v1`,
      workflowId: `wf_${i}`,
      stepId: "charge",
      providerId: "payments-sandbox",
      operation: "charge",
      requestDigest: String(i).padStart(64, "0"),
      requestSummary: {},
      status: (["confirmed", "unknown", "rejected", "dispatched"] as const)[i % 4],
      customerRef: `invoice/inv_${i}`,
      providerResultId: `ch_${i}`,
      createdAt: new Date(Date.now() - i * 60_000),
    })),
  });
  await database.runner.exec("ANALYZE");
});
afterAll(async () => database.dispose());

async function plan(sql: string): Promise<string> {
  return database.runner.transaction(async (tx) => {
    await tx.exec("SET LOCAL enable_seqscan = off");
    const rows = await tx.query<{ "QUERY PLAN": string }>(`EXPLAIN ${sql}`);
    return rows.map((r) => r["QUERY PLAN"]).join("\n");
  });
}

const queries: Record<string, string> = {
  "unknown intents of a tenant, oldest first": `SELECT * FROM effect_intents WHERE tenant_id = 'acme-shop' AND status = 'unknown' ORDER BY created_at, id LIMIT 50`,
  "unknown intents of all tenants, oldest first": `SELECT * FROM effect_intents WHERE status = 'unknown' ORDER BY created_at, id LIMIT 50`,
  "an intent by key": `SELECT * FROM effect_intents WHERE tenant_id = 'acme-shop' AND intent_key = 'invoice:inv_acm10001:collect:v1'`,
  "an intent by key in any tenant": `SELECT * FROM effect_intents WHERE intent_key = 'invoice:inv_7:collect:v1'`,
  "intents by workflow id": `SELECT * FROM effect_intents WHERE workflow_id = 'wf_collect_inv_acm10001'`,
  "intents by customer reference": `SELECT * FROM effect_intents WHERE customer_ref = 'invoice/inv_acm10001'`,
  "intents by provider result id": `SELECT * FROM effect_intents WHERE provider_result_id = 'ch_abc'`,
  "expired leases": `SELECT * FROM effect_intents WHERE status = 'dispatched' AND lease_expires_at < now()`,
};

describe("ledger indexes", () => {
  for (const [name, sql] of Object.entries(queries)) {
    it(`serve ${name} without a sequential scan`, async () => {
      const text = await plan(sql);
      expect(text).not.toMatch(/Seq Scan/);
      expect(text).toMatch(/Index/);
    });
  }
});
