import { describeTarget, openDatabase, targetFrom } from "@/lib/db/connect";
import { migrate } from "@/lib/db/migrate";
import { getEnv } from "@/lib/env";

// npm run db:migrate — applies prisma/migrations to DATABASE_URL, or to the embedded database.
const database = openDatabase(targetFrom(getEnv()));
try {
  const report = await migrate(database.runner);
  console.log(
    `Migrations on ${describeTarget(database.target)}: ${report.applied.length} applied, ${report.alreadyApplied.length} already there`,
  );
  for (const name of report.applied) console.log(`  applied ${name}`);
} finally {
  await database.close();
}
