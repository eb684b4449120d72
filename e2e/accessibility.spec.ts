import type { Page } from "@playwright/test";
import { expect, test, type Part } from "./fixtures";
import { seriousFindings } from "./axe";
import { intentPath, query } from "./ledger";
import { SCENARIOS } from "./scenarios";

// axe on every screen, as the role that uses it: no serious or critical finding.

async function audit(page: Page, path: string) {
  await page.goto(path);
  await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
  return seriousFindings(page, path);
}

test("the sign-in page", async ({ page }) => {
  expect(await audit(page, "/login")).toEqual([]);
});

const SCREENS: [Part, string[]][] = [
  ["operator", ["/", "/inbox", "/metrics", "/providers", "INTENT"]],
  ["approver", ["/approvals"]],
  ["auditor", ["/audit", "STORY"]],
  ["admin", ["/admin/users", "/settings/thresholds", "/settings/reconciler", "/forbidden"]],
];

for (const [part, paths] of SCREENS) {
  test(`the screens of an ${part}`, async ({ as }) => {
    const page = await as(part);
    const [resolution] = await query<{ id: string }>(
      "SELECT id FROM resolutions ORDER BY created_at LIMIT 1",
    );
    const found: string[] = [];
    for (const p of paths) {
      const path =
        p === "INTENT"
          ? intentPath(SCENARIOS.spare.job.intentKey)
          : p === "STORY"
            ? resolution
              ? `/audit/resolutions/${resolution.id}`
              : "/audit"
            : p;
      found.push(...(await audit(page, path)));
    }
    expect(found).toEqual([]);
  });
}
