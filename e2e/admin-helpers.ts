import { expect, test, type Page } from "@playwright/test";
import { seriousFindings } from "./axe";
import { query } from "./ledger";

// What e2e/admin.spec.ts changes and reads back: a provider and a threshold nothing else
// depends on (the scenarios are acme-shop at payments-sandbox; the reconciler settings
// spec uses globex-travel EUR; the approvals spec initech-saas GBP), and the users it makes.

export const PROVIDER = "mailer-sandbox";
export const TENANT = "globex-travel";
export const THRESHOLD_ROW = `${TENANT} JPY`;

export const responseWindow = async () =>
  (
    await query<{ s: number }>("SELECT response_window_seconds AS s FROM provider_profiles WHERE id = $1", [
      PROVIDER,
    ])
  )[0]!.s;

export const jpyThreshold = async () =>
  (
    await query<{ t: string }>(
      "SELECT threshold_minor::text AS t FROM approval_thresholds WHERE tenant_id = $1 AND currency = 'JPY'",
      [TENANT],
    )
  )[0]!.t;

export const userRow = async (id: string) =>
  (
    await query<{ roles: string; disabled: boolean; failed_sign_ins: number; locked_until: Date | null }>(
      "SELECT roles::text, disabled, failed_sign_ins, locked_until FROM users WHERE id = $1",
      [id],
    )
  )[0]!;

/** The audit events on one target that an admin's changes wrote (not sign-ins), oldest first. */
export const auditActions = async (targetId: string) =>
  (
    await query<{ action: string; reason: string | null; details: string }>(
      "SELECT action, reason, details::text FROM audit_events WHERE target_id = $1 AND action NOT LIKE 'auth.%' ORDER BY seq",
      [targetId],
    )
  ).map((e) => ({ ...e, details: JSON.parse(e.details) as Record<string, unknown> }));

export async function currentSettings() {
  return { window: await responseWindow(), threshold: await jpyThreshold() };
}

export async function restoreSettings(settings: { window: number; threshold: string }) {
  await query("UPDATE provider_profiles SET response_window_seconds = $2 WHERE id = $1", [
    PROVIDER,
    settings.window,
  ]);
  await query(
    "UPDATE approval_thresholds SET threshold_minor = $2 WHERE tenant_id = $1 AND currency = 'JPY'",
    [TENANT, settings.threshold],
  );
}

/** Opens a user's page as an admin. */
export async function userPage(page: Page, id: string) {
  await page.goto(`/admin/users/${id}`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
}

/** Every admin action of the users and providers screens, with input (the role check comes before parsing it). */
export function adminActionsFor(userId: string, email: string) {
  return [
    ["createUserAction", { email, name: "Op", roles: ["auditor"] }],
    ["setUserRolesAction", { userId, roles: ["auditor"], expectedRoles: [], reason: "make me one" }],
    ["setUserAccessAction", { userId, change: "disable", reason: "operators cannot" }],
    ["unlockUserAction", { userId }],
    [
      "saveProviderProfileAction",
      { providerId: PROVIDER, responseWindowSeconds: 1, reason: "operators cannot" },
    ],
  ] as const;
}

/**
 * Screenshots of each screen at desktop (1280×800) and phone (390×844) width, attached
 * to the test's report, and axe's serious findings on each.
 */
export async function captureScreens(page: Page, screens: [label: string, path: string][]) {
  const findings: string[] = [];
  for (const [label, path] of screens) {
    for (const [size, viewport] of [
      ["desktop", { width: 1280, height: 800 }],
      ["phone", { width: 390, height: 844 }],
    ] as const) {
      await page.setViewportSize(viewport);
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      const file = test.info().outputPath(`admin-${label}-${size}.png`);
      await page.screenshot({ path: file, fullPage: true });
      await test.info().attach(`${label} (${size})`, { path: file, contentType: "image/png" });
    }
    findings.push(...(await seriousFindings(page, path)));
  }
  return findings;
}
