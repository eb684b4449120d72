import { randomUUID } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { intentByKey, intentPath, query, sandboxEffects } from "./ledger";
import { SCENARIOS } from "./scenarios";
import { signInAs } from "./support";

test.describe.configure({ mode: "serial" });

async function propose(page: Page, intentKey: string, kind: string, reason: string, lookUp: boolean) {
  await page.goto(intentPath(intentKey));
  if (lookUp) {
    await page.getByRole("button", { name: "Look up by idempotency key" }).click();
    await expect(page.getByTestId("lookup-outcome").first()).toHaveText("found matching", {
      timeout: 15_000,
    });
  }
  const form = page.getByRole("form", { name: "Resolve" });
  await form.getByRole("radio", { name: new RegExp(`^${kind}`) }).check();
  await form.getByLabel("Reason").fill(reason);
  await form.getByRole("button", { name: "Submit resolution" }).click();
}

async function pendingId(intentId: string): Promise<string> {
  const [row] = await query<{ id: string }>(
    "SELECT id FROM resolutions WHERE intent_id = $1 AND status = 'pending_approval'",
    [intentId],
  );
  return row!.id;
}

async function decideInUi(page: Page, intentKey: string, decision: "Approve" | "Deny", reason: string) {
  await page.goto("/approvals");
  const item = page.getByRole("listitem").filter({ hasText: intentKey });
  await expect(item).toContainText("found matching");
  await item.getByLabel("Reason for your decision").fill(reason);
  await item.getByRole("button", { name: decision }).click();
}

test("a high-value accept waits for an approver, who cannot be the proposer, and then applies once", async ({
  browser,
}) => {
  const { intentKey } = SCENARIOS.big.job;
  const operator = await (await browser.newContext()).newPage();
  await signInAs(operator, "operator@demo.test");
  await propose(operator, intentKey, "Accept receipt", "Provider shows the charge", true);
  await expect(operator.getByRole("status").filter({ hasText: "Proposed" })).toHaveText(
    /waiting for 1 approver/,
  );
  const intent = await intentByKey(intentKey);
  expect(intent.status).toBe("unknown");

  // The proposer cannot approve: not in the UI (no Approvals screen) nor by calling the endpoint.
  await expect(
    operator.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Approvals" }),
  ).toHaveCount(0);
  const id = await pendingId(intent.id);
  expect(
    (
      await operator.request.post(`/api/resolutions/${id}/decision`, {
        data: { decision: "approved", reason: "my own" },
      })
    ).status(),
  ).toBe(403);

  const approver = await (await browser.newContext()).newPage();
  await signInAs(approver, "approver@demo.test");
  await decideInUi(approver, intentKey, "Approve", "Search result matches amount and customer");
  await expect(approver.getByRole("status").filter({ hasText: "Approved" })).toHaveText(
    /Approved and applied/,
  );
  expect((await intentByKey(intentKey)).status).toBe("confirmed");
  expect(await sandboxEffects({ intentKey })).toHaveLength(1);
  // A second approval of the same request is refused.
  const again = await approver.request.post(`/api/resolutions/${id}/decision`, {
    data: { decision: "approved", reason: "twice" },
  });
  expect(again.status()).toBe(409);
});

test("above the dual threshold it takes two different approvers", async ({ browser }) => {
  const { intentKey } = SCENARIOS.huge.job;
  const operator = await (await browser.newContext()).newPage();
  await signInAs(operator, "operator@demo.test");
  await propose(operator, intentKey, "Accept receipt", "Provider shows the charge", true);
  await expect(operator.getByRole("status").filter({ hasText: "Proposed" })).toHaveText(
    /waiting for 2 approvers/,
  );

  const first = await (await browser.newContext()).newPage();
  await signInAs(first, "approver@demo.test");
  await decideInUi(first, intentKey, "Approve", "First signature");
  await expect(first.getByRole("status").filter({ hasText: "Approved" })).toHaveText(
    /waiting for another approver/,
  );
  expect((await intentByKey(intentKey)).status).toBe("unknown");

  const second = await (await browser.newContext()).newPage();
  await signInAs(second, "approver2@demo.test");
  await decideInUi(second, intentKey, "Approve", "Second signature");
  await expect(second.getByRole("status").filter({ hasText: "Approved" })).toHaveText(/applied/);
  expect((await intentByKey(intentKey)).status).toBe("confirmed");
});

test("an approved compensation sends exactly one refund", async ({ browser }) => {
  const { intentKey } = SCENARIOS.refundApproved.job;
  const operator = await (await browser.newContext()).newPage();
  await signInAs(operator, "operator@demo.test");
  await propose(operator, intentKey, "Start compensation", "Customer cancelled", false);
  await expect(operator.getByRole("status").filter({ hasText: "Proposed" })).toBeVisible();
  const intent = await intentByKey(intentKey);
  const id = await pendingId(intent.id);

  const approver = await (await browser.newContext()).newPage();
  await signInAs(approver, "approver@demo.test");
  // Two tabs approving at once: one applies, the other is refused.
  const results = await Promise.all(
    [1, 2].map(() =>
      approver.request.post(`/api/resolutions/${id}/decision`, {
        data: { decision: "approved", reason: "Refund approved" },
      }),
    ),
  );
  expect(results.map((r) => r.status()).sort()).toEqual([200, 409]);
  const refunds = (await sandboxEffects()).filter(
    (e) => e.kind === "refund" && e.body.charge === intent.provider_result_id,
  );
  expect(refunds).toHaveLength(1);
  expect((await intentByKey(intentKey)).status).toBe("compensated");
});

test("an auditor reads the story, verifies the chain and exports it, but cannot change anything", async ({
  page,
}) => {
  const { intentKey } = SCENARIOS.big.job;
  await signInAs(page, "auditor@demo.test");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Audit log" }).click();
  await page.getByLabel("Intent key or id").fill(intentKey);
  await page.getByRole("button", { name: "Filter" }).click();
  const events = page.getByRole("table", { name: "Audit events" });
  for (const action of ["lookup.run", "resolution.proposed", "resolution.approved", "resolution.applied"])
    await expect(events).toContainText(action);

  await events.getByRole("link", { name: "Full story" }).first().click();
  await expect(page.getByRole("heading", { name: /accept receipt — applied/ })).toBeVisible();
  await expect(page.getByRole("region", { name: "Approvers" })).toContainText("Amara Approver");

  await page.goto("/audit");
  await page.getByRole("button", { name: "Verify chain" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Chain intact" })).toBeVisible({ timeout: 20_000 });

  const jsonl = await page.request.get(
    `/api/audit/export?format=jsonl&intent=${encodeURIComponent(intentKey)}`,
  );
  const lines = (await jsonl.text())
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  expect(lines.at(-1)).toMatchObject({
    chainOk: true,
    checkpoint: { signature: expect.stringMatching(/^[0-9a-f]{64}$/) },
  });
  expect(lines.slice(0, -1).map((l) => l.action)).toContain("resolution.applied");
  const csv = await page.request.get("/api/audit/export?format=csv&action=resolution.");
  expect(csv.headers()["x-reckon-checkpoint"]).toContain("headHash");
  expect((await csv.text()).split("\n")[0]).toMatch(/^seq,occurredAt,actorEmail/);

  const intent = await intentByKey(SCENARIOS.spare.job.intentKey);
  for (const [url, data] of [
    [
      "/api/thresholds",
      { tenantId: "acme-shop", currency: "USD", thresholdMinor: "1", dualThresholdMinor: null },
    ],
    [`/api/resolutions/${randomUUID()}/decision`, { decision: "approved", reason: "auditors cannot" }],
    [`/api/intents/${intent.id}/claim`, {}],
  ] as const) {
    expect((await page.request.post(url, { data })).status(), url).toBe(403);
  }
});

test("an admin changes a threshold (audited) but cannot approve", async ({ page }) => {
  await signInAs(page, "admin@demo.test");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Thresholds" }).click();
  await page.getByLabel("One approver from, initech-saas GBP").fill("90000");
  await page.getByRole("button", { name: "Save initech-saas GBP" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();
  const [row] = await query<{ threshold_minor: string }>(
    "SELECT threshold_minor::text FROM approval_thresholds WHERE tenant_id = 'initech-saas' AND currency = 'GBP'",
  );
  expect(row!.threshold_minor).toBe("90000");
  expect(
    await query(
      "SELECT 1 FROM audit_events WHERE action = 'settings.threshold_changed' AND target_id = 'initech-saas/GBP'",
    ),
  ).toHaveLength(1);
  expect(
    (
      await page.request.post(`/api/resolutions/${randomUUID()}/decision`, {
        data: { decision: "approved", reason: "admins cannot" },
      })
    ).status(),
  ).toBe(403);
});
