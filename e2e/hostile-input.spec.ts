import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { callAction } from "./actions";
import { intentByKey, query } from "./ledger";
import { SCENARIOS } from "./scenarios";
import { signInAs } from "./support";

// Each malformed request measured against the console once answered 500 or cut off
// midway. Every one must now get a clear 4xx (or a field error) and change nothing.

const NUL = "\u0000";

async function auditCount(): Promise<number> {
  const [row] = await query<{ n: string }>("SELECT count(*)::text AS n FROM audit_events");
  return Number(row!.n);
}

test("a NUL byte in any text field is a field error naming the field, and changes nothing", async ({
  browser,
}) => {
  const intent = await intentByKey(SCENARIOS.spare.job.intentKey);
  const operator = await (await browser.newContext()).newPage();
  await signInAs(operator, "operator@demo.test");
  const approver = await (await browser.newContext()).newPage();
  await signInAs(approver, "approver@demo.test");
  const admin = await (await browser.newContext()).newPage();
  await signInAs(admin, "admin@demo.test");
  const before = await auditCount();
  const cases: [typeof operator, string, unknown[], string][] = [
    [
      operator,
      "proposeAction",
      [
        {},
        {
          intentId: intent.id,
          kind: "escalate",
          reason: `why${NUL}not`,
          expectedVersion: intent.version,
          submissionKey: randomUUID(),
        },
      ],
      "reason",
    ],
    [
      operator,
      "proposeAction",
      [
        {},
        {
          intentId: intent.id,
          kind: "accept_receipt",
          reason: "found it there",
          evidence: "external",
          externalEvidenceRef: `T-1${NUL}`,
          expectedVersion: intent.version,
          submissionKey: randomUUID(),
        },
      ],
      "externalEvidenceRef",
    ],
    [
      operator,
      "claimAction",
      [{}, { intentId: intent.id, takeOverReason: `mine${NUL}now` }],
      "takeOverReason",
    ],
    [
      operator,
      "bulkAcceptAction",
      [
        {
          reason: `all${NUL}of them`,
          submissionKey: randomUUID(),
          items: [{ intentId: intent.id, lookupId: randomUUID(), expectedVersion: intent.version }],
        },
      ],
      "reason",
    ],
    [
      approver,
      "decideAction",
      [{}, { resolutionId: randomUUID(), decision: "approved", reason: `fine${NUL}fine` }],
      "reason",
    ],
    [
      admin,
      "saveThresholdAction",
      [{}, { tenantId: `acme${NUL}`, currency: "USD", thresholdMinor: "100" }],
      "tenantId",
    ],
  ];
  for (const [page, action, args, field] of cases) {
    const answer = await callAction(page.request, action, args);
    expect(answer.status, action).toBe(200);
    expect(answer.result?.validationErrors?.fieldErrors[field]?.[0], `${action} ${field}`).toMatch(
      /control character|plain text/,
    );
  }
  expect(await auditCount()).toBe(before);
  expect(await intentByKey(intent.intent_key)).toEqual(intent);
});

test("bad inbox and audit filters are a 400 naming the filter, on the API and on exports (which then write no event)", async ({
  browser,
}) => {
  const operator = await (await browser.newContext()).newPage();
  await signInAs(operator, "operator@demo.test");
  const cursor = Buffer.from(
    JSON.stringify({ createdAt: "2026-01-01T00:00:00.000Z", id: "not-a-uuid" }),
  ).toString("base64url");
  const before = await auditCount();
  for (const [q, field] of [
    ["min=1e308", "min"],
    ["min=1e17", "min"],
    ["max=-5", "max"],
    ["q=%00", "q"],
    ["tenant=%00", "tenant"],
    ["provider=%00", "provider"],
    [`cursor=${cursor}`, "cursor"],
    ["cursor=%%%", "cursor"],
  ] as const) {
    for (const path of ["/api/inbox", "/api/inbox/export"]) {
      const answer = await operator.request.get(`${path}?${q}`);
      expect(answer.status(), `${path}?${q}`).toBe(400);
      expect(((await answer.json()) as { issues: { field: string }[] }).issues[0]!.field).toBe(field);
    }
  }
  // The page shows what it ignored, and the rest of the inbox.
  await operator.goto(`/inbox?cursor=${cursor}&min=1e308`);
  await expect(operator.getByRole("alert").filter({ hasText: "ignored" })).toContainText(
    "page link is not valid",
  );
  await expect(operator.getByRole("table", { name: "Unknown intents" })).toBeVisible();

  const auditor = await (await browser.newContext()).newPage();
  await signInAs(auditor, "auditor@demo.test");
  for (const q of ["from=yesterday", "before=99999999999999999999", "q=%00", "actor=a%0Ab"]) {
    const answer = await auditor.request.get(`/api/audit/export?format=csv&${q}`);
    expect(answer.status(), q).toBe(400);
  }
  // Sign-ins above wrote their events; the refused exports wrote none.
  const exported = await query(
    "SELECT 1 FROM audit_events WHERE seq > $1 AND action IN ('inbox.exported', 'audit.exported')",
    [before],
  );
  expect(exported).toHaveLength(0);
});

test("a malformed intent address is a 404 page, never a 500", async ({ page }) => {
  await signInAs(page, "operator@demo.test");
  for (const path of [
    "/intents/acme-shop/%00",
    "/intents/%00/%00",
    "/intents/acme-shop/%E0%A4%A",
    "/intents/acme-shop/%E2%80%AEkey",
    `/intents/acme-shop/${"k".repeat(300)}`,
  ]) {
    const response = await page.goto(path);
    expect([400, 404], path).toContain(response!.status());
  }
  const story = await page.goto("/audit/resolutions/not-a-uuid");
  expect(story!.status()).toBe(404);
});

test("signing in with odd input answers plainly and leaks nothing", async ({ page }) => {
  await page.goto("/login");
  for (const email of [`operator${NUL}@demo.test`, `${"a".repeat(400)}@demo.test`]) {
    const answer = await callAction(page.request, "signInAction", [{}, { email, password: "reckon-demo" }], {
      page: "/login",
    });
    expect(answer.status).toBe(200);
    const text = JSON.stringify(answer.result);
    expect(text).toMatch(/Email/);
    expect(text).not.toMatch(/prisma|invocation|22021|Error:/i);
  }
});
