import { request, type Page } from "@playwright/test";
import { expect, test, type Part } from "./fixtures";
import { BASE_URL } from "./identities";
import { intentPath, query } from "./ledger";

// The console's states around its screens: designed not-found and forbidden pages, a
// favicon, phones without sideways scrolling, and one rule for times (UTC text, the same from the server and after hydration).

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

async function storyPath(): Promise<string> {
  const [resolution] = await query<{ id: string }>("SELECT id FROM resolutions ORDER BY created_at LIMIT 1");
  return resolution ? `/audit/resolutions/${resolution.id}` : "/audit";
}

/** The pages of this work, each as the role that uses it. */
async function pagesByRole(): Promise<[Part, string[]][]> {
  return [
    ["operator", ["/", "/metrics", "/providers", intentPath("no-such-intent-e2e"), "/no-such-screen"]],
    ["auditor", ["/audit", await storyPath()]],
    ["admin", ["/admin/users", "/settings/thresholds", "/settings/reconciler", "/forbidden?from=%2Faudit"]],
  ];
}

async function attach(page: Page, label: string) {
  await test
    .info()
    .attach(label, { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });
}

test("a missing intent shows the designed not-found page, with a search box and ways back", async ({
  as,
}) => {
  const page = await as("operator");
  const response = await page.goto(intentPath("no-such-intent-e2e"), { referer: `${BASE_URL}/inbox` });
  expect(response!.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "There is nothing here" })).toBeVisible();
  // Inside the console: its main navigation is still there.
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to the previous page" })).toHaveAttribute(
    "href",
    "/inbox",
  );
  await expect(page.getByRole("link", { name: "Go to the overview" })).toHaveAttribute("href", "/");
  const search = page.getByRole("search", { name: "Search the inbox" });
  await search.getByRole("searchbox").fill("no-such-intent-e2e");
  await search.getByRole("button", { name: "Search the inbox" }).click();
  await expect(page).toHaveURL(/\/inbox\?q=no-such-intent-e2e$/);

  // An address with no route at all gets the root's designed page.
  await page.goto("/no-such-screen");
  await expect(page.getByRole("heading", { level: 1, name: "This page does not exist" })).toBeVisible();
  await expect(page.getByRole("search", { name: "Search the inbox" })).toBeVisible();
});

test("the forbidden page says why, offers the way back and never echoes a foreign address", async ({
  as,
}) => {
  const page = await as("admin");
  await page.goto("/audit");
  await expect(page).toHaveURL(/\/forbidden\?from=%2Faudit/);
  await expect(page.getByRole("heading", { level: 1, name: "Not allowed" })).toBeVisible();
  await expect(page.locator("code", { hasText: /^\/audit/ })).toBeVisible();
  // Admins may not open the inbox: no search box that would only refuse them again.
  await expect(page.getByRole("search")).toHaveCount(0);
  await page.goto("/forbidden?from=https%3A%2F%2Fevil.example%2F");
  await expect(page.getByText("evil.example")).toHaveCount(0);
});

test("/favicon.ico answers 200 with an icon, signed in or not", async () => {
  const client = await request.newContext({ baseURL: BASE_URL });
  const response = await client.get("/favicon.ico", { maxRedirects: 0 });
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toMatch(/image\/(x-icon|vnd\.microsoft\.icon)/);
  expect((await response.body()).subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0]));
  await client.dispose();
});

test("at 390 px no page of this work scrolls sideways; screenshots at desktop and phone", async ({
  browser,
  people,
}) => {
  test.setTimeout(180_000);
  const overflowing: string[] = [];
  for (const [part, paths] of await pagesByRole()) {
    for (const [size, viewport] of [
      ["phone", PHONE],
      ["desktop", DESKTOP],
    ] as const) {
      const context = await browser.newContext({ storageState: people[part].storageState, viewport });
      const page = await context.newPage();
      for (const path of paths) {
        await page.goto(path);
        await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
        if (size === "phone") {
          const width = await page.evaluate(() => document.documentElement.scrollWidth);
          if (width > PHONE.width) overflowing.push(`${path} as ${part}: ${width} px`);
        }
        await attach(page, `${path} (${size})`);
      }
      await context.close();
    }
  }
  expect(overflowing).toEqual([]);
});

test("times read the same from the server and after hydration, in UTC, whatever the browser's zone", async ({
  browser,
  people,
}) => {
  for (const [part, path] of [
    ["auditor", "/audit"],
    ["auditor", await storyPath()],
    ["admin", "/admin/users"],
    ["operator", "/providers"],
  ] as [Part, string][]) {
    const context = await browser.newContext({
      storageState: people[part].storageState,
      timezoneId: "Pacific/Kiritimati", // UTC+14: any local rendering would show
      locale: "de-DE",
    });
    const page = await context.newPage();
    // The server's HTML of this very page load (other specs add audit events meanwhile).
    const html = (await (await page.goto(path))!.text()) ?? "";
    const server = [...html.matchAll(/<time [^>]*>([^<]*)<\/time>/g)].map((m) => m[1]!);
    expect(server.length, path).toBeGreaterThan(0);
    for (const text of server) expect(text, path).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d(:\d\d)? UTC$/);
    // The local-time hint appears only once the page has hydrated.
    await expect(page.locator("time[title]").first()).toBeAttached();
    const hydrated = await page.locator("time").allTextContents();
    expect(hydrated.slice(0, server.length), path).toEqual(server);
    await context.close();
  }
});
