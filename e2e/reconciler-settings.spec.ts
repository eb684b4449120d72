import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { callAction } from "./actions";
import { expect, test } from "./fixtures";
import { query } from "./ledger";

// The reconciler's policy and its auto-resolve limit, as an admin sets them. Other specs
// need the reconciler off for their intents, so these tests use a pair and a currency
// nothing else touches (the scenarios are acme-shop USD at payments-sandbox) and leave
// both as they found them.

const TENANT = "globex-travel";
const PROVIDER = "mailer-sandbox";
const PAIR = `${TENANT} at ${PROVIDER}`;
const CURRENCY = "EUR";
const THRESHOLD_ROW = `${TENANT} ${CURRENCY}`;

const policyOf = async () =>
  (
    await query<{ mode: string; redispatch: boolean; max_redispatches: number }>(
      "SELECT mode::text, redispatch, max_redispatches FROM reconcile_policies WHERE tenant_id = $1 AND provider_id = $2",
      [TENANT, PROVIDER],
    )
  )[0] ?? null;

const autoLimitOf = async () =>
  (
    await query<{ limit: string | null }>(
      "SELECT auto_resolve_below_minor::text AS limit FROM approval_thresholds WHERE tenant_id = $1 AND currency = $2",
      [TENANT, CURRENCY],
    )
  )[0]?.limit ?? null;

/** The table row holding a form's save button. */
const rowOf = (page: Page, save: string) =>
  page.getByRole("row").filter({ has: page.getByRole("button", { name: save, exact: true }) });

async function savePolicy(page: Page, mode: "off" | "dry_run" | "on", reason: string) {
  await page.getByRole("combobox", { name: `Mode for ${PAIR}` }).selectOption(mode);
  await page.getByRole("textbox", { name: `Reason for ${PAIR}` }).fill(reason);
  await page.getByRole("button", { name: `Save ${PAIR}`, exact: true }).click();
  await expect(rowOf(page, `Save ${PAIR}`).getByRole("status")).toHaveText("Saved");
}

test.afterAll(async () => {
  // Only if a test failed half-way: what the tests below undo through the screens.
  await query("UPDATE reconcile_policies SET mode = 'off' WHERE tenant_id = $1 AND provider_id = $2", [
    TENANT,
    PROVIDER,
  ]);
  await query(
    "UPDATE approval_thresholds SET auto_resolve_below_minor = NULL WHERE tenant_id = $1 AND currency = $2",
    [TENANT, CURRENCY],
  );
});

test("an admin switches a pair to dry run with a reason, the audit log keeps it, and switches it off again", async ({
  as,
  people,
}) => {
  const before = await policyOf();
  expect(before?.mode ?? "off").toBe("off");
  const reason = `Trying the reconciler on mail first ${randomUUID().slice(0, 8)}`;
  const page = await as("admin");
  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Reconciler" }).click();
  await expect(page.getByRole("heading", { name: "Reconciler", level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: "approval thresholds" })).toHaveAttribute(
    "href",
    "/settings/thresholds",
  );
  // Every tenant × provider pair has a row (3 tenants, 2 providers), each with its counts.
  await expect(page.getByRole("combobox", { name: /^Mode for / })).toHaveCount(6);
  const row = rowOf(page, `Save ${PAIR}`);
  await expect(row).toContainText("working on");
  await expect(row).toContainText("escalated");

  await page
    .getByRole("checkbox", { name: `May send absent intents again with their original key, for ${PAIR}` })
    .uncheck();
  await page.getByRole("spinbutton", { name: `Max redispatches for ${PAIR}` }).fill("3");
  await savePolicy(page, "dry_run", reason);
  expect(await policyOf()).toEqual({ mode: "dry_run", redispatch: false, max_redispatches: 3 });
  await expect(row).toContainText(people.admin.name);
  await expect(page.getByRole("textbox", { name: `Reason for ${PAIR}` })).toHaveValue("");

  await page.reload();
  await expect(page.getByRole("combobox", { name: `Mode for ${PAIR}` })).toHaveValue("dry_run");
  await expect(
    page.getByRole("checkbox", {
      name: `May send absent intents again with their original key, for ${PAIR}`,
    }),
  ).not.toBeChecked();
  await expect(page.getByRole("spinbutton", { name: `Max redispatches for ${PAIR}` })).toHaveValue("3");

  const auditor = await as("auditor");
  await auditor.goto(`/audit?action=settings.reconcile_policy_changed&tenant=${TENANT}`);
  const event = auditor
    .getByRole("table", { name: "Audit events" })
    .getByRole("row")
    .filter({ hasText: reason });
  await expect(event).toHaveCount(1);
  await expect(event).toContainText("settings.reconcile_policy_changed");
  await expect(event).toContainText(`reconcile_policy ${TENANT}/${PROVIDER}`);
  await expect(event).toContainText(people.admin.email);

  // Back to off (the kill switch), so no other spec meets a reconciler at work.
  await savePolicy(page, "off", `Done trying it ${randomUUID().slice(0, 8)}`);
  expect((await policyOf())?.mode).toBe("off");
});

test("the policy form refuses a change without a reason and too many redispatches", async ({ clientAs }) => {
  const admin = await clientAs("admin");
  const before = await policyOf();
  const answer = await callAction(admin, "saveReconcilePolicyAction", [
    {},
    { tenantId: TENANT, providerId: PROVIDER, mode: "on", redispatch: "true", maxRedispatches: "11" },
  ]);
  expect(answer.result?.validationErrors?.fieldErrors).toMatchObject({
    maxRedispatches: [expect.stringContaining("at most 10")],
    reason: [expect.any(String)],
  });
  const unknown = await callAction(admin, "saveReconcilePolicyAction", [
    {},
    {
      tenantId: TENANT,
      providerId: "no-such-provider",
      mode: "on",
      maxRedispatches: "1",
      reason: "no such one",
    },
  ]);
  expect(unknown.result?.serverError?.code).toBe("not_found");
  expect(await policyOf()).toEqual(before);
});

test("an operator is refused the reconciler screen and its action", async ({ as }) => {
  const page = await as("operator");
  await page.goto("/");
  await expect(
    page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Reconciler" }),
  ).toHaveCount(0);
  await page.goto("/settings/reconciler");
  await expect(page).toHaveURL(/\/forbidden/);
  await expect(page.getByRole("heading", { name: "Not allowed" })).toBeVisible();
  const answer = await callAction(page.request, "saveReconcilePolicyAction", [
    {},
    { tenantId: TENANT, providerId: PROVIDER, mode: "on", maxRedispatches: "1", reason: "operators cannot" },
  ]);
  expect(answer.result?.serverError?.code).toBe("forbidden");
  expect((await policyOf())?.mode ?? "off").toBe("off");
});

test("an admin sets the auto-resolve limit, is refused one above the threshold, and clears it", async ({
  as,
}) => {
  expect(await autoLimitOf()).toBeNull();
  const page = await as("admin");
  await page.goto("/settings/thresholds");
  const field = page.getByRole("textbox", { name: `Reconciler may confirm below, ${THRESHOLD_ROW}` });
  const reason = page.getByRole("textbox", { name: `Reason for ${THRESHOLD_ROW}` });
  const save = page.getByRole("button", { name: `Save ${THRESHOLD_ROW}`, exact: true });
  const row = rowOf(page, `Save ${THRESHOLD_ROW}`);
  await expect(field).toHaveValue("");
  await expect(row).toContainText("never");

  // In major units: €50.00 is 5000 cents.
  await field.fill("50.00");
  await reason.fill("Let the reconciler confirm small refunds");
  await save.click();
  await expect(row.getByRole("status")).toHaveText("Saved");
  expect(await autoLimitOf()).toBe("5000");
  await expect(row).toContainText("below €50.00");
  await expect(reason).toHaveValue("");

  // The one-approver threshold for EUR is €1,000.00: above it, people decide.
  await field.fill("1,000.01");
  await reason.fill("Too high on purpose");
  await save.click();
  await expect(row.getByText(/at most the one-approver threshold \(€1,000\.00\)/)).toBeVisible();
  await expect(field).toHaveAttribute("aria-invalid", "true");
  expect(await autoLimitOf()).toBe("5000");

  await field.fill("");
  await save.click();
  await expect(row.getByRole("status")).toHaveText("Saved");
  await expect.poll(autoLimitOf).toBeNull();
  await expect(row).toContainText("never");
});
