import { createHash, randomUUID } from "node:crypto";
import { readdirSync, readFileSync, existsSync } from "node:fs";
import path from "node:path";

export type SqlQueries = {
  exec(sql: string): Promise<void>;
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
};

export type SqlRunner = SqlQueries & {
  transaction<T>(fn: (tx: SqlQueries) => Promise<T>): Promise<T>;
};

export type Migration = { name: string; sql: string; checksum: string };

export type MigrationReport = { applied: string[]; alreadyApplied: string[] };

export const MIGRATIONS_DIR = path.join(process.cwd(), /*turbopackIgnore: true*/ "prisma", "migrations");

// Prisma's own table layout, so `prisma migrate deploy` (where its engine can be
// downloaded) sees these migrations as applied and carries on from them.
const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id"                  VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum"            VARCHAR(64) NOT NULL,
  "finished_at"         TIMESTAMPTZ,
  "migration_name"      VARCHAR(255) NOT NULL,
  "logs"                TEXT,
  "rolled_back_at"      TIMESTAMPTZ,
  "started_at"          TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

// The advisory lock id Prisma Migrate takes, so we and it never run at once.
const MIGRATE_LOCK_ID = 72707369;

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  if (!existsSync(dir)) throw new Error(`No migrations folder at ${dir}`);
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

export class MigrationDriftError extends Error {
  constructor(readonly migration: string) {
    super(
      `Migration ${migration} was changed after it was applied; add a new migration instead of editing it`,
    );
    this.name = "MigrationDriftError";
  }
}

/**
 * Applies pending migrations in one transaction (all or nothing), recording each
 * as Prisma does. A migration that adds an enum value and uses it must be split
 * across two runs, as PostgreSQL refuses to use a value added in the same transaction.
 */
export async function migrate(runner: SqlRunner, migrations = readMigrations()): Promise<MigrationReport> {
  return runner.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock($1)", [MIGRATE_LOCK_ID]);
    await tx.exec(CREATE_MIGRATIONS_TABLE);
    const rows = await tx.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM "_prisma_migrations"
        WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const done = new Map(rows.map((r) => [r.migration_name, r.checksum]));
    const report: MigrationReport = { applied: [], alreadyApplied: [] };
    for (const m of migrations) {
      const checksum = done.get(m.name);
      if (checksum !== undefined) {
        if (checksum !== m.checksum) throw new MigrationDriftError(m.name);
        report.alreadyApplied.push(m.name);
        continue;
      }
      await tx.exec(m.sql);
      await tx.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
         VALUES ($1, $2, $3, now(), now(), 1)`,
        [randomUUID(), m.checksum, m.name],
      );
      report.applied.push(m.name);
    }
    return report;
  });
}
