import { toolEnv } from "./tools/env";
import { defineConfig } from "@playwright/test";

const env = toolEnv();
const port = String(env.E2E_PORT);
const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: "e2e",
  forbidOnly: true,
  // Spec files run side by side, each with people of its own (e2e/fixtures.ts); the tests
  // of one file run in order, as they consume its scenarios.
  fullyParallel: false,
  workers: 2,
  // No retries: a retry would re-run a test against a ledger it already changed and
  // only hide the first failure.
  retries: 0,
  timeout: 30_000,
  reporter: [["list"]],
  use: {
    baseURL,
    trace: "retain-on-failure",
    launchOptions: {
      // Debian's Chromium: Playwright's own browser download cannot be fetched here.
      executablePath: env.CHROMIUM_PATH,
      args: [
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [
    { name: "console", testIgnore: /fuzz\.spec\.ts/ },
    // The fuzzer checks that no table changed at all, so it runs alone, after the rest.
    { name: "fuzz", testMatch: /fuzz\.spec\.ts/, dependencies: ["console"] },
  ],
  webServer: {
    command: "tsx scripts/e2e-server.ts",
    // Touches the database, so the first test meets a ready server.
    url: `${baseURL}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: "ignore",
    stderr: "pipe",
  },
});
