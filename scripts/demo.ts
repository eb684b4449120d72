import { spawn, spawnSync } from "node:child_process";
import { describeTarget, openDatabase, targetFrom } from "@/lib/db/connect";
import { migrate } from "@/lib/db/migrate";
import { getEnv } from "@/lib/env";
import { DEMO_PASSWORD, DEMO_USERS, seedDemo } from "@/lib/seed/demo";

// npm run demo — migrate and seed the database (embedded unless DATABASE_URL is set),
// build the console, start it, and say where to sign in.
const env = getEnv();
const port = Number(process.env.PORT ?? 3000);

const database = openDatabase(targetFrom(env));
try {
  console.log(`Database: ${describeTarget(database.target)}`);
  const migrated = await migrate(database.runner);
  console.log(
    `Migrations: ${migrated.applied.length} applied, ${migrated.alreadyApplied.length} already there`,
  );
  const seeded = await seedDemo(database.prisma);
  console.log(
    seeded ? `Seeded ${seeded.intents} intents over ${seeded.tenants} tenants` : "Demo data already present",
  );
} finally {
  // PGlite allows one process on its folder: let go before the server opens it.
  await database.close();
}

console.log("Building the console (next build)…");
const build = spawnSync("npx", ["next", "build"], { stdio: "inherit" });
if (build.status !== 0) process.exit(build.status ?? 1);

const server = spawn("npx", ["next", "start", "-p", String(port)], {
  stdio: ["ignore", "inherit", "inherit"],
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));

const url = `http://localhost:${port}`;
for (let i = 0; i < 120; i++) {
  try {
    if ((await fetch(`${url}/api/health`)).ok) break;
  } catch {
    // not listening yet
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
}

console.log(`
Reckon is running at ${url}/login${env.embedded ? "  (demo, embedded database)" : ""}

Sign in with any of these (password: ${DEMO_PASSWORD}):
${DEMO_USERS.map((u) => `  ${u.email.padEnd(22)} ${u.roles.join(", ")}`).join("\n")}

Press Ctrl+C to stop.`);
