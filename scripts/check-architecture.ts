import { createRequire } from "node:module";
import { cruise, type IConfiguration, type ICruiseResult } from "dependency-cruiser";

const config = createRequire(import.meta.url)("../.dependency-cruiser.cjs") as IConfiguration;

// npm run lint: the dependency rules of .dependency-cruiser.cjs (no file cycles, no
// product → tooling imports, …), and no cycle between the folders of lib/ (a folder is
// a layer: lib/ledger may use lib/audit, or the other way round, never both).
const { output } = await cruise(["app", "components", "lib", "tools", "scripts"], {
  ...config.options,
  ruleSet: config as never,
  validate: true,
});
const result = output as ICruiseResult;
const problems: string[] = result.summary.violations.map(
  (v) =>
    `${v.rule.name}: ${v.from} → ${v.to}${v.cycle ? ` (cycle: ${v.cycle.map((c) => c.name).join(" → ")})` : ""}`,
);

const folderOf = (file: string) => /^lib\/([^/]+)\//.exec(file)?.[1] ?? null;
const edges = new Map<string, Set<string>>();
for (const m of result.modules) {
  const from = folderOf(m.source);
  if (!from) continue;
  for (const d of m.dependencies) {
    const to = folderOf(d.resolved);
    if (to && to !== from) (edges.get(from) ?? edges.set(from, new Set()).get(from)!).add(to);
  }
}
const seen = new Set<string>();
const visit = (node: string, path: string[]) => {
  for (const next of edges.get(node) ?? []) {
    if (path.includes(next)) {
      const cycle = [...path.slice(path.indexOf(next)), next].join(" → ");
      if (!seen.has(cycle)) problems.push(`folder cycle in lib/: ${cycle}`);
      seen.add(cycle);
    } else visit(next, [...path, next]);
  }
};
for (const node of edges.keys()) visit(node, [node]);

if (problems.length > 0) {
  console.error(problems.join("\n"));
  process.exit(1);
}
console.log(`architecture: ${result.summary.totalCruised} modules, no cycles, no forbidden imports`);
