import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MIGRATIONS_DIR, migrate, MigrationDriftError, readMigrations } from "@/lib/db/migrate";
import { exerciseEveryModel } from "./exercise-models";
import { emptyPostgres, freshPglite, type TestDatabase } from "./support";

const cleanup: TestDatabase[] = [];
afterEach(async () => {
  await Promise.all(cleanup.splice(0).map((d) => d.dispose()));
});

const kinds = {
  postgres: async () => emptyPostgres(),
  pglite: async () => freshPglite({ migrated: false }),
};

for (const [kind, open] of Object.entries(kinds)) {
  describe(`migrations on ${kind}`, () => {
    it("apply to an empty database, are recorded as Prisma records them, and every model works", async () => {
      const database = await open();
      cleanup.push(database);

      const first = await migrate(database.runner);
      const names = readMigrations().map((m) => m.name);
      expect(first.applied).toEqual(names);

      const recorded = await database.runner.query<{
        migration_name: string;
        checksum: string;
        finished_at: Date | null;
      }>(`SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" ORDER BY migration_name`);
      expect(recorded.map((r) => r.migration_name)).toEqual(names);
      for (const row of recorded) {
        const sql = readFileSync(path.join(MIGRATIONS_DIR, row.migration_name, "migration.sql"));
        expect(row.checksum).toBe(createHash("sha256").update(sql).digest("hex"));
        expect(row.finished_at).not.toBeNull();
      }

      // Running again changes nothing.
      expect(await migrate(database.runner)).toEqual({ applied: [], alreadyApplied: names });

      await exerciseEveryModel(database.prisma);
    });

    it("refuse to run when an applied migration was edited afterwards", async () => {
      const database = await open();
      cleanup.push(database);
      await migrate(database.runner);
      const edited = readMigrations().map((m, i) => (i === 0 ? { ...m, checksum: "0".repeat(64) } : m));
      await expect(migrate(database.runner, edited)).rejects.toBeInstanceOf(MigrationDriftError);
    });

    it("roll back entirely when a migration fails", async () => {
      const database = await open();
      cleanup.push(database);
      const broken = [
        ...readMigrations(),
        {
          name: "29991231000000_broken",
          sql: "CREATE TABLE ok_table (id int); SELECT no_such_function();",
          checksum: "x".repeat(64),
        },
      ];
      await expect(migrate(database.runner, broken)).rejects.toThrow(/no_such_function/);
      const tables = await database.runner.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name IN ('effect_intents', 'ok_table')`,
      );
      expect(tables[0]?.n).toBe(0);
    });
  });
}
