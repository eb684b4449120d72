import { describeTarget, openDatabase, targetFrom } from "@/lib/db/connect";
import { migrate } from "@/lib/db/migrate";
import { getEnv } from "@/lib/env";
import { seedDemo } from "@/lib/seed/demo";

// npm run db:seed — demo users, tenants, providers and a ledger, into whatever DATABASE_URL points at.
const database = openDatabase(targetFrom(getEnv()));
try {
  await migrate(database.runner);
  const report = await seedDemo(database.prisma);
  if (report) {
    console.log(`Seeded ${describeTarget(database.target)}:`, JSON.stringify(report));
  } else {
    console.log(
      `${describeTarget(database.target)} already has tenants; nothing seeded (history is never deleted).`,
    );
  }
} finally {
  await database.close();
}
