import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { callAction } from "./actions";
import { intentByKey, intentPath, query, resolutionsOf, sandboxEffects } from "./ledger";
import { SCENARIOS } from "./scenarios";

test.describe.configure({ mode: "serial" });

async function lookUp(page: Page, method = "Look up by idempotency key") {
  await page.getByRole("button", { name: method }).click();
  await expect(page.getByRole("status").filter({ hasText: "Result:" })).toBeVisible({ timeout: 15_000 });
}

async function resolve(page: Page, kind: string, reason: string) {
  const form = page.getByRole("form", { name: "Resolve" });
  await form.getByRole("radio", { name: new RegExp(`^${kind}`) }).check();
  await form.getByLabel("Reason").fill(reason);
  await form.getByRole("button", { name: "Submit resolution" }).click();
}

test("an operator finds a charge that really happened, looks it up and accepts the receipt", async ({
  as,
}) => {
  const { intentKey } = SCENARIOS.charged.job;
  const page = await as("operator");
  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Inbox" }).click();
  await expect(page.getByRole("heading", { name: "Unknown effects" })).toBeVisible();

  // Keyboard triage: "/" to search, then open the match.
  await page.keyboard.press("/");
  await page.keyboard.type(intentKey);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/q=invoice%3Ainv_e2e_charged/);
  await expect(page.getByRole("table", { name: "Unknown intents" }).getByRole("link")).toHaveText([
    intentKey,
  ]);
  await page.getByRole("table", { name: "Unknown intents" }).getByRole("row").nth(1).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: intentKey })).toBeVisible();
  await expect(page.getByTestId("retention")).toContainText("left");

  await lookUp(page);
  await expect(page.getByTestId("lookup-outcome").first()).toHaveText("found matching");
  await resolve(page, "Accept receipt", "Provider search shows the charge under this key");
  await expect(page.getByRole("status").filter({ hasText: "Applied" })).toHaveText(
    /the intent is now confirmed/,
  );

  const intent = await intentByKey(intentKey);
  const effects = await sandboxEffects({ intentKey });
  expect(intent.status).toBe("confirmed");
  expect(effects).toHaveLength(1);
  expect(intent.provider_result_id).toBe(effects[0]!.id);
  // The audit trail on the page shows the lookup and the resolution.
  await expect(page.getByRole("table", { name: "Audit trail" })).toContainText("resolution.applied");
});

test("an operator marks rejected a charge that never happened", async ({ as }) => {
  const { intentKey } = SCENARIOS.notCharged.job;
  const page = await as("operator");
  await page.goto("/");
  await page.goto(intentPath(intentKey));
  await lookUp(page);
  await expect(page.getByTestId("lookup-outcome").first()).toHaveText("absent");
  await resolve(page, "Mark rejected", "No charge at the provider after the search delay");
  await expect(page.getByRole("status").filter({ hasText: "Applied" })).toHaveText(/now rejected/);
  expect((await intentByKey(intentKey)).status).toBe("rejected");
  expect(await sandboxEffects({ intentKey })).toHaveLength(0);
});

test("a compensation clicked twice is proposed once and sent nowhere before approval", async ({ as }) => {
  const { intentKey } = SCENARIOS.toRefund.job;
  const page = await as("operator");
  await page.goto("/");
  await page.goto(intentPath(intentKey));
  const form = page.getByRole("form", { name: "Resolve" });
  await form.getByRole("radio", { name: /^Start compensation/ }).check();
  await form.getByLabel("Reason").fill("Customer cancelled within the refund window");
  await form.getByRole("button", { name: "Submit resolution" }).dblclick();
  await expect(page.getByRole("status").filter({ hasText: "Proposed" })).toHaveText(/waiting for 1 approver/);
  // The page now shows the waiting request instead of a form to propose another.
  await expect(page.getByRole("note", { name: "Waiting for approval" })).toContainText(
    "start compensation request is waiting for approval (0 of 1 approval)",
  );
  await expect(page.getByRole("form", { name: "Resolve" })).toHaveCount(0);
  const intent = await intentByKey(intentKey);
  expect(intent.status).toBe("confirmed");
  expect(await resolutionsOf(intent.id)).toEqual([
    expect.objectContaining({ kind: "start_compensation", status: "pending_approval" }),
  ]);
  expect(
    (await sandboxEffects()).filter(
      (e) => e.kind === "refund" && e.body.charge === intent.provider_result_id,
    ),
  ).toHaveLength(0);
});

test("two operators resolving the same intent at once: one wins, the other sees a clear conflict", async ({
  as,
}) => {
  const { intentKey } = SCENARIOS.race.job;
  const [pa, pb] = [await as("operator"), await as("operator2")];
  await pa.goto(intentPath(intentKey));
  await lookUp(pa);
  await pb.goto(intentPath(intentKey));
  for (const p of [pa, pb]) {
    const form = p.getByRole("form", { name: "Resolve" });
    await form.getByRole("radio", { name: /^Accept receipt/ }).check();
    await form.getByLabel("Reason").fill("Charge found at the provider");
  }
  await Promise.all(
    [pa, pb].map((p) =>
      p.getByRole("form", { name: "Resolve" }).getByRole("button", { name: "Submit resolution" }).click(),
    ),
  );
  const outcomes = await Promise.all(
    [pa, pb].map(async (p) => {
      const done = p.getByRole("status").filter({ hasText: "Applied" });
      const conflict = p.getByRole("form", { name: "Resolve" }).locator("xpath=..").getByRole("alert");
      await expect(done.or(conflict)).toBeVisible({ timeout: 15_000 });
      return (await done.isVisible()) ? "applied" : await conflict.innerText();
    }),
  );
  expect(outcomes.filter((o) => o === "applied")).toHaveLength(1);
  expect(outcomes.find((o) => o !== "applied")).toMatch(/changed|at the same moment|claim/i);
  const intent = await intentByKey(intentKey);
  expect(intent.status).toBe("confirmed");
  expect((await resolutionsOf(intent.id)).filter((r) => r.status === "applied")).toHaveLength(1);
});

for (const part of ["auditor", "approver"] as const) {
  test(`an ${part} cannot run operator actions, even by calling them directly`, async ({ as }) => {
    const intent = await intentByKey(SCENARIOS.spare.job.intentKey);
    const page = await as(part);
    await page.goto(intentPath(intent.intent_key));
    await expect(page.getByText("Read only: resolving needs the operator role.")).toBeVisible();
    await expect(page.getByRole("form", { name: "Resolve" })).toHaveCount(0);

    const calls: [string, unknown[]][] = [
      ["claimAction", [{}, { intentId: intent.id }]],
      ["lookupAction", [{}, { intentId: intent.id, method: "idempotency_key" }]],
      [
        "proposeAction",
        [
          {},
          {
            intentId: intent.id,
            kind: "escalate",
            reason: "not allowed to",
            expectedVersion: intent.version,
            submissionKey: randomUUID(),
          },
        ],
      ],
      [
        "bulkAcceptAction",
        [
          {
            reason: "not allowed to",
            submissionKey: randomUUID(),
            items: [{ intentId: intent.id, lookupId: randomUUID(), expectedVersion: intent.version }],
          },
        ],
      ],
    ];
    for (const [name, args] of calls) {
      const answer = await callAction(page.request, name, args);
      expect(answer.result?.serverError?.code, name).toBe("forbidden");
    }
    // The one JSON route that changes state (bulk lookups) refuses the same way.
    const route = await page.request.post(`/api/intents/${intent.id}/lookups`, {
      data: { method: "idempotency_key" },
    });
    expect(route.status()).toBe(403);
    const after = await intentByKey(intent.intent_key);
    expect(after).toEqual(intent);
    expect(await query("SELECT 1 FROM lookups WHERE intent_id = $1", [intent.id])).toHaveLength(0);
  });
}

test("a request forged from another site is refused before it reaches an action", async ({ as }) => {
  const intent = await intentByKey(SCENARIOS.spare.job.intentKey);
  const page = await as("operator");
  await page.goto("/");
  // A page on the same host but another port, posting with the victim's cookie.
  const forged = await callAction(page.request, "claimAction", [{}, { intentId: intent.id }], {
    origin: "http://127.0.0.1:4999",
  });
  expect(forged.status).toBe(403);
  const json = await page.request.post(`/api/intents/${intent.id}/lookups`, {
    headers: { origin: "http://127.0.0.1:4999", "sec-fetch-site": "same-site" },
    data: { method: "idempotency_key" },
  });
  expect(json.status()).toBe(403);
  const plain = await page.request.post(`/api/intents/${intent.id}/lookups`, {
    headers: { "content-type": "text/plain" },
    data: JSON.stringify({ method: "idempotency_key" }),
  });
  expect(plain.status()).toBe(415);
  expect(await intentByKey(intent.intent_key)).toEqual(intent);
  expect(await query("SELECT 1 FROM lookups WHERE intent_id = $1", [intent.id])).toHaveLength(0);
});

test("bad input gets a clear error and changes nothing", async ({ as }) => {
  const intent = await intentByKey(SCENARIOS.spare.job.intentKey);
  const page = await as("operator");
  await page.goto("/");
  const valid = {
    intentId: intent.id,
    kind: "escalate",
    reason: "Evidence is ambiguous",
    expectedVersion: intent.version,
  };
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ["unknown intent", { ...valid, intentId: randomUUID() }, /No such intent/],
    ["malformed id", { ...valid, intentId: "not-an-id" }, /No such intent/],
    ["over-long reason", { ...valid, reason: "x".repeat(2001) }, /at most 2,000 characters/],
    ["missing reason", { ...valid, reason: "" }, /Reason/],
    ["a NUL byte in the reason", { ...valid, reason: "looks\u0000fine" }, /control character/],
    ["wrong tenant", { ...valid, tenantId: "globex-travel" }, /No such intent in this tenant/],
    ["stale version", { ...valid, expectedVersion: intent.version + 7 }, /changed since you loaded/],
    ["unknown kind", { ...valid, kind: "delete_everything" }, /Choose a resolution/],
    ["version out of range", { ...valid, expectedVersion: 1e308 }, /./],
    ["accept without evidence", { ...valid, kind: "accept_receipt" }, /needs a lookup/],
  ];
  for (const [name, input, message] of cases) {
    const answer = await callAction(page.request, "proposeAction", [
      {},
      { ...input, submissionKey: randomUUID() },
    ]);
    expect(answer.status, name).toBe(200);
    const said =
      answer.result?.serverError?.message ??
      Object.values(answer.result?.validationErrors?.fieldErrors ?? {})[0]?.[0];
    expect(said, name).toMatch(message);
    expect(answer.result?.data, name).toBeUndefined();
  }
  // Invalid JSON to the JSON route is a 400, not a change.
  const broken = await page.request.post(`/api/intents/${intent.id}/lookups`, {
    headers: { "content-type": "application/json" },
    data: "not json{",
  });
  expect(broken.status()).toBe(400);
  expect(await intentByKey(intent.intent_key)).toEqual(intent);
  expect(await resolutionsOf(intent.id)).toEqual([]);
});

test("inbox filters live in the URL, and the CSV export follows them", async ({ as }) => {
  const page = await as("operator");
  await page.goto("/");
  await page.goto("/inbox?tenant=globex-travel&claim=unclaimed");
  const rows = page.getByRole("table", { name: "Unknown intents" }).getByRole("row");
  await expect(rows.nth(1)).toBeVisible();
  const tenants = await rows.locator("td:nth-child(3)").allInnerTexts();
  expect(new Set(tenants)).toEqual(new Set(["globex-travel"]));
  await expect(page.getByLabel("Tenant")).toHaveValue("globex-travel");

  const csv = await page.request.get("/api/inbox/export?tenant=globex-travel");
  expect(csv.headers()["content-type"]).toContain("text/csv");
  const lines = (await csv.text()).trim().split("\n");
  expect(lines[0]).toMatch(/^tenant,intent_key,status,/);
  expect(lines.length).toBeGreaterThan(1);
  expect(lines.slice(1).every((l) => l.startsWith("globex-travel,"))).toBe(true);
});

test("bulk: look up the selected unknowns with progress, then accept every exact match in one step", async ({
  as,
}) => {
  const keys = [SCENARIOS.bulk1.job.intentKey, SCENARIOS.bulk2.job.intentKey];
  const page = await as("operator");
  await page.goto("/");
  await page.goto("/inbox?q=customer%2Fe2e-bulk");
  for (const key of keys) await page.getByRole("checkbox", { name: `Select ${key}` }).check();
  const bulk = page.getByRole("region", { name: "Bulk actions" });
  await bulk.getByRole("button", { name: "Look up 2 selected" }).click();
  await expect(bulk.getByText("2/2 looked up")).toBeVisible({ timeout: 20_000 });
  await expect(bulk).toContainText("2 found matching");
  await bulk.getByLabel(/Reason for accepting all 2 exact matches/).fill("Both charges found by key");
  await bulk.getByRole("button", { name: "Accept 2 found matching" }).click();
  await expect(bulk.getByRole("status")).toHaveText(/2 accepted/);
  for (const key of keys) {
    const intent = await intentByKey(key);
    expect(intent.status).toBe("confirmed");
    expect(await sandboxEffects({ intentKey: key })).toHaveLength(1);
    // Each is its own audited resolution.
    expect(
      await query("SELECT 1 FROM audit_events WHERE target_id = $1 AND action = 'resolution.applied'", [
        intent.id,
      ]),
    ).toHaveLength(1);
  }
});
