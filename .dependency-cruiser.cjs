/**
 * What may import what (run by `npm run lint` through scripts/check-architecture.ts,
 * which also refuses cycles between the folders of lib/).
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "A file cycle: split the shared part into a module both can import.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "product-not-tooling",
      comment:
        "The product (app/, components/, lib/) never imports development tooling: the sandbox provider, the simulator, the worker harness, scripts and tests.",
      severity: "error",
      from: { path: "^(app|components|lib)/" },
      to: { path: "^(tools|scripts|test|e2e)/" },
    },
    {
      name: "lib-not-app",
      comment: "The domain and shared UI never reach into routes.",
      severity: "error",
      from: { path: "^(lib|components)/" },
      to: { path: "^app/" },
    },
    {
      name: "components-no-data",
      comment: "Shared UI has no data access: pages and actions load data and pass it down.",
      severity: "error",
      from: { path: "^components/" },
      to: { path: "^(lib/(db|db\\.ts|resolution|audit|auth/(session|options|sessions))|prisma/generated)" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(prisma/generated|\\.next|node_modules)" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default"],
    },
  },
};
