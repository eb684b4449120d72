import { performance } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseInboxFilters } from "@/lib/inbox/filters";
import { compareKeys, sortKeyOf } from "@/lib/inbox/order";
import { inboxPage } from "@/lib/inbox/query";
import { findIntents } from "@/lib/inbox/search";
import { seedReferenceData } from "@/lib/seed/demo";
import { freshPostgres, type TestDatabase } from "./support";

// The inbox's act-before order, its keyset pages, prefix search and the finder on a
// generated ledger of 200,000 intents (5 % unknown, two providers: one keeps keys 24 h,
// one has none), with the plans PostgreSQL picks for them.
const ROWS = 200_000;
let database: TestDatabase;
let userId: string;
const now = new Date();

beforeAll(async () => {
  database = await freshPostgres();
  userId = (await seedReferenceData(database.prisma))[0]!.id;
  await database.runner.exec(`
    INSERT INTO effect_intents (id, tenant_id, intent_key, workflow_id, step_id, provider_id, operation, request_digest, request_summary,
                                amount_minor, currency, customer_ref, status, attempt_count, provider_result_id, version, created_at, updated_at, last_attempt_at)
    SELECT gen_random_uuid(),
           (ARRAY['acme-shop','globex-travel','initech-saas'])[1 + i % 3],
           'invoice:inv_' || i || ':collect:v1', 'wf_' || i, 'charge',
           CASE WHEN i % 7 = 0 THEN 'mailer-sandbox' ELSE 'payments-sandbox' END, 'charge',
           lpad(to_hex(i), 64, '0'), '{}'::jsonb,
           (100 + (i::bigint * 7919) % 500000), (ARRAY['USD','EUR','GBP','JPY'])[1 + (i / 20) % 4], 'invoice/inv_' || i,
           CASE WHEN i % 20 = 0 THEN 'unknown'::intent_status WHEN i % 13 = 0 THEN 'rejected'::intent_status ELSE 'confirmed'::intent_status END,
           1, 'ch_' || i, 2,
           now() - (i * 13 || ' seconds')::interval, now(), now() - (i * 13 || ' seconds')::interval
      FROM generate_series(1, ${ROWS}) AS i`);
  await database.runner.exec("ANALYZE effect_intents");
}, 120_000);
afterAll(async () => database?.dispose());

const filters = (q: Record<string, string> = {}) => parseInboxFilters(q).values;

async function plan(sql: string, params: string[] = []): Promise<string> {
  return database.runner.transaction(async (tx) => {
    // A bound parameter, as Prisma sends it, planned without its value.
    await tx.exec("SET LOCAL plan_cache_mode = force_generic_plan");
    await tx.exec(`PREPARE q${params.length ? `(${params.map(() => "text").join(",")})` : ""} AS ${sql}`);
    const rows = await tx.query<{ "QUERY PLAN": string }>(
      `EXPLAIN EXECUTE q${params.length ? `(${params.map((p) => `'${p}'`).join(",")})` : ""}`,
    );
    await tx.exec("DEALLOCATE q");
    return rows.map((r) => r["QUERY PLAN"]).join("\n");
  });
}

describe("the inbox on 200,000 intents", () => {
  it("puts what expires soonest first, then no deadline, then past, and pages through every row once", async () => {
    const all: { b: 0 | 1 | 2; k: number; id: string }[] = [];
    let cursor: string | undefined;
    let total: number | null = null;
    for (let pages = 0; pages < 100; pages++) {
      const page = await inboxPage(database.prisma, filters(cursor ? { cursor } : {}), userId, now, 500);
      total ??= page.total;
      all.push(...page.rows.map((r) => sortKeyOf(r, "act", now)));
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    expect(total).toBe(ROWS / 20);
    expect(all).toHaveLength(ROWS / 20);
    expect(new Set(all.map((k) => k.id)).size).toBe(all.length);
    for (let i = 1; i < all.length; i++) expect(compareKeys(all[i - 1]!, all[i]!)).toBeLessThan(0);
    expect([...new Set(all.map((k) => k.b))]).toEqual([0, 1, 2]);
    expect(all[0]!.k).toBeGreaterThan(now.getTime());
  });

  it("reads each provider's deadline range in index order, and counts without a sequential scan", async () => {
    const segment = await plan(
      `SELECT id FROM effect_intents WHERE status = 'unknown' AND provider_id = $1 AND last_attempt_at > $2::timestamptz ORDER BY last_attempt_at, id LIMIT 51`,
      ["payments-sandbox", new Date(now.getTime() - 86_400_000).toISOString()],
    );
    expect(segment).toMatch(
      /Index (Only )?Scan using effect_intents_status_provider_id_last_attempt_at_id_idx/,
    );
    expect(segment).not.toMatch(/Sort|Seq Scan/);
    const count = await plan(`SELECT count(*) FROM effect_intents WHERE status = 'unknown'`);
    expect(count).not.toMatch(/Seq Scan/);
  });

  it("searches every field by prefix through its byte-order index", async () => {
    for (const [column, index] of [
      ["intent_key", "effect_intents_intent_key_prefix_idx"],
      ["split_part(intent_key, ':', 2)", "effect_intents_key_object_prefix_idx"],
      ["workflow_id", "effect_intents_workflow_id_prefix_idx"],
      ["customer_ref", "effect_intents_customer_ref_prefix_idx"],
      ["provider_result_id", "effect_intents_provider_result_id_prefix_idx"],
    ]) {
      const text = await plan(
        `SELECT id FROM effect_intents WHERE ${column} COLLATE "C" >= $1 AND ${column} COLLATE "C" < $2 LIMIT 1000`,
        ["inv_1234", "inv_1234\u{10FFFF}"],
      );
      expect(text, column).toMatch(new RegExp(`Index (Only )?Scan (using|on) ${index}`));
      expect(text, column).not.toMatch(/Seq Scan/);
    }
    const page = await inboxPage(database.prisma, filters({ q: "inv_1234" }), userId, now);
    const keys = page.rows.map((r) => r.intentKey);
    // inv_1234 and inv_12340..inv_12349, inv_123400.. — every unknown (i % 20 == 0) among them.
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.every((k) => k.startsWith("invoice:inv_1234"))).toBe(true);
    expect(keys).toContain("invoice:inv_12340:collect:v1");
    expect(page.total).toBe(keys.length);
  });

  it("filters amounts within one currency only", async () => {
    const page = await inboxPage(database.prisma, filters({ currency: "JPY", min: "400,000" }), userId, now);
    expect(page.rows.length).toBeGreaterThan(0);
    expect(page.rows.every((r) => r.currency === "JPY" && r.amountMinor! >= 400_000n)).toBe(true);
    const usd = await inboxPage(database.prisma, filters({ currency: "USD", min: "4000.50" }), userId, now);
    expect(usd.rows.every((r) => r.currency === "USD" && r.amountMinor! >= 400_050n)).toBe(true);
    // Without a currency an amount is not a filter; whole yen only.
    expect(parseInboxFilters({ min: "500" }).problems[0]?.field).toBe("min");
    expect(parseInboxFilters({ currency: "JPY", max: "1.5" }).problems[0]?.message).toMatch(/whole JPY/);
  });

  it("finds intents of any status by prefix", async () => {
    const found = await findIntents(database.prisma, "wf_1999");
    expect(found.map((f) => f.status)).toContain("confirmed");
    expect(found.every((f) => f.intentKey.startsWith("invoice:inv_1999"))).toBe(true);
  });

  it("answers the first page quickly (median of five)", async () => {
    const time = async (f: Record<string, string>) => {
      const samples: number[] = [];
      for (let i = 0; i < 5; i++) {
        const t = performance.now();
        await inboxPage(database.prisma, filters(f), userId, now);
        samples.push(performance.now() - t);
      }
      return samples.sort((a, b) => a - b)[2]!;
    };
    const first = await time({});
    const tenant = await time({ tenant: "globex-travel", sort: "act" });
    const oldest = await time({ sort: "oldest" });
    console.log(
      `inbox on ${ROWS} intents, median: first page ${first.toFixed(1)} ms, one tenant ${tenant.toFixed(1)} ms, oldest first ${oldest.toFixed(1)} ms`,
    );
    expect(first).toBeLessThan(1000);
  });
});
