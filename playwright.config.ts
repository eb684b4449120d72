import { toolEnv } from "./tools/env";
import { defineConfig } from "@playwright/test";

const env = toolEnv();
const port = String(env.E2E_PORT);
const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: "e2e",
  forbidOnly: true,
  fullyParallel: false,
  workers: 1,
  // No retries: the specs are serial and consume their scenarios, so a retry would
  // re-run a file against a changed ledger and only hide the first failure.
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
