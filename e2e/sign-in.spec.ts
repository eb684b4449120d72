import { expect, test } from "@playwright/test";
import { CONSOLE_URLS, signIn, signInAs, USERS } from "./support";

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
  await expect(page.getByRole("form", { name: "Sign in" }).getByRole("alert")).toHaveText(
    "Wrong email or password.",
  );
  await expect(page).toHaveURL(/\/login/);
  await page.goto("/providers");
  await expect(page).toHaveURL(/\/login\?callbackUrl=%2Fproviders$/);
});

test("an unknown email gets the same answer as a wrong password", async ({ page }) => {
  await signIn(page, "nobody@demo.test", "reckon-demo");
  await expect(page.getByRole("form", { name: "Sign in" }).getByRole("alert")).toHaveText(
    "Wrong email or password.",
  );
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
