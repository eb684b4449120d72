import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { callAction } from "./actions";
import { seriousFindings } from "./axe";
import { intentByKey, intentPath, query, sandboxEffects } from "./ledger";
import { SCENARIOS } from "./scenarios";
import { expect, test } from "./fixtures";

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

/** The waiting request for this intent on an approver's queue. */
function queued(page: Page, intentKey: string) {
  return page
    .getByRole("list", { name: "Pending resolutions" })
    .getByRole("listitem")
    .filter({ hasText: intentKey });
}

/** Several approvers (or tabs) with the reason typed, then all pressing the button at the same moment. */
async function decideAtOnce(
  pages: Page[],
  intentKey: string,
  buttons: ("Approve" | "Deny")[],
  reason: string,
) {
  for (const p of pages) {
    await p.goto("/approvals");
    await queued(p, intentKey).getByLabel("Reason for your decision").fill(reason);
  }
  await Promise.all(
    pages.map((p, i) => queued(p, intentKey).getByRole("button", { name: buttons[i]! }).click()),
  );
}

/** What an approver's list of recent decisions says about this intent. */
function myDecision(page: Page, intentKey: string) {
  return page
    .getByRole("list", { name: "Your recent decisions" })
    .getByRole("listitem")
    .filter({ hasText: intentKey });
}

test("a high-value accept waits for an approver, who cannot be the proposer, and then applies once", async ({
  as,
  people,
}) => {
  const { intentKey } = SCENARIOS.big.job;
  const operator = await as("operator");
  await propose(operator, intentKey, "Accept receipt", "Provider shows the charge", true);
  await expect(operator.getByRole("status").filter({ hasText: "Proposed" })).toHaveText(
    /waiting for 1 approver/,
  );
  const intent = await intentByKey(intentKey);
  expect(intent.status).toBe("unknown");

  // The proposer cannot approve: not in the UI (no Approvals screen) nor by calling the action.
  await expect(
    operator.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Approvals" }),
  ).toHaveCount(0);
  const id = await pendingId(intent.id);
  const own = await callAction(operator.request, "decideAction", [
    {},
    { resolutionId: id, decision: "approved", reason: "my own" },
  ]);
  expect(own.result?.serverError?.code).toBe("forbidden");

  const approver = await as("approver");
  await decideInUi(approver, intentKey, "Approve", "Search result matches amount and customer");
  await expect(myDecision(approver, intentKey)).toContainText("You approved");
  await expect(myDecision(approver, intentKey)).toContainText("Request: applied; intent confirmed");
  expect((await intentByKey(intentKey)).status).toBe("confirmed");
  expect(await sandboxEffects({ intentKey })).toHaveLength(1);
  // A second approval of the same request is refused, naming what happened.
  const again = await callAction(approver.request, "decideAction", [
    {},
    { resolutionId: id, decision: "approved", reason: "twice" },
  ]);
  expect(again.result?.serverError?.message).toContain(
    `already applied (approved by ${people.approver.name}`,
  );
});

test("above the dual threshold it takes two different approvers", async ({ as }) => {
  const { intentKey } = SCENARIOS.huge.job;
  const operator = await as("operator");
  await propose(operator, intentKey, "Accept receipt", "Provider shows the charge", true);
  await expect(operator.getByRole("status").filter({ hasText: "Proposed" })).toHaveText(
    /waiting for 2 approvers/,
  );

  const first = await as("approver");
  // The queue with a request in it, and the intent page showing the waiting request: accessible.
  await first.goto("/approvals");
  expect(await seriousFindings(first, "/approvals")).toEqual([]);
  await operator.goto(intentPath(intentKey));
  expect(await seriousFindings(operator, "intent page with a waiting request")).toEqual([]);
  await decideInUi(first, intentKey, "Approve", "First signature");
  // The approver who decided sees that, not the buttons again.
  const item = queued(first, intentKey);
  await expect(item).toContainText("You approved at");
  await expect(item.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await expect(myDecision(first, intentKey)).toContainText("waiting (1 of 2 approvals)");
  expect((await intentByKey(intentKey)).status).toBe("unknown");

  const second = await as("approver2");
  await decideInUi(second, intentKey, "Approve", "Second signature");
  await expect(myDecision(second, intentKey)).toContainText("Request: applied");
  expect((await intentByKey(intentKey)).status).toBe("confirmed");
});

test("two approvers approving one two-approval request at the same moment apply it once", async ({ as }) => {
  const { intentKey } = SCENARIOS.dualRace.job;
  const operator = await as("operator");
  await propose(operator, intentKey, "Accept receipt", "Provider shows the charge", true);
  await expect(operator.getByRole("status").filter({ hasText: "Proposed" })).toHaveText(/2 approvers/);
  const pages = [await as("approver"), await as("approver2")];
  await decideAtOnce(pages, intentKey, ["Approve", "Approve"], "Signed");
  // Each sees their own vote; whoever committed first saw "waiting" until the other's landed.
  for (const p of pages) await expect(myDecision(p, intentKey)).toContainText("You approved");
  for (const p of pages) {
    await p.reload();
    await expect(myDecision(p, intentKey)).toContainText("Request: applied");
  }
  const intent = await intentByKey(intentKey);
  expect(intent.status).toBe("confirmed");
  expect(
    await query("SELECT 1 FROM audit_events WHERE target_id = $1 AND action = 'resolution.applied'", [
      intent.id,
    ]),
  ).toHaveLength(1);
  expect(
    await query(
      "SELECT decision FROM approvals a JOIN resolutions r ON r.id = a.resolution_id WHERE r.intent_id = $1",
      [intent.id],
    ),
  ).toHaveLength(2);
});

test("approve and deny at the same moment: exactly one wins, and the other is told why", async ({
  as,
  people,
}) => {
  const { intentKey } = SCENARIOS.decideRace.job;
  const operator = await as("operator");
  await propose(operator, intentKey, "Accept receipt", "Provider shows the charge", true);
  await expect(operator.getByRole("status").filter({ hasText: "Proposed" })).toHaveText(/1 approver/);
  const [yes, no] = [await as("approver"), await as("approver2")];
  await decideAtOnce([yes, no], intentKey, ["Approve", "Deny"], "My call");
  const outcome = async (p: Page) => {
    const mine = myDecision(p, intentKey);
    const refused = queued(p, intentKey).getByRole("alert");
    await expect(mine.or(refused)).toBeVisible({ timeout: 15_000 });
    return (await refused.isVisible()) ? `refused: ${await refused.innerText()}` : await mine.innerText();
  };
  const [a, b] = [await outcome(yes), await outcome(no)];
  const refusals = [a, b].filter((o) => o.startsWith("refused"));
  expect(refusals).toHaveLength(1);
  expect(refusals[0]).toMatch(
    new RegExp(
      `already (applied|denied) (\\(approved )?by ${people.approver.name}|already (applied|denied).*${people.approver2.name}`,
    ),
  );
  const intent = await intentByKey(intentKey);
  const [r] = await query<{ status: string }>("SELECT status FROM resolutions WHERE intent_id = $1", [
    intent.id,
  ]);
  expect(intent.status).toBe(r!.status === "applied" ? "confirmed" : "unknown");
  expect(["applied", "denied"]).toContain(r!.status);
});

test("with JavaScript off, an operator looks up and proposes, and an approver approves", async ({ as }) => {
  const { intentKey } = SCENARIOS.noScript.job;
  // Sign in with JavaScript (the sign-in form is not part of this), then turn it off.

  const operator = await as("operator", { javaScriptEnabled: false });
  await operator.goto(intentPath(intentKey));
  await operator.getByRole("button", { name: "Look up by idempotency key" }).click();
  await expect(operator.getByTestId("lookup-outcome").first()).toHaveText("found matching");
  const form = operator.getByRole("form", { name: "Resolve" });
  await form.getByRole("radio", { name: /^Accept receipt/ }).check();
  await form.getByLabel("Reason").fill("Found by key, no JavaScript needed");
  await form.getByRole("button", { name: "Submit resolution" }).click();
  await expect(operator.getByRole("status").filter({ hasText: "Proposed" })).toHaveText(
    /waiting for 1 approver/,
  );
  const intent = await intentByKey(intentKey);
  expect(intent.status).toBe("unknown");

  const approver = await as("approver", { javaScriptEnabled: false });
  await approver.goto("/approvals");
  const item = queued(approver, intentKey);
  await item.getByLabel("Reason for your decision").fill("Evidence holds");
  await item.getByRole("button", { name: "Approve" }).click();
  await expect(myDecision(approver, intentKey)).toContainText("Request: applied; intent confirmed");
  expect((await intentByKey(intentKey)).status).toBe("confirmed");
  expect(await sandboxEffects({ intentKey })).toHaveLength(1);
});

test("an approved compensation sends exactly one refund, however many tabs approve it", async ({ as }) => {
  const { intentKey } = SCENARIOS.refundApproved.job;
  const operator = await as("operator");
  await propose(operator, intentKey, "Start compensation", "Customer cancelled", false);
  await expect(operator.getByRole("status").filter({ hasText: "Proposed" })).toBeVisible();
  const intent = await intentByKey(intentKey);

  // One approver, two tabs, both clicking Approve at once: one applies, the other is refused.
  const tabs = [await as("approver"), await as("approver")];
  await decideAtOnce(tabs, intentKey, ["Approve", "Approve"], "Refund approved");
  // One tab shows the decision; the other was refused, naming what happened.
  const said = await Promise.all(
    tabs.map(async (t) => {
      const refused = queued(t, intentKey).getByRole("alert");
      await expect(myDecision(t, intentKey).or(refused)).toBeVisible({ timeout: 15_000 });
      return (await refused.isVisible()) ? await refused.innerText() : "decided";
    }),
  );
  expect(said.filter((s) => s === "decided")).toHaveLength(1);
  expect(said.find((s) => s !== "decided")).toMatch(/already (applied|decided)/);
  await expect
    .poll(async () => (await intentByKey(intentKey)).status, { timeout: 15_000 })
    .toBe("compensated");
  const refunds = (await sandboxEffects()).filter(
    (e) => e.kind === "refund" && e.body.charge === intent.provider_result_id,
  );
  expect(refunds).toHaveLength(1);
  expect(
    await query("SELECT 1 FROM audit_events WHERE target_id = $1 AND action = 'resolution.applied'", [
      intent.id,
    ]),
  ).toHaveLength(1);
});

test("an auditor reads the story, verifies the chain and exports it, but cannot change anything", async ({
  as,
  people,
}) => {
  const { intentKey } = SCENARIOS.big.job;
  const page = await as("auditor");
  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Audit log" }).click();
  await page.getByLabel("Intent key or id").fill(intentKey);
  await page.getByRole("button", { name: "Filter" }).click();
  const events = page.getByRole("table", { name: "Audit events" });
  for (const action of ["lookup.run", "resolution.proposed", "resolution.approved", "resolution.applied"])
    await expect(events).toContainText(action);

  await events.getByRole("link", { name: "Full story" }).first().click();
  await expect(page.getByRole("heading", { name: /accept receipt — applied/ })).toBeVisible();
  await expect(page.getByRole("region", { name: "Approvers" })).toContainText(people.approver.name);

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
  for (const [name, args] of [
    [
      "saveThresholdAction",
      [{}, { tenantId: "acme-shop", currency: "USD", threshold: "0.01", reason: "auditors cannot" }],
    ],
    ["decideAction", [{}, { resolutionId: randomUUID(), decision: "approved", reason: "auditors cannot" }]],
    ["claimAction", [{}, { intentId: intent.id }]],
  ] as const) {
    expect((await callAction(page.request, name, [...args])).result?.serverError?.code, name).toBe(
      "forbidden",
    );
  }
});

test("an admin changes a threshold (audited) but cannot approve", async ({ as }) => {
  const page = await as("admin");
  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Thresholds" }).click();
  // In major units: £900.00 is 90000 pence.
  await page.getByLabel("One approver from, initech-saas GBP").fill("900.00");
  await page.getByLabel("Reason for initech-saas GBP").fill("Lower for a pilot");
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
  const decided = await callAction(page.request, "decideAction", [
    {},
    { resolutionId: randomUUID(), decision: "approved", reason: "admins cannot" },
  ]);
  expect(decided.result?.serverError?.code).toBe("forbidden");
});
