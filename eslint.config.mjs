import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [
      ".next/**",
      ".data/**",
      "prisma/generated/**",
      "node_modules/**",
      "test-results/**",
      "playwright-report/**",
      "next-env.d.ts",
    ],
  },
  {
    files: ["**/*.ts", "**/*.tsx"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // The product never imports development tooling (the sandbox provider, the simulator,
    // the worker harness), nor scripts or tests. scripts/check-architecture.ts checks the
    // same, and cycles, from the resolved import graph.
    files: ["app/**", "components/**", "lib/**"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@/tools/*", "@/scripts/*", "@/test/*", "@/e2e/*"],
              message: "The product does not import tooling.",
            },
            { group: ["**/tools/*", "**/scripts/*"], message: "The product does not import tooling." },
          ],
        },
      ],
    },
  },
];

export default config;
