import "server-only";
import { getEnv } from "@/lib/env";
import type { PrismaClient } from "@/prisma/generated/client";
import { openDatabase, targetFrom, type Database } from "@/lib/db/connect";

// One database per server process. Kept on globalThis so dev-server reloads
// do not open a second PGlite on the same folder.
const holder = globalThis as unknown as { reckonDatabase?: Database };

function database(): Database {
  holder.reckonDatabase ??= openDatabase(targetFrom(getEnv()));
  return holder.reckonDatabase;
}

/** The one Prisma client. Opened on first use, so builds never touch a database. */
export const db: PrismaClient = new Proxy({} as PrismaClient, {
  get(_target, property) {
    const client = database().prisma;
    const value = Reflect.get(client, property, client) as unknown;
    return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(client) : value;
  },
});
