import path from "node:path";
import { defineConfig } from "vitest/config";

const root = import.meta.dirname;
const resolve = {
  alias: {
    "@": root,
    "server-only": path.join(root, "test/support/empty.ts"),
  },
};

export default defineConfig({
  test: {
    projects: [
      {
        resolve,
        test: {
          name: "unit",
          include: ["lib/**/*.test.ts", "tools/**/*.test.ts", "test/unit/**/*.test.ts"],
          environment: "node",
        },
      },
      {
        resolve,
        test: {
          name: "integration",
          include: ["test/integration/**/*.test.ts"],
          environment: "node",
          globalSetup: ["test/integration/global-setup.ts"],
          // Keys of the tests' own (never a deployment's): the audit chain is sealed with one.
          env: {
            AUDIT_CHAIN_KEY: "test-audit-chain-key-test-audit-chain-key",
            AUDIT_CHECKPOINT_KEY: "test-checkpoint-key-test-checkpoint-key-0",
          },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
