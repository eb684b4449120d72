import { randomUUID } from "node:crypto";
import { callAction } from "./actions";
import { intentByKey, query } from "./ledger";
import { SCENARIOS } from "./scenarios";
import { expect, test } from "./fixtures";

// Each malformed request measured against the console once answered 500 or cut off
// midway. Every one must now get a clear 4xx (or a field error) and change nothing.

const NUL = "\u0000";

/** Audit events written by these people (other specs write theirs at the same time). */
async function auditCount(actorIds: string[]): Promise<number> {
  const [row] = await query<{ n: string }>(
    "SELECT count(*)::text AS n FROM audit_events WHERE actor_id = ANY($1::uuid[])",
    [actorIds],
  );
  return Number(row!.n);
}

test("a NUL byte in any text field is a field error naming the field, and changes nothing", async ({
  as,
  people,
}) => {
  const intent = await intentByKey(SCENARIOS.spare.job.intentKey);
  const [operator, approver, admin] = [await as("operator"), await as("approver"), await as("admin")];
  const actors = [people.operator.id, people.approver.id, people.admin.id];
  const before = await auditCount(actors);
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
  expect(await auditCount(actors)).toBe(before);
  expect(await intentByKey(intent.intent_key)).toEqual(intent);
});

test("bad inbox and audit filters are a 400 naming the filter, on the API and on exports (which then write no event)", async ({
  as,
  people,
}) => {
  const operator = await as("operator");
  const cursor = Buffer.from(
    JSON.stringify({ createdAt: "2026-01-01T00:00:00.000Z", id: "not-a-uuid" }),
  ).toString("base64url");
  const before = await auditCount([people.operator.id, people.auditor.id]);
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

  const auditor = await as("auditor");
  for (const q of ["from=yesterday", "before=99999999999999999999", "q=%00", "actor=a%0Ab"]) {
    const answer = await auditor.request.get(`/api/audit/export?format=csv&${q}`);
    expect(answer.status(), q).toBe(400);
  }
  // The refused exports wrote no event.
  expect(await auditCount([people.operator.id, people.auditor.id])).toBe(before);
});

test("a malformed intent address is a 404 page, never a 500", async ({ as }) => {
  const page = await as("operator");
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
