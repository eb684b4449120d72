import { randomUUID } from "node:crypto";
import { callAction } from "./actions";
import { expect, test } from "./fixtures";
import * as kit from "./admin-helpers";
import { query } from "./ledger";
import { signIn } from "./support";

// What admins do on the users, providers and thresholds screens, through the forms. The
// e2e ledger is shared with the other specs, so these tests change only what nothing else
// depends on — users they create, the mailer's response window, globex-travel's JPY
// threshold — and put the settings back as they found them.

test.describe.configure({ mode: "serial" });

const run = randomUUID().slice(0, 8);
const person = { email: `new.person-${run}@e2e.test`, name: `Nadia New ${run}`, password: "", id: "" };

let original: Awaited<ReturnType<typeof kit.currentSettings>> | undefined;
test.beforeAll(async () => {
  original = await kit.currentSettings();
});
// Only if a test failed half-way: what the tests below undo through the screens.
test.afterAll(async () => original && (await kit.restoreSettings(original)));

test("an admin creates a user with a one-time password, and the user signs in with it", async ({
  as,
  browser,
}) => {
  const page = await as("admin");
  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Users" }).click();
  const form = page.getByRole("form", { name: "Add a user" });
  await form.getByLabel("Email").fill(`  New.Person-${run}@E2E.test `);
  await form.getByLabel("Name").fill(person.name);
  await form.getByRole("checkbox", { name: /^Auditor/ }).check();
  await expect(form.getByRole("radio", { name: /one-time initial password/ })).toBeChecked();
  await form.getByRole("button", { name: "Create user" }).click();
  const created = form.getByRole("status");
  await expect(created).toContainText(`Created ${person.name} (${person.email})`);
  person.password = await created.getByRole("textbox", { name: "One-time initial password" }).inputValue();
  expect(person.password).toMatch(/^[\w-]{24}$/);
  await expect(form.getByLabel("Email")).toHaveValue("");
  await created.getByRole("link", { name: person.name }).click();
  await expect(page.getByRole("heading", { name: person.name, level: 1 })).toBeVisible();
  person.id = page.url().split("/").at(-1)!;
  const [event] = await kit.auditActions(person.id);
  expect(event).toMatchObject({ action: "user.created", details: { after: { roles: ["auditor"] } } });
  expect(JSON.stringify(event)).not.toContain(person.password);
  expect(JSON.stringify(event)).not.toMatch(/scrypt/);

  const user = await (await browser.newContext()).newPage();
  await signIn(user, person.email, person.password);
  await expect(user.getByRole("heading", { name: "Ledger overview" })).toBeVisible();
  await user.context().close();
});

test("a single-sign-on user gets no password", async ({ as }) => {
  const page = await as("admin");
  await page.goto("/admin/users");
  const form = page.getByRole("form", { name: "Add a user" });
  const email = `sso-${run}@e2e.test`;
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Name").fill(`Sam Sso ${run}`);
  await form.getByRole("checkbox", { name: /^Operator/ }).check();
  await form.getByRole("radio", { name: /Single sign-on only/ }).check();
  await form.getByRole("button", { name: "Create user" }).click();
  await expect(form.getByRole("status")).toContainText("They sign in by single sign-on only.");
  await expect(form.getByRole("textbox", { name: "One-time initial password" })).toHaveCount(0);
  const [row] = await query<{ hash: string | null }>(
    "SELECT password_hash AS hash FROM users WHERE email = $1",
    [email],
  );
  expect(row).toEqual({ hash: null });
});

test("roles: admin with operator is refused in the form (also without JavaScript); others are saved", async ({
  as,
}) => {
  const plain = await as("admin", { javaScriptEnabled: false });
  await kit.userPage(plain, person.id);
  const form = plain.getByRole("form", { name: `Roles of ${person.name}` });
  await form.getByRole("checkbox", { name: /^Admin/ }).check();
  await form.getByRole("checkbox", { name: /^Operator/ }).check();
  await form.getByLabel("Reason for the change (audited)").fill("Needs everything");
  await form.getByRole("button", { name: "Save roles" }).click();
  await expect(
    plain.getByText(
      "Admin cannot be combined with Operator: an admin may not resolve intents (separation of duties).",
    ),
  ).toBeVisible();
  expect((await kit.userRow(person.id)).roles).toBe("{auditor}");

  const page = await as("admin");
  await kit.userPage(page, person.id);
  const roles = page.getByRole("form", { name: `Roles of ${person.name}` });
  await roles.getByRole("checkbox", { name: /^Auditor/ }).uncheck();
  await roles.getByRole("checkbox", { name: /^Approver/ }).check();
  await roles.getByRole("checkbox", { name: /^Admin/ }).check();
  // Said at once, before the server refuses it too.
  await expect(roles.getByText(/Admin cannot be combined with Approver/)).toBeVisible();
  await roles.getByRole("checkbox", { name: /^Admin/ }).uncheck();
  await roles.getByRole("checkbox", { name: /^Operator/ }).check();
  await roles.getByLabel("Reason for the change (audited)").fill("Joins the on-call and finance rota");
  await roles.getByRole("button", { name: "Save roles" }).click();
  await expect(roles.getByRole("status")).toHaveText("Roles saved");
  expect((await kit.userRow(person.id)).roles).toBe("{operator,approver}");
  const changed = (await kit.auditActions(person.id)).find((e) => e.action === "user.roles_changed");
  expect(changed).toMatchObject({
    reason: "Joins the on-call and finance rota",
    details: { before: { roles: ["auditor"] }, after: { roles: ["operator", "approver"] } },
  });
});

test("disabling ends the user's session at once; enabling lets them back; unlocking lifts a lock", async ({
  as,
  browser,
}) => {
  const user = await (await browser.newContext()).newPage();
  await signIn(user, person.email, person.password);
  await expect(user.getByRole("heading", { name: "Ledger overview" })).toBeVisible();
  const page = await as("admin");
  await kit.userPage(page, person.id);
  const access = page.getByRole("form", { name: `Access of ${person.name}` });
  await access.getByLabel("Reason to disable (audited)").fill("Laptop stolen");
  await access.getByRole("button", { name: "Disable", exact: true }).click();
  // Both of the user's sessions: this one and the first test's.
  await expect(access.getByRole("status")).toHaveText("Disabled; 2 live session(s) ended");
  expect((await kit.userRow(person.id)).disabled).toBe(true);
  await user.goto("/inbox");
  await expect(user).toHaveURL(/\/login/);

  await access.getByLabel("Reason to enable (audited)").fill("New laptop issued");
  await access.getByRole("button", { name: "Enable", exact: true }).click();
  await expect(access.getByRole("status")).toHaveText("Enabled");
  await signIn(user, person.email, person.password);
  await expect(user.getByRole("heading", { name: "Ledger overview" })).toBeVisible();
  await user.context().close();

  await query(
    "UPDATE users SET failed_sign_ins = 6, locked_until = now() + interval '30 minutes' WHERE id = $1",
    [person.id],
  );
  await page.reload();
  const unlock = page.getByRole("form", { name: `Unlock ${person.name}` });
  await expect(unlock).toContainText("6 failed sign-in(s) in a row; locked until");
  await unlock.getByRole("button", { name: "Unlock" }).click();
  await expect(unlock.getByRole("status")).toHaveText("Unlocked; 6 failed sign-in(s) cleared");
  expect(await kit.userRow(person.id)).toMatchObject({ failed_sign_ins: 0, locked_until: null });
  await expect(unlock).toContainText("nothing to unlock");
  expect((await kit.auditActions(person.id)).map((e) => e.action)).toEqual([
    "user.created",
    "user.roles_changed",
    "user.disabled",
    "user.enabled",
    "user.unlocked",
  ]);
});

test("an admin cannot lock themselves out; a system account only switches off and on", async ({
  as,
  people,
}) => {
  const page = await as("admin");
  await kit.userPage(page, people.admin.id);
  await expect(page.getByText("This is your own account: another admin must disable it")).toBeVisible();
  await expect(page.getByRole("button", { name: "Disable", exact: true })).toHaveCount(0);
  const [machine] = await query<{ id: string }>(
    `INSERT INTO users (id, email, name, roles, system, updated_at) VALUES ($1, $2, 'Reconciler', '{operator}', true, now()) RETURNING id`,
    [randomUUID(), `machine-${run}@reckon.invalid`],
  );
  await page.goto("/admin/users");
  await expect(
    page
      .getByRole("table", { name: "Users and their roles" })
      .getByRole("link", { name: "Reconciler (automatic)" }),
  ).not.toHaveCount(0);
  await kit.userPage(page, machine!.id);
  await expect(page.getByRole("heading", { name: "Reconciler (automatic)", level: 1 })).toBeVisible();
  await expect(page.getByRole("form", { name: /^Roles of/ })).toHaveCount(0);
  await expect(page.getByRole("form", { name: /^Unlock/ })).toHaveCount(0);
  await expect(page.getByRole("form", { name: "Access of Reconciler" })).toContainText("off switch");
  const answer = await callAction(page.request, "setUserRolesAction", [
    {},
    { userId: machine!.id, roles: ["auditor"], expectedRoles: ["operator"], reason: "by hand" },
  ]);
  expect(answer.result?.serverError?.message).toMatch(/system account/);
  await query("DELETE FROM users WHERE id = $1", [machine!.id]);
});

test("an admin edits a provider's response window with a reason, and puts it back", async ({ as }) => {
  const before = await kit.responseWindow();
  const page = await as("admin");
  await page.goto("/providers");
  const form = page.getByRole("form", { name: "Settings of Mailer sandbox" });
  const field = form.getByLabel("Normal response window (seconds)");
  await expect(field).toHaveValue(String(before));
  const save = async (value: string, reason: string) => {
    await field.fill(value);
    await form.getByLabel("Reason for the change (audited)").fill(reason);
    await form.getByRole("button", { name: "Save Mailer sandbox" }).click();
    await expect(form.getByRole("status")).toHaveText("Saved");
  };
  await save("75", "The mailer's SLA is now 75 seconds");
  await expect(form).toContainText("1 min 15 s");
  expect(await kit.responseWindow()).toBe(75);
  const events = await kit.auditActions(kit.PROVIDER);
  expect(events.at(-1)).toMatchObject({
    action: "settings.provider_profile_changed",
    reason: "The mailer's SLA is now 75 seconds",
    details: {
      changed: ["responseWindowSeconds"],
      before: { responseWindowSeconds: before },
      after: { responseWindowSeconds: 75 },
    },
  });
  const refused = await callAction(page.request, "saveProviderProfileAction", [
    {},
    {
      providerId: kit.PROVIDER,
      baseUrl: "ftp://mail.example",
      responseWindowSeconds: "0",
      reason: "out of bounds",
    },
  ]);
  expect(refused.result?.validationErrors?.fieldErrors).toMatchObject({
    baseUrl: ["Base URL: http or https only."],
    responseWindowSeconds: ["Normal response window: a whole number from 1 to 86,400."],
  });
  expect(await kit.responseWindow()).toBe(75);
  await save(String(before), "Back as it was");
  // The first save's "Saved" may still show: wait for the database instead.
  await expect.poll(kit.responseWindow).toBe(before);
});

test("an admin edits a threshold in major units (JPY has no minor unit), and puts it back", async ({
  as,
}) => {
  const before = await kit.jpyThreshold();
  const page = await as("admin");
  await page.goto("/settings/thresholds");
  const field = page.getByRole("textbox", { name: `One approver from, ${kit.THRESHOLD_ROW}` });
  const reason = page.getByRole("textbox", { name: `Reason for ${kit.THRESHOLD_ROW}` });
  const save = page.getByRole("button", { name: `Save ${kit.THRESHOLD_ROW}`, exact: true });
  const row = page.getByRole("row").filter({ has: save });
  await expect(field).toHaveValue(before);
  await expect(page.getByRole("textbox", { name: `One approver from, ${kit.TENANT} USD` })).toHaveValue(
    /^\d+\.\d\d$/,
  );
  await field.fill("160,000");
  await expect(row).toContainText("¥160,000");
  await reason.fill("Raise for the spring sale");
  await save.click();
  await expect(row.getByRole("status")).toHaveText("Saved");
  expect(await kit.jpyThreshold()).toBe("160000");
  const [event] = (await kit.auditActions(`${kit.TENANT}/JPY`)).slice(-1);
  expect(event).toMatchObject({
    reason: "Raise for the spring sale",
    details: { after: { thresholdMinor: "160000" } },
  });

  await field.fill("150000.50");
  await reason.fill("Sen do not exist");
  await save.click();
  await expect(row.getByText(/whole JPY \(it has no minor unit\)/)).toBeVisible();
  expect(await kit.jpyThreshold()).toBe("160000");
  await field.fill(before);
  await reason.fill("Back as it was");
  await save.click();
  await expect(row.getByRole("status")).toHaveText("Saved");
  expect(await kit.jpyThreshold()).toBe(before);
});

test("an operator is refused the admin screens and actions, and reads providers only", async ({ as }) => {
  const page = await as("operator");
  for (const path of ["/admin/users", `/admin/users/${person.id}`, "/settings/thresholds"]) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/forbidden/);
  }
  await page.goto("/providers");
  await expect(page.getByRole("heading", { name: /Mailer sandbox/ })).toBeVisible();
  await expect(page.getByRole("form", { name: /^Settings of/ })).toHaveCount(0);
  for (const [name, input] of kit.adminActionsFor(person.id, `op-${run}@e2e.test`)) {
    const answer = await callAction(page.request, name, [{}, input]);
    expect(answer.result?.serverError?.code, name).toBe("forbidden");
  }
  expect(await query("SELECT 1 FROM users WHERE email = $1", [`op-${run}@e2e.test`])).toHaveLength(0);
});

test("the admin screens at desktop and phone width, with no serious accessibility finding", async ({
  as,
}) => {
  const page = await as("admin");
  const findings = await kit.captureScreens(page, [
    ["users", "/admin/users"],
    ["user", `/admin/users/${person.id}`],
    ["providers", "/providers"],
    ["thresholds", "/settings/thresholds"],
  ]);
  expect(findings).toEqual([]);
});
