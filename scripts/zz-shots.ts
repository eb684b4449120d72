import { chromium } from "@playwright/test";
const base = "http://127.0.0.1:3300";
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});
async function as(email: string) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  await page.goto(`${base}/login`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("reckon-demo");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.getByRole("heading", { name: "Ledger overview" }).waitFor();
  return page;
}
const op = await as("operator@demo.test");
await op.screenshot({ path: "/tmp/shots/overview.png" });
await op.goto(`${base}/inbox`);
await op.screenshot({ path: "/tmp/shots/inbox.png" });
const first = op.getByRole("table", { name: "Unknown intents" }).getByRole("link").first();
await first.click();
await op
  .getByRole("button", { name: /Look up by/ })
  .first()
  .click();
await op.getByRole("status").filter({ hasText: "Result:" }).waitFor({ timeout: 15000 });
await op.screenshot({ path: "/tmp/shots/intent.png", fullPage: true });
const ap = await as("approver@demo.test");
await ap.goto(`${base}/approvals`);
await ap.screenshot({ path: "/tmp/shots/approvals.png", fullPage: true });
const au = await as("auditor@demo.test");
await au.goto(`${base}/audit`);
await au.screenshot({ path: "/tmp/shots/audit.png" });
await browser.close();
