// First: the audit chain key, before anything reads the environment.
import "./audit-chain-key";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { makeTriageIntents, objectId, triageRun } from "./inbox-triage-ledger";
import { intentByKey, query } from "./ledger";

// The inbox as a triage tool, on intents of this spec's own (e2e/inbox-triage-ledger.ts).
test.describe.configure({ mode: "serial" });

let keys: Record<string, string> = {};
const prefix = (group: string) => `inv_${triageRun}_${group}`;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  keys = await makeTriageIntents([
    // Deadlines (24 h after the last attempt) in about 1, 2, 3, 4, 5 and 22 h.
    { name: "k1", scenario: "charged_answer_lost", hoursAgo: 23 },
    { name: "k2", scenario: "charged_answer_lost", hoursAgo: 22 },
    { name: "k3", scenario: "charged_answer_lost", hoursAgo: 21 },
    { name: "k4", scenario: "charged_answer_lost", hoursAgo: 20 },
    { name: "k5", scenario: "charged_answer_lost", hoursAgo: 19 },
    { name: "k6", scenario: "charged_answer_lost", hoursAgo: 2 },
    // No key deadline (the mailer has no idempotency keys), and one already past.
    { name: "kmail", scenario: "never_sent_worker_lost", hoursAgo: 0, email: true },
    { name: "kpast", scenario: "charged_answer_lost", hoursAgo: 30 },
    { name: "cusd", scenario: "never_sent_worker_lost", hoursAgo: 0, amountMinor: 750, currency: "USD" },
    { name: "cjpy", scenario: "never_sent_worker_lost", hoursAgo: 0, amountMinor: 750, currency: "JPY" },
    { name: "b1", scenario: "never_sent_worker_lost", hoursAgo: 1 },
    { name: "b2", scenario: "never_sent_worker_lost", hoursAgo: 1 },
    { name: "b3", scenario: "charged_answer_lost", hoursAgo: 1 },
    { name: "fdone", scenario: "clean", hoursAgo: 0 },
  ]);
});

const table = (page: Page) => page.getByRole("table", { name: "Unknown intents" });
const rowOf = (page: Page, name: string) =>
  table(page)
    .getByRole("row")
    .filter({ has: page.getByRole("link", { name: keys[name], exact: true }) });

test("the default order is what expires soonest first, then no deadline, then past, with the total", async ({
  as,
}) => {
  const page = await as("operator");
  await page.goto(`/inbox?q=${prefix("k")}`);
  const order = ["k1", "k2", "k3", "k4", "k5", "k6", "kmail", "kpast"];
  await expect(table(page).getByRole("link")).toHaveText(order.map((n) => keys[n]!));
  await expect(page.getByTestId("inbox-total")).toHaveText("8 unknown match these filters");
  await expect(rowOf(page, "k1")).toContainText(/in \d+ min/);
  await expect(rowOf(page, "k1")).toContainText("key expires in < 2 h");
  await expect(rowOf(page, "k3")).not.toContainText("key expires");
  await expect(rowOf(page, "kmail")).toContainText("no key deadline");
  await expect(rowOf(page, "kpast")).toContainText(/passed (5|6) h ago/);
  // The UTC time beside the relative one.
  await expect(rowOf(page, "k1").locator("time")).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
  // The whole inbox says how many match too.
  await page.goto("/inbox");
  await expect(page.getByTestId("inbox-total")).toHaveText(/^[\d,]+ unknown match these filters$/);
});

test("amounts filter within one currency: ¥750 is not $5 or more", async ({ as }) => {
  const page = await as("operator");
  await page.goto(`/inbox?q=${prefix("c")}`);
  await expect(table(page).getByRole("link")).toHaveCount(2);
  const filters = page.getByRole("form", { name: "Inbox filters" });
  await filters.getByLabel("Currency").selectOption("USD");
  await filters.getByLabel("Amount from").fill("5");
  await filters.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/currency=USD/);
  await expect(table(page).getByRole("link")).toHaveText([keys.cusd!]);
  await page.goto(`/inbox?q=${prefix("c")}&currency=JPY&min=500&max=1,000`);
  await expect(table(page).getByRole("link")).toHaveText([keys.cjpy!]);
  // An amount without a currency is no filter, and says so.
  await page.goto(`/inbox?q=${prefix("c")}&min=5`);
  await expect(page.getByRole("alert").filter({ hasText: "ignored" })).toContainText("needs a currency");
  await expect(table(page).getByRole("link")).toHaveCount(2);
});

test("search finds intents by a prefix of their key's object, workflow or customer reference", async ({
  as,
}) => {
  const page = await as("operator");
  await page.goto("/inbox");
  await expect(table(page)).toBeVisible();
  const search = page.getByRole("form", { name: "Inbox filters" }).getByRole("searchbox");
  await expect(async () => {
    await page.keyboard.press("/");
    await expect(search).toBeFocused({ timeout: 500 });
  }).toPass();
  await page.keyboard.type(prefix("k"));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`q=${prefix("k")}`));
  await expect(table(page).getByRole("link")).toHaveCount(8);
  for (const q of [
    `wf_collect_${objectId("k2")}`,
    `invoice/${objectId("k2")}`,
    `invoice:${objectId("k2")}`,
  ]) {
    await page.goto(`/inbox?q=${encodeURIComponent(q)}`);
    await expect(table(page).getByRole("link")).toHaveText([keys.k2!]);
  }
});

test("the finder reaches a confirmed intent", async ({ as }) => {
  const page = await as("operator");
  await page.goto("/inbox");
  const finder = page.getByRole("search", { name: "Find any intent" });
  await finder.getByRole("searchbox", { name: /Find any intent/ }).fill(objectId("fdone"));
  await finder.getByRole("button", { name: "Find" }).click();
  const found = page.getByRole("list", { name: "Found intents" });
  await expect(found.getByRole("listitem")).toHaveCount(1);
  await expect(found).toContainText("Confirmed");
  await found.getByRole("link", { name: keys.fdone }).click();
  await expect(page.getByRole("heading", { name: keys.fdone })).toBeVisible();
  expect((await intentByKey(keys.fdone!)).status).toBe("confirmed");
});

test("bulk lookup shows each row's outcome; bulk mark-rejected answers for each absent row", async ({
  as,
}) => {
  const page = await as("operator");
  await page.goto(`/inbox?q=${prefix("b")}`);
  for (const n of ["b1", "b2", "b3"]) await page.getByRole("checkbox", { name: `Select ${keys[n]}` }).check();
  const bulk = page.getByRole("region", { name: "Bulk actions" });
  await bulk.getByRole("button", { name: "Look up 3 selected" }).click();
  await expect(bulk.getByText("3/3 looked up")).toBeVisible({ timeout: 20_000 });
  const selected = bulk.getByRole("table", { name: "Selected intents" });
  const line = (n: string) => selected.getByRole("row").filter({ hasText: keys[n]! });
  await expect(line("b1").getByTestId("bulk-lookup")).toHaveText("absent");
  await expect(line("b2").getByTestId("bulk-lookup")).toHaveText("absent");
  await expect(line("b3").getByTestId("bulk-lookup")).toHaveText("found matching");

  await bulk
    .getByLabel(/Reason for marking all 2 absent rejected/)
    .fill("Both absent at the provider by key");
  await bulk.getByRole("button", { name: "Mark 2 absent rejected" }).click();
  await expect(bulk.getByRole("status")).toHaveText(/^2 marked rejected · 0 need approval/);
  await expect(line("b1").getByTestId("bulk-result")).toHaveText("marked rejected");
  await expect(line("b2").getByTestId("bulk-result")).toHaveText("marked rejected");
  await expect(line("b3").getByTestId("bulk-result")).toHaveText("—");
  for (const n of ["b1", "b2"]) {
    const intent = await intentByKey(keys[n]!);
    expect(intent.status).toBe("rejected");
    const events = await query<{ action: string }>(
      "SELECT action FROM audit_events WHERE target_id = $1 AND action = 'resolution.applied'",
      [intent.id],
    );
    expect(events).toHaveLength(1);
  }
  // Resolved rows leave the inbox but stay in the bulk panel until dismissed.
  await expect(table(page).getByRole("link")).toHaveText([keys.b3!]);
  await expect(selected.getByRole("row")).toHaveCount(4);
  await bulk.getByRole("button", { name: "Dismiss all settled" }).click();
  await expect(selected.getByRole("row")).toHaveCount(2);
  await bulk.getByRole("button", { name: `Dismiss ${keys.b3}` }).click();
  await expect(bulk).toHaveCount(0);
});

/** Presses Tab until the focused element matches (reading focus only: every move is a key). */
async function tabTo(page: Page, selector: string) {
  for (let i = 0; i < 150; i++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(`Tab never reached ${selector}`);
}

test("an operator resolves the five soonest-expiring unknowns with the keyboard alone", async ({ as }) => {
  test.setTimeout(150_000);
  const page = await as("operator");
  for (const [round, name] of ["k1", "k2", "k3", "k4", "k5"].entries()) {
    await page.goto(`/inbox?q=${prefix("k")}`);
    const rows = table(page).getByRole("row");
    // k on the first row focuses it (once the page runs); j moves down, k back up.
    await expect(async () => {
      await page.keyboard.press("k");
      await expect(rows.nth(1)).toBeFocused({ timeout: 500 });
    }).toPass();
    if (round === 0) {
      await page.keyboard.press("j");
      await page.keyboard.press("j");
      await expect(rows.nth(3)).toBeFocused();
      await page.keyboard.press("k");
      await page.keyboard.press("k");
      await expect(rows.nth(1)).toBeFocused();
    }
    await expect(rows.nth(1)).toContainText(keys[name]!);
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { name: keys[name] })).toBeVisible();

    await tabTo(page, "button[name=method][value=idempotency_key]:not(:disabled)");
    await page.keyboard.press("Enter");
    await expect(page.getByRole("status").filter({ hasText: "Result:" })).toContainText("found matching", {
      timeout: 15_000,
    });
    await tabTo(page, "form[aria-label=Resolve] input[name=kind][value=accept_receipt]");
    await page.keyboard.press("Space");
    await expect(page.getByRole("radio", { name: /^Accept receipt/ })).toBeChecked();
    await tabTo(page, "form[aria-label=Resolve] [name=reason]");
    await page.keyboard.type("Found by key at the provider; accepted from the keyboard");
    await tabTo(page, "form[aria-label=Resolve] button[type=submit]");
    await page.keyboard.press("Enter");
    await expect(page.getByRole("status").filter({ hasText: "Applied" })).toHaveText(/now confirmed/);
    expect((await intentByKey(keys[name]!)).status).toBe("confirmed");
  }
  await page.goto(`/inbox?q=${prefix("k")}`);
  await expect(table(page).getByRole("link")).toHaveText(["k6", "kmail", "kpast"].map((n) => keys[n]!));
});

/** A full-page screenshot, kept in the test's output folder and attached to its report. */
async function shoot(page: Page, name: string) {
  const file = test.info().outputPath(`${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await test.info().attach(name, { path: file, contentType: "image/png" });
}

test("screenshots: a dense table at desktop width, cards on a phone", async ({ as }) => {
  const page = await as("operator");
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/inbox");
  await expect(table(page).getByRole("columnheader", { name: "Act before" })).toBeVisible();
  await shoot(page, "inbox-desktop-1280x800");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/inbox?q=${prefix("k")}`);
  await expect(table(page).getByRole("link").first()).toBeVisible();
  await expect(page.locator("thead")).toBeHidden();
  await shoot(page, "inbox-phone-390x844");
});
