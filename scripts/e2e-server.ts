import { spawn } from "node:child_process";
import { openDatabase } from "@/lib/db/connect";
import { migrate } from "@/lib/db/migrate";
import { seedDemo } from "@/lib/seed/demo";
import { createDatabase } from "@/test/support/postgres";

// Playwright's web server: a fresh PostgreSQL database, migrated and seeded,
// behind `next start` (the production build), exactly as users would run it.
const port = process.env.E2E_PORT ?? "3100";
const url = await createDatabase(process.env.E2E_DATABASE ?? "reckon_e2e");
const database = openDatabase({ kind: "postgres", url });
await migrate(database.runner);
await seedDemo(database.prisma, { seed: 7 });
await database.close();

const server = spawn("npx", ["next", "start", "-p", port], {
  stdio: "inherit",
  env: {
    ...process.env,
    DATABASE_URL: url,
    NEXTAUTH_SECRET: "e2e-secret-e2e-secret-e2e-secret-e2e",
    NEXTAUTH_URL: `http://127.0.0.1:${port}`,
    NEXT_TELEMETRY_DISABLED: "1",
  },
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
