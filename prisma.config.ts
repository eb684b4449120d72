import { defineConfig } from "prisma/config";

// The Prisma CLI is used for `generate` only (its schema engine cannot be
// downloaded here). Migrations are applied by lib/db/migrate.ts, which writes
// the same _prisma_migrations rows `prisma migrate deploy` would.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations", seed: "tsx prisma/seed.ts" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost/reckon" },
});
