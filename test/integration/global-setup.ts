import type { TestProject } from "vitest/node";
import { openDatabase } from "@/lib/db/connect";
import { migrate } from "@/lib/db/migrate";
import { createDatabase, dropDatabase } from "@/test/support/postgres";

declare module "vitest" {
  export interface ProvidedContext {
    templateDatabase: string;
  }
}

// One migrated template per run; each test file copies it into a database of its own.
export default async function setup(project: TestProject) {
  const template = `reckon_it_template_${process.pid}`;
  const database = openDatabase({ kind: "postgres", url: await createDatabase(template) });
  try {
    await migrate(database.runner);
  } finally {
    await database.close();
  }
  project.provide("templateDatabase", template);
  return async () => {
    await dropDatabase(template);
  };
}
