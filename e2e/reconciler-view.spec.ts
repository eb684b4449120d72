import { randomUUID } from "node:crypto";
import { expect, test } from "./fixtures";
import { intentPath, query } from "./ledger";

// What people see of the reconciler's work: its section on the intent page, the inbox
// leaving out what it works on (and showing it on request), its figures on /metrics.
// No reconciler runs beside the e2e server, so its work is written here as it would
// leave it (a queue row and a lookup by its system account), for a pair nothing else
// touches (the scenarios are acme-shop at payments-sandbox; the settings spec uses
// globex-travel at mailer-sandbox), and removed again afterwards.

test.describe.configure({ mode: "serial" });

const TENANT = "initech-saas";
const PROVIDER = "payments-sandbox";
// Far ahead, so the times on screen never depend on when the suite runs.
const NEXT_AT = "2099-01-01T14:05:00.000Z";
const TRIED_AT = "2026-11-30T09:30:00.000Z";

type Picked = { id: string; intent_key: string };
let working: Picked;
let escalated: Picked;
let lookupId: string;

test.beforeAll(async () => {
  const unknown = await query<Picked>(
    `SELECT id, intent_key FROM effect_intents
      WHERE tenant_id = $1 AND provider_id = $2 AND status = 'unknown' AND NOT needs_operator AND claimed_by_id IS NULL
      ORDER BY created_at DESC, id LIMIT 2`,
    [TENANT, PROVIDER],
  );
  expect(unknown, "the e2e ledger has two unknown initech-saas charges").toHaveLength(2);
  [working, escalated] = unknown as [Picked, Picked];
  const [reconciler] = await query<{ id: string }>(
    `INSERT INTO users (id, email, name, roles, system, updated_at)
     VALUES ($1, 'reconciler@reckon.invalid', 'Reconciler', '{operator}', true, now())
     ON CONFLICT (email) DO UPDATE SET system = true RETURNING id`,
    [randomUUID()],
  );
  lookupId = randomUUID();
  await query(
    `INSERT INTO lookups (id, intent_id, tenant_id, provider_id, method, outcome, actor_id, evidence, started_at, finished_at)
     VALUES ($1, $2, $3, $4, 'idempotency_key', 'not_visible_yet', $5, '{}'::jsonb, $6, $6)`,
    [lookupId, working.id, TENANT, PROVIDER, reconciler!.id, TRIED_AT],
  );
  await query(
    `INSERT INTO reconcile_policies (tenant_id, provider_id, mode) VALUES ($1, $2, 'on')
     ON CONFLICT (tenant_id, provider_id) DO UPDATE SET mode = 'on'`,
    [TENANT, PROVIDER],
  );
  await query(
    `INSERT INTO reconciliations (intent_id, tenant_id, provider_id, state, next_at, tries, last_outcome, last_action,
                                  last_reason, last_lookup_id, last_tried_at)
     VALUES ($1, $3, $4, 'active', $5, 1, 'not_visible_yet', 'retry_later', 'Not visible at the provider yet.', $6, $7),
            ($2, $3, $4, 'escalated', $5, 3, 'found_conflicting', 'escalated', 'The provider has a different charge.', NULL, $7)`,
    [working.id, escalated.id, TENANT, PROVIDER, NEXT_AT, lookupId, TRIED_AT],
  );
});

test.afterAll(async () => {
  if (!working) return;
  await query("DELETE FROM reconciliations WHERE intent_id = ANY($1::uuid[])", [[working.id, escalated.id]]);
  await query("DELETE FROM lookups WHERE id = $1", [lookupId]);
  await query("UPDATE reconcile_policies SET mode = 'off' WHERE tenant_id = $1 AND provider_id = $2", [
    TENANT,
    PROVIDER,
  ]);
});

test("the intent page says what the reconciler made of it, and names it as automatic", async ({ as }) => {
  const page = await as("operator");
  await page.goto(intentPath(working.intent_key, TENANT));
  const section = page.getByRole("region", { name: "Reconciler" });
  await expect(section.getByRole("heading", { name: "Reconciler" })).toBeVisible();
  await expect(section.getByTestId("reconciler-state")).toHaveText("Working on it");
  await expect(section.getByTestId("reconciler-policy")).toContainText("On");
  await expect(section).toContainText("Will look again later");
  await expect(section).toContainText("Not visible at the provider yet.");
  await expect(section).toContainText("1 lookup · 0 redispatches");
  await expect(section).toContainText("2026-11-30 09:30:00 UTC");
  await expect(section.getByTestId("reconciler-next")).toHaveText("2099-01-01 14:05:00 UTC");
  const link = section.getByRole("link", { name: /not visible yet/ });
  await expect(link).toHaveAttribute("href", `#lookup-${lookupId}`);
  await link.click();
  const lookup = page.locator(`[id="lookup-${lookupId}"]`);
  await expect(lookup).toBeInViewport();
  await expect(lookup).toContainText("Reconciler (automatic)");

  await page.goto(intentPath(escalated.intent_key, TENANT));
  await expect(page.getByRole("region", { name: "Reconciler" }).getByTestId("reconciler-state")).toHaveText(
    "Handed to people",
  );
  await expect(page.getByTestId("reconciler-next")).toHaveText("—");
});

test("the inbox leaves out what the reconciler works on, says how many, and shows them on request", async ({
  as,
}) => {
  const page = await as("operator");
  await page.goto(`/inbox?tenant=${TENANT}&provider=${PROVIDER}`);
  const table = page.getByRole("table", { name: "Unknown intents" });
  // The escalated one stays with people; the one it works on is left out.
  await expect(table.getByRole("link", { name: escalated.intent_key, exact: true })).toBeVisible();
  await expect(table.getByRole("link", { name: working.intent_key, exact: true })).toHaveCount(0);
  const notice = page.getByTestId("auto-notice");
  await expect(notice).toHaveText("1 more is being reconciled automatically — Show them");

  await notice.getByRole("link", { name: "Show them" }).click();
  await expect(page).toHaveURL(/auto=show/);
  const row = table.getByRole("row").filter({ has: page.getByRole("link", { name: working.intent_key }) });
  await expect(row).toContainText("Reconciler: next try 2099-01-01 14:05 UTC");
  await expect(page.getByLabel("Being reconciled")).toHaveValue("show");
  const other = table
    .getByRole("row")
    .filter({ has: page.getByRole("link", { name: escalated.intent_key }) });
  await expect(other).not.toContainText("Reconciler:");

  // The API and the export follow the same filter.
  const hidden = await page.request.get(`/api/inbox?tenant=${TENANT}&provider=${PROVIDER}`);
  const body = (await hidden.json()) as { rows: { id: string }[]; autoHidden: number };
  expect(body.autoHidden).toBe(1);
  expect(body.rows.map((r) => r.id)).not.toContain(working.id);
  const csv = await (await page.request.get(`/api/inbox/export?tenant=${TENANT}&auto=show`)).text();
  const line = csv.split("\n").find((l) => l.includes(working.intent_key));
  expect(line).toContain("2099-01-01T14:05:00.000Z");
  expect((await page.request.get("/api/inbox?auto=everything")).status()).toBe(400);
});

test("metrics split settlements by who made them and show the reconciler's queue", async ({
  as,
  request,
}) => {
  const page = await as("auditor");
  await page.goto("/metrics");
  await expect(page.getByRole("heading", { name: "Who settles unknown intents" })).toBeVisible();
  await expect(page.getByRole("table", { name: "Time to resolution" })).toBeVisible();
  const queue = page.getByRole("region", { name: "Reconciler queue" });
  await expect(queue).toContainText("Working on");
  await expect(queue).toContainText("Handed to people");

  const text = await (
    await request.get("/api/metrics", { headers: { authorization: "Bearer e2e-metrics-token-123" } })
  ).text();
  expect(text).toMatch(/^# TYPE reckon_reconciled_total counter$/m);
  expect(text).toMatch(/^reckon_reconciled_total\{by="reconciler"\} \d+$/m);
  expect(text).toMatch(/^reckon_reconciled_total\{by="person"\} \d+$/m);
  expect(text).toMatch(/^# TYPE reckon_time_to_resolution_seconds gauge$/m);
  expect(text).toMatch(/^reckon_reconciler_queue\{state="active"\} [1-9]\d*$/m);
  expect(text).toMatch(/^reckon_reconciler_queue\{state="escalated"\} [1-9]\d*$/m);
});
