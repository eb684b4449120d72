import { expect, test, type Page } from "@playwright/test";
import { query } from "./ledger";
import { CONSOLE_URLS, signIn, signInAs, USERS } from "./support";

const REFUSED = "Wrong email or password, or too many attempts. Wait a few minutes and try again.";

for (const user of USERS) {
  test(`${user.email} signs in and sees the navigation of their roles`, async ({ page }) => {
    await signInAs(page, user.email);

    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link")).toHaveText([...user.nav]);
    await expect(page.getByRole("list", { name: "Your roles" }).getByRole("listitem")).toHaveText([
      ...user.roles,
    ]);
    await expect(page.getByText(user.email)).toBeVisible();

    // Real figures from the seeded ledger, not placeholders.
    const table = page.getByRole("table", { name: "Intents per status per tenant" });
    await expect(table.getByRole("row")).toHaveCount(1 + 3);
    const confirmed = Number((await page.getByTestId("total-confirmed").innerText()).replace(/,/g, ""));
    const unknown = Number((await page.getByTestId("total-unknown").innerText()).replace(/,/g, ""));
    expect(confirmed).toBeGreaterThan(300);
    expect(unknown).toBeGreaterThan(0);
    await expect(page.getByRole("img", { name: /^Acme Shop: .*Confirmed \d+/ })).toBeVisible();

    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/login/);
    await page.goto("/");
    await expect(page).toHaveURL(/\/login\?callbackUrl=%2F$/);
  });
}

test("a wrong password is refused and nothing opens", async ({ page }) => {
  await signIn(page, "operator@demo.test", "not-the-password");
  await expect(page.getByRole("form", { name: "Sign in" }).getByRole("alert")).toHaveText(REFUSED);
  await expect(page).toHaveURL(/\/login/);
  await page.goto("/providers");
  await expect(page).toHaveURL(/\/login\?callbackUrl=%2Fproviders$/);
});

test("an unknown email gets the same answer as a wrong password", async ({ page }) => {
  await signIn(page, "nobody@demo.test", "reckon-demo");
  await expect(page.getByRole("form", { name: "Sign in" }).getByRole("alert")).toHaveText(REFUSED);
});

test("with JavaScript off, signing in posts the form: the password never appears in a URL", async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const urls: string[] = [];
  page.on("request", (r) => urls.push(r.url()));
  await page.goto("/login?callbackUrl=%2Fproviders");
  await page.getByLabel("Email").fill("auditor@demo.test");
  await page.getByLabel("Password").fill("reckon-demo");
  await page.getByLabel("Password").press("Enter");
  await expect(page.getByRole("heading", { name: "Providers", level: 1 })).toBeVisible();
  expect(urls.filter((u) => /password|reckon-demo/.test(u))).toEqual([]);
  await context.close();
});

test("signing out ends the session at once: a copy of the cookie stops working", async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInAs(page, "auditor@demo.test");
  const copy = await context.storageState();
  expect((await page.request.get("/api/overview")).status()).toBe(200);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login/);
  const stolen = await browser.newContext({ storageState: copy });
  expect((await stolen.request.get("/api/overview")).status()).toBe(401);
  const again = await stolen.newPage();
  await again.goto("/audit");
  await expect(again).toHaveURL(/\/login/);
  await stolen.close();
  await context.close();
});

test("an admin ends a user's sessions, and that user is signed out at once", async ({ browser }) => {
  const user = await (await browser.newContext()).newPage();
  await signInAs(user, "operator2@demo.test");
  const admin = await (await browser.newContext()).newPage();
  await signInAs(admin, "admin@demo.test");
  await admin.goto("/admin/users");
  const form = admin.getByRole("form", { name: "End sessions of Oscar Operator" });
  await form.getByLabel("Reason to end the sessions of Oscar Operator").fill("Laptop reported lost");
  await form.getByRole("button", { name: "End sessions" }).click();
  await expect(form.getByRole("status")).toHaveText(/Ended [1-9]/);
  await user.goto("/inbox");
  await expect(user).toHaveURL(/\/login/);
});

test("a sign-in link cannot send anyone to another site", async ({ page }) => {
  for (const target of [
    "%2F%09%2Fevil.example%2F",
    "%2F%5Cevil.example",
    "%2F%2Fevil.example",
    "https%3A%2F%2Fevil.example",
  ]) {
    await page.context().clearCookies();
    await page.goto(`/login?callbackUrl=${target}`);
    await page.getByLabel("Email").fill("auditor@demo.test");
    await page.getByLabel("Password").fill("reckon-demo");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.getByRole("heading", { name: "Ledger overview" })).toBeVisible();
    expect(new URL(page.url()).pathname, target).toBe("/");
    expect(page.url(), target).not.toContain("evil");
    // Already signed in, the sign-in page sends you on at once — to the same safe place.
    const answer = await page.request.get(`/login?callbackUrl=${target}`, { maxRedirects: 0 });
    expect(answer.status(), target).toBe(307);
    expect(answer.headers().location, target).toBe("/");
  }
});

for (const url of CONSOLE_URLS) {
  test(`an anonymous visit to ${url} goes to /login`, async ({ page }) => {
    await page.goto(url);
    await expect(page).toHaveURL(new RegExp(`/login\\?callbackUrl=${encodeURIComponent(url)}$`));
    await expect(page.getByRole("form", { name: "Sign in" })).toBeVisible();
  });
}

test("an anonymous API call is refused with 401", async ({ request }) => {
  const response = await request.get("/api/overview");
  expect(response.status()).toBe(401);
});

test("a deep link survives sign-in", async ({ page }) => {
  await page.goto("/providers");
  await expect(page).toHaveURL(/callbackUrl=%2Fproviders/);
  await page.getByLabel("Email").fill("auditor@demo.test");
  await page.getByLabel("Password").fill("reckon-demo");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Providers", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: /Payments sandbox/ })).toBeVisible();
});

test("a screen outside the user's roles is refused on the server", async ({ page }) => {
  await signInAs(page, "operator@demo.test");
  await page.goto("/admin/users");
  await expect(page.getByRole("heading", { name: "Not allowed" })).toBeVisible();
  await expect(page.getByRole("table")).toHaveCount(0);
});

test("an admin sees users and their roles", async ({ page }) => {
  await signInAs(page, "admin@demo.test");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Users" }).click();
  const table = page.getByRole("table", { name: "Users and their roles" });
  await expect(table.getByRole("row", { name: /approver2@demo\.test/ })).toContainText("Approver");
});

test("metrics: a page for people, and Prometheus text for a scraper with the token", async ({
  page,
  request,
}) => {
  expect((await request.get("/api/metrics")).status()).toBe(401);
  expect(
    (await request.get("/api/metrics", { headers: { authorization: "Bearer wrong-token-wrong" } })).status(),
  ).toBe(401);
  const scraped = await request.get("/api/metrics", {
    headers: { authorization: "Bearer e2e-metrics-token-123" },
  });
  expect(scraped.status()).toBe(200);
  const text = await scraped.text();
  expect(text).toMatch(/^reckon_intents\{tenant="acme-shop",status="confirmed"\} \d+$/m);
  expect(text).toContain("# TYPE reckon_unknown_over_response_window gauge");

  await signInAs(page, "operator@demo.test");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Metrics" }).click();
  await expect(page.getByRole("heading", { name: "Metrics", level: 1 })).toBeVisible();
  await expect(page.getByRole("img", { name: /^Unknown intents by age: / })).toBeVisible();
  expect(
    Number((await page.getByLabel("Confirmed", { exact: true }).innerText()).replace(/,/g, "")),
  ).toBeGreaterThan(300);
});

test("every response carries the security headers, and no page needs an inline script", async ({ page }) => {
  const violations: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
  });
  const login = await page.goto("/login");
  const headers = login!.headers();
  const csp = headers["content-security-policy"] ?? "";
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
  expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("same-origin");
  expect(headers["permissions-policy"]).toContain("camera=()");
  // Over plain http (this test server) there is no HSTS; over https there is (unit-tested).
  expect(headers["strict-transport-security"]).toBeUndefined();
  // A fresh nonce each time.
  const again = (await page.request.get("/login")).headers()["content-security-policy"];
  expect(again).not.toBe(csp);
  const api = await page.request.get("/api/health");
  expect(api.headers()["x-content-type-options"]).toBe("nosniff");

  await signInAs(page, "operator@demo.test");
  for (const path of ["/inbox", "/metrics", "/providers"]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  }
  expect(violations).toEqual([]);
});

test("no page of the console can be framed by another site", async ({ page }) => {
  await signInAs(page, "operator@demo.test");
  const inbox = new URL("/inbox", page.url()).href;
  // A page of another origin framing the signed-in inbox: the browser shows an error instead.
  await page.setContent(`<iframe id="f" src="${inbox}"></iframe>`);
  const frame = await (await page.locator("#f").elementHandle())!.contentFrame();
  await expect.poll(() => frame!.url(), { timeout: 10_000 }).toMatch(/^chrome-error:/);
  await expect(page.frameLocator("#f").getByRole("heading", { name: "Unknown effects" })).toHaveCount(0);
});

test.describe("single sign-on against a real OpenID Connect provider", () => {
  async function viaIdp(page: Page, login: string) {
    await page.goto("/login");
    await page.getByRole("button", { name: "Sign in with Test IdP" }).click();
    // The identity provider's own pages (node-oidc-provider's development interactions).
    await page.locator("input[name=login]").fill(login);
    await page.locator("input[name=password]").fill("anything");
    await page.locator("button[type=submit]").click();
    const consent = page.getByRole("button", { name: /continue/i });
    if (await consent.isVisible({ timeout: 5_000 }).catch(() => false)) await consent.click();
  }

  test("a provisioned user signs in and gets Reckon's roles, not the provider's", async ({ page }) => {
    await viaIdp(page, "auditor@demo.test");
    await expect(page.getByRole("heading", { name: "Ledger overview" })).toBeVisible({ timeout: 15_000 });
    await expect(page.getByRole("list", { name: "Your roles" }).getByRole("listitem")).toHaveText([
      "Auditor",
    ]);
    const [event] = await query<{ details: { method: string } }>(
      "SELECT details FROM audit_events WHERE action = 'auth.sign_in' AND actor_email = 'auditor@demo.test' ORDER BY seq DESC LIMIT 1",
    );
    expect(event!.details.method).toBe("oidc");
    // Its session is a session like any other: signing out ends it.
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/login/);
  });

  test("someone the provider vouches for but Reckon never provisioned is refused", async ({ page }) => {
    await viaIdp(page, "stranger@example.com");
    await expect(page).toHaveURL(/\/login/);
    await expect(page.getByRole("form", { name: "Sign in" }).getByRole("alert")).toHaveText(
      "Your SSO account is not provisioned in Reckon.",
    );
    expect((await page.request.get("/api/overview")).status()).toBe(401);
  });
});
