import { randomUUID } from "node:crypto";
import { request, type Browser, type Page } from "@playwright/test";
import { hashPassword } from "@/lib/auth/password";
import { callAction } from "./actions";
import { seriousFindings } from "./axe";
import { BASE_URL } from "./identities";
import { intentByKey, intentPath, query } from "./ledger";
import { PASSWORD } from "./support";
import { expect, test } from "./fixtures";

// The approval queue as an approver lives with it: the count in the navigation, live
// refresh and the announcement of a new request, the evidence side by side, the tabs,
// and what a voided request says. It compensates a confirmed globex-travel USD charge
// of the simulated ledger, which no other spec touches (they use acme-shop's scenarios,
// initech-saas's unknowns and globex-travel's mailer and JPY).

test.describe.configure({ mode: "serial" });

type Picked = { id: string; intent_key: string; amount_minor: string };
let charge: Picked;
let dual: { id: string; name: string; storageState: string };

test.beforeAll(async ({}, info) => {
  const [picked] = await query<Picked>(
    `SELECT i.id, i.intent_key, i.amount_minor::text FROM effect_intents i
      WHERE i.tenant_id = 'globex-travel' AND i.provider_id = 'payments-sandbox' AND i.status = 'confirmed'
        AND i.currency = 'USD' AND i.operation = 'charge' AND i.compensates_id IS NULL
        AND i.provider_result_id IS NOT NULL
        -- One approval applies it (below the two-approver threshold).
        AND i.amount_minor < (SELECT dual_threshold_minor FROM approval_thresholds t
                               WHERE t.tenant_id = i.tenant_id AND t.currency = i.currency)
        AND NOT EXISTS (SELECT 1 FROM resolutions r WHERE r.intent_id = i.id)
        AND NOT EXISTS (SELECT 1 FROM effect_intents c WHERE c.compensates_id = i.id)
      ORDER BY i.created_at DESC, i.id LIMIT 1`,
  );
  expect(picked, "the e2e ledger has a confirmed globex-travel USD charge").toBeTruthy();
  charge = picked!;
  // Someone who both resolves and approves: they propose, so they must not decide.
  const run = randomUUID().slice(0, 8);
  dual = {
    id: randomUUID(),
    name: `Dora Dual ${run}`,
    storageState: info.outputPath(`.auth-dual-${run}.json`),
  };
  await query(
    `INSERT INTO users (id, email, name, roles, password_hash, updated_at)
     VALUES ($1, $2, $3, '{operator,approver}'::role[], $4, now())`,
    [dual.id, `dual-${run}@e2e.test`, dual.name, await hashPassword(PASSWORD)],
  );
  const client = await request.newContext({ baseURL: BASE_URL });
  const answer = await callAction(
    client,
    "signInAction",
    [{}, { email: `dual-${run}@e2e.test`, password: PASSWORD }],
    {
      page: "/login",
    },
  );
  expect(answer.result?.serverError).toBeUndefined();
  await client.storageState({ path: dual.storageState });
  await client.dispose();
});

async function asDual(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ storageState: dual.storageState });
  return context.newPage();
}

/** The number beside Approvals in the navigation (0 when there is no badge). */
async function navCount(page: Page): Promise<number> {
  const badge = page.getByRole("navigation", { name: "Main" }).getByTestId("approvals-count");
  return (await badge.count()) === 0 ? 0 : Number.parseInt(await badge.innerText(), 10);
}

/** What the count route says waits for this person (the badge's source). */
async function waitingFor(page: Page): Promise<{ count: number; labels: string[] }> {
  const body = (await (await page.request.get("/api/approvals/count")).json()) as {
    count: number;
    requests: { label: string }[];
  };
  return { count: body.count, labels: body.requests.map((r) => r.label) };
}

/** The badge shows the live count, and it includes this request (other specs add and decide theirs meanwhile). */
async function badgeCounts(page: Page, label: string): Promise<boolean> {
  const [shown, server] = [await navCount(page), await waitingFor(page)];
  return server.labels.includes(label) && shown === server.count;
}

function waitingItem(page: Page) {
  return page
    .getByRole("list", { name: "Pending resolutions" })
    .getByRole("listitem", { name: `start compensation ${charge.intent_key}` });
}

async function shoot(page: Page, name: string) {
  for (const [label, viewport] of [
    ["desktop", { width: 1280, height: 800 }],
    ["phone", { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(viewport);
    const file = test.info().outputPath(`${name.replace(/\W+/g, "-")}-${label}.png`);
    await page.screenshot({ path: file, fullPage: true });
    await test.info().attach(`${name} (${label})`, { path: file, contentType: "image/png" });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test("the count in the navigation goes up live when a request is proposed, and the queue announces it", async ({
  as,
  browser,
}) => {
  test.setTimeout(90_000);
  const approver = await as("approver");
  await approver.goto("/approvals");
  await expect(approver.getByRole("heading", { name: "Approvals", level: 1 })).toBeVisible();
  const overview = await as("approver2");
  await overview.goto("/");

  const proposer = await asDual(browser);
  await proposer.goto(intentPath(charge.intent_key, "globex-travel"));
  await proposer.getByRole("button", { name: "Look up by idempotency key" }).click();
  await expect(proposer.getByTestId("lookup-outcome").first()).toHaveText("found matching", {
    timeout: 15_000,
  });
  const form = proposer.getByRole("form", { name: "Resolve" });
  await form.getByRole("radio", { name: /^Start compensation/ }).check();
  await form.getByLabel("Reason").fill("Customer cancelled the trip");
  await form.getByRole("button", { name: "Submit resolution" }).click();
  await expect(proposer.getByRole("status").filter({ hasText: "Proposed" })).toBeVisible();

  // No reload: the poll brings the count, the announcement and the request itself.
  const label = `start compensation for ${charge.intent_key}`;
  await expect.poll(() => badgeCounts(approver, label), { timeout: 40_000 }).toBe(true);
  await expect(approver.getByRole("status").filter({ hasText: "A new request waits" })).toContainText(
    `start compensation for ${charge.intent_key}`,
  );
  await expect(waitingItem(approver)).toBeVisible();
  await expect.poll(() => badgeCounts(overview, label), { timeout: 40_000 }).toBe(true);
  // The proposer is an approver too, but it is not theirs to decide: no buttons, not counted.
  await proposer.goto("/approvals");
  const own = waitingItem(proposer);
  await expect(own).toContainText("You proposed this: another approver must decide.");
  await expect(own.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await expect(own.getByTestId("may-decide")).not.toContainText(dual.name);
  expect((await waitingFor(proposer)).labels).not.toContain(label);
});

test("the request shows what was asked beside what the provider said, field by field", async ({
  as,
  people,
}) => {
  const page = await as("approver");
  await page.goto("/approvals");
  const item = waitingItem(page);
  const table = item.getByRole("table", { name: `Evidence for ${charge.intent_key}` });
  await expect(table.getByRole("columnheader")).toHaveText([
    "Field",
    "What was asked",
    "What the provider said",
    "Match",
  ]);
  await expect(table.getByRole("row", { name: /^Provider (?!result)/ })).toContainText("found matching");
  for (const field of ["Amount", "Currency", "Customer", "Intent key"])
    await expect(table.getByRole("row", { name: new RegExp(`^${field} `) })).toContainText("match");
  await expect(table.locator("[data-mark=mismatch]")).toHaveCount(0);
  await expect(table.getByRole("row", { name: /^Amount / })).toContainText(
    `$${(Number(charge.amount_minor) / 100).toLocaleString("en", { minimumFractionDigits: 2 })}`,
  );
  await item.getByText("Raw evidence (redacted) from the provider").click();
  await expect(item.locator("pre")).toContainText('"candidates"');
  await expect(item.getByTestId("may-decide")).toContainText(people.approver.name);
  await expect(item.getByTestId("may-decide")).toContainText(people.approver2.name);
  await expect(item.getByRole("button", { name: "Approve" })).toBeVisible();
  expect(await seriousFindings(page, "/approvals with side-by-side evidence")).toEqual([]);
  await shoot(page, "approvals queue");
});

test("admins and operators have no queue; after deciding, the buttons are gone and the request is under Decided by me", async ({
  as,
}) => {
  for (const part of ["admin", "operator"] as const) {
    const page = await as(part);
    await page.goto("/");
    await expect(
      page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Approvals" }),
    ).toHaveCount(0);
    await page.goto("/approvals");
    await expect(page.getByRole("list", { name: "Pending resolutions" })).toHaveCount(0);
  }
  const approver = await as("approver");
  await approver.goto("/approvals");
  const item = waitingItem(approver);
  await item.getByLabel("Reason for your decision").fill("Refund matches the cancelled booking");
  await item.getByRole("button", { name: "Approve" }).click();
  await expect(waitingItem(approver)).toHaveCount(0);
  await expect
    .poll(
      async () =>
        (
          await query<{ status: string }>("SELECT status FROM resolutions WHERE intent_id = $1", [charge.id])
        )[0]?.status,
    )
    .toBe("applied");
  // The count no longer includes it, and the badge shows it without a reload.
  expect((await waitingFor(approver)).labels).not.toContain(`start compensation for ${charge.intent_key}`);
  await expect
    .poll(async () => (await navCount(approver)) - (await waitingFor(approver)).count, { timeout: 20_000 })
    .toBe(0);
  // Applied: the second approver no longer sees it waiting, nor any button for it.
  const second = await as("approver2");
  await second.goto("/approvals");
  await expect(waitingItem(second)).toHaveCount(0);

  await approver
    .getByRole("navigation", { name: "Approval views" })
    .getByRole("link", { name: "Decided by me" })
    .click();
  await expect(approver).toHaveURL(/\?tab=decided$/);
  await expect(
    approver.getByRole("navigation", { name: "Approval views" }).getByRole("link", { name: "Decided by me" }),
  ).toHaveAttribute("aria-current", "page");
  const mine = approver
    .getByRole("list", { name: "Decided by me" })
    .getByRole("listitem")
    .filter({ hasText: charge.intent_key });
  await expect(mine).toContainText("You approved start compensation");
  await expect(mine).toContainText("Request: applied");
  await expect(mine.getByRole("button")).toHaveCount(0);
});

test("a voided duplicate says the refund already happened, not that someone must propose again", async ({
  as,
  people,
}) => {
  // A second request for the same refund, as a race would leave it: made on the version
  // before the first one applied, then voided when the intent moved on.
  const intent = await intentByKey(charge.intent_key, "globex-travel");
  const [applied] = await query<{ decided_at: Date; intent_version: number; created_at: Date }>(
    "SELECT decided_at, intent_version, created_at FROM resolutions WHERE intent_id = $1 AND status = 'applied'",
    [intent.id],
  );
  expect(applied, "the compensation was applied").toBeTruthy();
  await query(
    `INSERT INTO resolutions (id, intent_id, tenant_id, kind, status, proposed_by_id, reason, proposal_digest,
                              intent_version, required_approvals, submission_key, expires_at, decided_at, created_at)
     VALUES ($1, $2, 'globex-travel', 'start_compensation', 'voided', $3, 'Refund the cancelled trip (second tab)',
             repeat('0', 64), $4, 1, $5, $6::timestamptz + interval '24 hours', $7::timestamptz + interval '1 second', $6)`,
    [
      randomUUID(),
      intent.id,
      people.operator.id,
      applied!.intent_version,
      `e2e-dup-${randomUUID()}`,
      applied!.created_at,
      applied!.decided_at,
    ],
  );

  const page = await as("approver");
  await page.goto("/approvals");
  // Plain links: they work without JavaScript, and a view can be shared.
  const views = page.getByRole("navigation", { name: "Approval views" });
  await expect(views.getByRole("link", { name: "Waiting" })).toHaveAttribute("aria-current", "page");
  await expect(views.getByRole("link", { name: "Voided and expired" })).toHaveAttribute(
    "href",
    "/approvals?tab=closed",
  );
  await views.getByRole("link", { name: "Voided and expired" }).click();
  await expect(page).toHaveURL(/\?tab=closed$/);
  await expect(
    page
      .getByRole("navigation", { name: "Approval views" })
      .getByRole("link", { name: "Voided and expired" }),
  ).toHaveAttribute("aria-current", "page");
  const item = page
    .getByRole("list", { name: "Voided and expired requests" })
    .getByRole("listitem")
    .filter({ hasText: "second tab" });
  const why = item.getByTestId("closed-why");
  await expect(why).toContainText(`voided: the intent changed (v${applied!.intent_version} → v`);
  await expect(why).toContainText(
    `it was already applied: start compensation proposed by ${dual.name}, approved by ${people.approver.name}`,
  );
  await expect(why).toContainText("Nothing is left to do.");
  await expect(why).not.toContainText("propose again");
  expect(await seriousFindings(page, "/approvals?tab=closed")).toEqual([]);
  await shoot(page, "voided and expired");
});
