import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { inject } from "vitest";
import { openDatabase, type Database } from "@/lib/db/connect";
import { migrate } from "@/lib/db/migrate";
import { createDatabase, dropDatabase } from "@/test/support/postgres";

export type TestDatabase = Database & { dispose(): Promise<void> };

/** A fresh, migrated PostgreSQL database of this test's own, dropped on dispose. */
export async function freshPostgres(): Promise<TestDatabase> {
  const name = `reckon_it_${randomBytes(5).toString("hex")}`;
  const database = openDatabase({
    kind: "postgres",
    url: await createDatabase(name, inject("templateDatabase")),
  });
  return {
    ...database,
    dispose: async () => {
      await database.close();
      await dropDatabase(name);
    },
  };
}

/** A fresh PostgreSQL database with no tables at all. */
export async function emptyPostgres(): Promise<TestDatabase> {
  const name = `reckon_it_${randomBytes(5).toString("hex")}`;
  const database = openDatabase({ kind: "postgres", url: await createDatabase(name) });
  return {
    ...database,
    dispose: async () => {
      await database.close();
      await dropDatabase(name);
    },
  };
}

/** A fresh embedded PGlite database in a temporary folder, optionally migrated. */
export async function freshPglite(
  options: { migrated?: boolean; dir?: string } = {},
): Promise<TestDatabase & { dir: string }> {
  const parent = options.dir ? null : mkdtempSync(path.join(tmpdir(), "reckon-pglite-"));
  const dir = options.dir ?? path.join(parent!, "db");
  const database = openDatabase({ kind: "pglite", dir });
  if (options.migrated !== false) await migrate(database.runner);
  return {
    ...database,
    dir,
    dispose: async () => {
      await database.close();
      if (parent) rmSync(parent, { recursive: true, force: true });
    },
  };
}
