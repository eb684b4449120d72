import { describe, expect, it } from "vitest";
import { prometheusText, type Metrics } from "./metrics";

const metrics: Metrics = {
  byTenantStatus: [{ tenantId: 'acme"shop', status: "unknown", count: 3 }],
  totals: {
    prepared: 0,
    dispatched: 0,
    confirmed: 5,
    rejected: 0,
    unknown: 3,
    compensating: 0,
    compensated: 1,
  },
  reconciliation: {
    settled: { reconciler: 7, person: 2 },
    timeToResolution: [
      { providerId: "payments-sandbox", by: "reconciler", count: 7, p50Seconds: 95, p95Seconds: 610.5 },
      { providerId: "payments-sandbox", by: "person", count: 2, p50Seconds: 5400, p95Seconds: 86000 },
      { providerId: null, by: "reconciler", count: 7, p50Seconds: 95, p95Seconds: 610.5 },
    ],
    queue: {
      byState: { active: 4, escalated: 1, settled: 7, dropped: 0 },
      due: 2,
      nextDueAt: new Date("2026-11-29T00:05:00.000Z"),
    },
  },
  unknownByAge: { lt_1h: 1, "1h_24h": 1, "1d_7d": 0, gt_7d: 1 },
  unknownOverResponseWindow: 3,
  lookups: [{ method: "idempotency_key", outcome: "found_matching", count: 4 }],
  reconciliationByMethod: [{ method: "idempotency_key", total: 4, conclusive: 4, rate: 1 }],
  keyConflicts: 1,
  resolutions: [{ kind: "accept_receipt", status: "applied", count: 2 }],
  compensations: 1,
  confirmedCharges: 4,
  compensationRate: 0.25,
  generatedAt: "2026-11-29T00:00:00.000Z",
};

describe("Prometheus exposition", async () => {
  const text = await prometheusText(metrics);
  it("declares each family once with HELP and TYPE", () => {
    for (const name of [
      "reckon_intents",
      "reckon_unknown_intents_by_age",
      "reckon_lookups_total",
      "reckon_key_conflicts_total",
      "reckon_compensation_ratio",
    ]) {
      expect(text.match(new RegExp(`^# TYPE ${name} `, "gm"))).toHaveLength(1);
      expect(text).toMatch(new RegExp(`^# HELP ${name} `, "m"));
    }
  });
  it("writes labelled samples, escaping label values", () => {
    expect(text).toContain('reckon_intents{tenant="acme\\"shop",status="unknown"} 3');
    expect(text).toContain('reckon_unknown_intents_by_age{age="gt_7d"} 1');
    expect(text).toContain('reckon_lookups_total{method="idempotency_key",outcome="found_matching"} 4');
    expect(text).toContain("reckon_compensation_ratio 0.25");
    expect(text.endsWith("\n")).toBe(true);
  });
  it("counts with counters only what the ledger never takes back", () => {
    expect(text).toMatch(/^# TYPE reckon_resolutions_total counter$/m);
    expect(text).toContain('reckon_resolutions_total{kind="accept_receipt"} 2');
    expect(text).toMatch(/^# TYPE reckon_resolutions gauge$/m);
    expect(text).toContain('reckon_resolutions{kind="accept_receipt",status="applied"} 2');
    for (const [, name] of text.matchAll(/^# TYPE (\S+) counter$/gm)) expect(name).toMatch(/_total$/);
  });
  it("splits reconciliations by who settled them, with time to resolution and the reconciler's queue", () => {
    expect(text).toMatch(/^# TYPE reckon_reconciled_total counter$/m);
    expect(text).toContain('reckon_reconciled_total{by="reconciler"} 7');
    expect(text).toContain('reckon_reconciled_total{by="person"} 2');
    expect(text).toMatch(/^# TYPE reckon_time_to_resolution_seconds gauge$/m);
    expect(text).toContain(
      'reckon_time_to_resolution_seconds{provider="payments-sandbox",by="reconciler",quantile="0.5"} 95',
    );
    expect(text).toContain(
      'reckon_time_to_resolution_seconds{provider="payments-sandbox",by="person",quantile="0.95"} 86000',
    );
    // The all-provider row is for the page only: quantiles of providers do not add up.
    expect(text).not.toMatch(/reckon_time_to_resolution_seconds\{provider=""/);
    expect(text.match(/^reckon_time_to_resolution_seconds\{/gm)).toHaveLength(4);
    expect(text).toMatch(/^# TYPE reckon_reconciler_queue gauge$/m);
    expect(text).toContain('reckon_reconciler_queue{state="active"} 4');
    expect(text).toContain('reckon_reconciler_queue{state="escalated"} 1');
    expect(text).toContain('reckon_reconciler_queue{state="dropped"} 0');
  });
});
