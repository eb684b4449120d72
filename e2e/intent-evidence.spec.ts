import { randomUUID } from "node:crypto";
import type { Locator, Page } from "@playwright/test";
import { openDatabase } from "@/lib/db/connect";
import { runEffect } from "@/lib/effects/run-effect";
import type { EffectJob } from "@/lib/effects/types";
import { sweepExpiredLeases } from "@/lib/ledger/dispatch";
import { providerIdempotencyKey } from "@/lib/ledger/keys";
import { databaseUrl } from "@/test/support/postgres";
import { workerDeps } from "@/tools/worker/deps";
import { expect, test } from "./fixtures";
import { intentByKey, intentPath } from "./ledger";
import { E2E_DATABASE, E2E_SANDBOX_PORT } from "./scenarios";

test.describe.configure({ mode: "serial" });

// Intents of this spec's own, made through the real protocol (no other spec relies on
// them): each unknown one was dispatched five minutes ago by a worker that died, and the
// sandbox provider is told what it "has" for it — the same charge, or one for another amount.
const SANDBOX = `http://127.0.0.1:${E2E_SANDBOX_PORT}`;
const run = randomUUID().slice(0, 8);
const charge = (name: string, amountMinor: number): EffectJob => ({
  kind: "charge",
  tenantId: "acme-shop",
  intentKey: `invoice:inv_ev_${name}_${run}:collect:v1`,
  workflowId: `wf_ev_${name}_${run}`,
  stepId: "charge-card",
  amountMinor,
  currency: "USD",
  customer: `cus_ev_${name}`,
  paymentMethod: "pm_card_visa",
  description: `Evidence ${name}`,
  customerRef: `invoice/inv_ev_${name}_${run}`,
});
const JOBS = {
  matching: charge("matching", 2_500),
  conflicting: charge("conflicting", 3_100),
  big: charge("big", 250_000),
  confirmed: charge("confirmed", 1_900),
};

async function unknownWithProviderCharge(
  db: Parameters<typeof workerDeps>[0]["db"],
  job: EffectJob,
  amount: number,
) {
  if (job.kind !== "charge") throw new Error("charges only");
  const at = Date.now() - 5 * 60_000;
  const started = Date.now();
  const deps = workerDeps({
    db,
    sandboxUrl: SANDBOX,
    workerId: "evidence-spec-worker",
    now: () => new Date(at + (Date.now() - started)),
    crash: (point) => {
      if (point === "after_dispatch") throw new Error("worker lost");
    },
  });
  await expect(runEffect(deps, job)).rejects.toThrow("worker lost");
  await sweepExpiredLeases(db, new Date(at + 60_000));
  const response = await fetch(`${SANDBOX}/_effects`, {
    method: "POST",
    body: JSON.stringify({
      kind: "charge",
      amount,
      currency: job.currency,
      customer: job.customer,
      metadata: {
        intent_key: job.intentKey,
        idempotency_key: providerIdempotencyKey(job.tenantId, job.intentKey),
      },
      createdAt: at + 1_000,
    }),
  });
  expect(response.ok).toBe(true);
}

test.beforeAll(async () => {
  const database = openDatabase({ kind: "postgres", url: databaseUrl(E2E_DATABASE) });
  try {
    await unknownWithProviderCharge(database.prisma, JOBS.matching, 2_500);
    await unknownWithProviderCharge(database.prisma, JOBS.conflicting, 3_600);
    await unknownWithProviderCharge(database.prisma, JOBS.big, 250_000);
    await runEffect(
      workerDeps({ db: database.prisma, sandboxUrl: SANDBOX, workerId: "evidence-spec-worker" }),
      JOBS.confirmed,
    );
  } finally {
    await database.close();
  }
  expect((await intentByKey(JOBS.matching.intentKey)).status).toBe("unknown");
  expect((await intentByKey(JOBS.confirmed.intentKey)).status).toBe("confirmed");
});

async function lookUp(page: Page, outcome: string) {
  // Other specs move the shared sandbox provider's clock for a moment (tools/simulator/
  // scenarios.ts); a lookup made in that moment may not see the effect yet. Ask again.
  for (let attempt = 1; ; attempt++) {
    await page.getByRole("button", { name: "Look up by idempotency key" }).click();
    try {
      await expect(page.getByTestId("lookup-outcome").first()).toHaveText(outcome, { timeout: 15_000 });
      return;
    } catch (error) {
      if (attempt >= 3) throw error;
      await page.waitForTimeout(2_000);
    }
  }
}

/** The verdict cell of one field in the latest lookup's comparison. */
function verdict(page: Page, field: string): Locator {
  const table = page
    .getByRole("list", { name: "Lookup history" })
    .getByRole("listitem")
    .first()
    .getByRole("table");
  return table
    .getByRole("row", { name: new RegExp(`^${field}\\b`) })
    .getByRole("cell")
    .last();
}

const radio = (page: Page, kind: string) =>
  page.getByRole("form", { name: "Resolve" }).getByRole("radio", { name: new RegExp(`^${kind}`) });
const submit = (page: Page) =>
  page.getByRole("form", { name: "Resolve" }).getByRole("button", { name: "Submit resolution" });

test("the latest lookup beside the request, nothing preselected, resolved by keyboard, then the next unknown", async ({
  as,
}) => {
  const { intentKey } = JOBS.matching;
  const page = await as("operator");
  await page.goto(intentPath(intentKey));
  await expect(page.getByText("No lookup yet. Ask the provider before resolving.")).toBeVisible();
  // Before any lookup: escalate, or accept on an external reference only; nothing is chosen.
  await expect(radio(page, "Accept receipt")).toHaveAccessibleName(
    /Only with an external evidence reference/,
  );
  await expect(radio(page, "Mark rejected")).toBeDisabled();
  await expect(radio(page, "Start compensation")).toBeDisabled();
  await expect(radio(page, "Escalate")).toBeEnabled();
  for (const kind of ["Accept receipt", "Mark rejected", "Start compensation", "Escalate"])
    await expect(radio(page, kind)).not.toBeChecked();

  await lookUp(page, "found matching");
  for (const field of ["Amount", "Currency", "Customer", "Intent key", "Status", "Time"])
    await expect(verdict(page, field)).toHaveText(/^(✓ )?match$/);
  const raw = page.getByText(/^Raw evidence/).first();
  await raw.click();
  await expect(page.locator("details[open] pre").first()).toContainText('"candidates"');
  await expect(page.locator("body")).not.toContainText("replayParams");
  await expect(page.locator("body")).not.toContainText("pm_card_visa");

  // The lookup allows accepting (or compensating): still nothing is chosen for the person.
  await expect(radio(page, "Accept receipt")).toBeEnabled();
  await expect(radio(page, "Mark rejected")).toBeDisabled();
  await expect(radio(page, "Accept receipt")).not.toBeChecked();
  await expect(submit(page)).toHaveAccessibleDescription(/Choose a resolution/);
  await radio(page, "Start compensation").check();
  await expect(submit(page)).toHaveAccessibleDescription(/Needs 1 approver .*every payment compensation/);
  await radio(page, "Accept receipt").check();
  await expect(submit(page)).toHaveAccessibleDescription(/^No approval needed/);

  // The whole flow by keyboard: r jumps to the form, Space chooses, Tab moves, Enter submits.
  await page.reload();
  await expect(page.getByText(/Press\s*r\s*to jump here/)).toBeVisible();
  await expect(async () => {
    await page.keyboard.press("r");
    await expect(radio(page, "Accept receipt")).toBeFocused({ timeout: 500 });
  }).toPass();
  await page.keyboard.press("Space");
  await expect(radio(page, "Accept receipt")).toBeChecked();
  await page.keyboard.press("Tab");
  await expect(
    page.getByRole("form", { name: "Resolve" }).getByRole("combobox", { name: "Evidence" }),
  ).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(
    page.getByRole("form", { name: "Resolve" }).getByRole("textbox", { name: "Reason" }),
  ).toBeFocused();
  await page.keyboard.type("The provider has this charge under our key");
  await page.keyboard.press("Tab");
  await expect(submit(page)).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status").filter({ hasText: "Applied" })).toHaveText(
    /the intent is now confirmed/,
  );
  expect((await intentByKey(intentKey)).status).toBe("confirmed");

  const next = page.getByRole("link", { name: "Next unknown" });
  await expect(next).toBeVisible();
  const href = await next.getAttribute("href");
  expect(href).toMatch(/^\/intents\//);
  expect(href).not.toBe(intentPath(intentKey));
  await next.click();
  await expect(page).toHaveURL(new RegExp(`${href!.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`));
  await expect(page.getByRole("heading", { level: 1 })).not.toHaveText(intentKey);
});

test("a conflicting charge shows the mismatch and offers no receipt on the lookup", async ({ as }) => {
  const page = await as("operator");
  await page.goto(intentPath(JOBS.conflicting.intentKey));
  await lookUp(page, "found conflicting");
  await expect(verdict(page, "Amount")).toHaveText("✗ mismatch");
  await expect(verdict(page, "Currency")).toHaveText("✓ match");
  await expect(verdict(page, "Customer")).toHaveText("✓ match");
  await expect(verdict(page, "Intent key")).toHaveText("✓ match");
  await expect(radio(page, "Mark rejected")).toBeDisabled();
  await expect(radio(page, "Start compensation")).toBeDisabled();
  await expect(radio(page, "Accept receipt")).toHaveAccessibleName(
    /Only with an external evidence reference/,
  );
  await expect(radio(page, "Escalate")).toBeEnabled();
  for (const kind of ["Accept receipt", "Escalate"]) await expect(radio(page, kind)).not.toBeChecked();
  // Accepting on an external reference cites it, and always needs an approver.
  await radio(page, "Accept receipt").check();
  await expect(
    page.getByRole("form", { name: "Resolve" }).getByRole("combobox", { name: "Evidence" }),
  ).toHaveValue("external");
  await expect(submit(page)).toHaveAccessibleDescription(/Needs 1 approver .*external evidence reference/);

  for (const [name, width, height] of [
    ["desktop", 1280, 800],
    ["phone", 390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await test.info().attach(`intent-evidence-${name}`, {
      body: await page.screenshot({ fullPage: true }),
      contentType: "image/png",
    });
    // The page itself must not scroll sideways (a wide table scrolls in its own region).
    const { overflow, wide } = await page.evaluate(() => ({
      overflow: document.documentElement.scrollWidth - window.innerWidth,
      wide: [...document.querySelectorAll("body *")]
        .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
        .slice(0, 5)
        .map((e) => `${e.tagName.toLowerCase()}.${e.className}`.slice(0, 80)),
    }));
    expect(overflow, `overflow at ${width} px; past the edge: ${wide.join(" | ")}`).toBeLessThanOrEqual(0);
  }
});

test("the approval note follows the kind and the amount", async ({ as }) => {
  const page = await as("operator");
  await page.goto(intentPath(JOBS.big.intentKey));
  await lookUp(page, "found matching");
  await radio(page, "Accept receipt").check();
  await expect(submit(page)).toHaveAccessibleDescription(
    /^Needs 1 approver before it applies \(\$2,500\.00 is at or above the one-approver threshold of \$1,000\.00\)/,
  );
  await radio(page, "Escalate").check();
  await expect(submit(page)).toHaveAccessibleDescription(/^No approval needed/);
  expect((await intentByKey(JOBS.big.intentKey)).status).toBe("unknown");
});

test("a confirmed intent says there is nothing to resolve, with its receipt", async ({ as }) => {
  const intent = await intentByKey(JOBS.confirmed.intentKey);
  const page = await as("operator");
  await page.goto(intentPath(JOBS.confirmed.intentKey));
  await expect(page.getByTestId("settled-note")).toHaveText(
    new RegExp(
      `^Nothing to resolve: confirmed on \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC with receipt ${intent.provider_result_id}\\.$`,
    ),
  );
  await expect(page.getByText("No lookup yet")).toHaveCount(0);
  // A confirmed charge can still be compensated, and nothing else.
  await expect(radio(page, "Start compensation")).toBeEnabled();
  for (const kind of ["Accept receipt", "Mark rejected", "Escalate"])
    await expect(radio(page, kind)).toBeDisabled();
});
