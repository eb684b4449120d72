import pg from "pg";
import { toolEnv } from "@/tools/env";

/** The server integration and e2e tests create their throwaway databases on. */
export const TEST_SERVER_URL = toolEnv().TEST_DATABASE_URL;

export function databaseUrl(name: string): string {
  const url = new URL(TEST_SERVER_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function onServer<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_SERVER_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

export async function createDatabase(name: string, template?: string): Promise<string> {
  await onServer(async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${quote(name)} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${quote(name)}${template ? ` TEMPLATE ${quote(template)}` : ""}`);
  });
  return databaseUrl(name);
}

export async function dropDatabase(name: string): Promise<void> {
  await onServer((c) => c.query(`DROP DATABASE IF EXISTS ${quote(name)} WITH (FORCE)`));
}
