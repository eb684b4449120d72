import { expect, type Page } from "@playwright/test";

export const PASSWORD = "reckon-demo";

export const USERS = [
  { email: "operator@demo.test", roles: ["Operator"], nav: ["Overview", "Inbox", "Metrics", "Providers"] },
  { email: "operator2@demo.test", roles: ["Operator"], nav: ["Overview", "Inbox", "Metrics", "Providers"] },
  {
    email: "approver@demo.test",
    roles: ["Approver"],
    nav: ["Overview", "Inbox", "Approvals", "Metrics", "Providers"],
  },
  {
    email: "approver2@demo.test",
    roles: ["Approver"],
    nav: ["Overview", "Inbox", "Approvals", "Metrics", "Providers"],
  },
  {
    email: "auditor@demo.test",
    roles: ["Auditor"],
    nav: ["Overview", "Inbox", "Audit log", "Metrics", "Providers"],
  },
  {
    email: "admin@demo.test",
    roles: ["Admin"],
    nav: ["Overview", "Metrics", "Providers", "Users", "Thresholds", "Reconciler"],
  },
] as const;

/** Every console screen; each must send an anonymous visitor to /login. */
export const CONSOLE_URLS = [
  "/",
  "/inbox",
  "/providers",
  "/admin/users",
  "/forbidden",
  "/intents/acme-shop/invoice%3Ainv_e2e_charged%3Acollect%3Av1",
];

export async function signIn(page: Page, email: string, password = PASSWORD) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

export async function signInAs(page: Page, email: string) {
  await signIn(page, email);
  await expect(page.getByRole("heading", { name: "Ledger overview" })).toBeVisible();
}
