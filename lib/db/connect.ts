import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import pg from "pg";
import { PrismaClient } from "@/prisma/generated/client";
import type { SqlRunner } from "./migrate";

export type DatabaseTarget = { kind: "postgres"; url: string } | { kind: "pglite"; dir: string };

export type Database = {
  target: DatabaseTarget;
  prisma: PrismaClient;
  /** Raw SQL on the same database, for migrations and maintenance. */
  runner: SqlRunner;
  close(): Promise<void>;
};

export function targetFrom(env: { DATABASE_URL?: string; PGLITE_DIR: string }): DatabaseTarget {
  return env.DATABASE_URL
    ? { kind: "postgres", url: env.DATABASE_URL }
    : { kind: "pglite", dir: env.PGLITE_DIR };
}

export function describeTarget(target: DatabaseTarget): string {
  if (target.kind === "pglite") return `embedded PGlite at ${target.dir}`;
  const u = new URL(target.url);
  return `PostgreSQL ${u.host}${u.pathname}`;
}

export function openDatabase(target: DatabaseTarget): Database {
  if (target.kind === "postgres") {
    const pool = new pg.Pool({ connectionString: target.url, max: 10 });
    // An idle connection can be cut by the server (restart, failover, admin). Without a
    // listener, node-postgres turns that into an uncaught exception that ends the process.
    pool.on("error", (error) => console.warn(`PostgreSQL dropped an idle connection: ${error.message}`));
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
    const runner: SqlRunner = {
      exec: async (sql) => {
        await pool.query(sql);
      },
      query: async <T>(sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as T[],
      transaction: async (fn) => {
        const client = await pool.connect();
        try {
          await client.query("BEGIN");
          const result = await fn({
            exec: async (sql) => {
              await client.query(sql);
            },
            query: async <T>(sql: string, params: unknown[] = []) =>
              (await client.query(sql, params)).rows as T[],
          });
          await client.query("COMMIT");
          return result;
        } catch (error) {
          await client.query("ROLLBACK");
          throw error;
        } finally {
          client.release();
        }
      },
    };
    return {
      target,
      prisma,
      runner,
      close: async () => {
        await prisma.$disconnect();
        await pool.end();
      },
    };
  }

  // PGlite creates its data folder but not the folder's parents.
  mkdirSync(path.dirname(path.resolve(target.dir)), { recursive: true });
  const lite = new PGlite(target.dir);
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(lite) });
  const liteRunner = (q: Pick<PGlite, "exec" | "query">): Omit<SqlRunner, "transaction"> => ({
    exec: async (sql) => {
      await q.exec(sql);
    },
    query: async <T>(sql: string, params: unknown[] = []) => (await q.query<T>(sql, params)).rows,
  });
  return {
    target,
    prisma,
    runner: { ...liteRunner(lite), transaction: (fn) => lite.transaction((tx) => fn(liteRunner(tx))) },
    close: async () => {
      await prisma.$disconnect();
      await lite.close();
    },
  };
}
