import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { test as base, request, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { hashPassword } from "@/lib/auth/password";
import { callAction } from "./actions";
import { BASE_URL } from "./identities";
import { query } from "./ledger";
import { PASSWORD } from "./support";

/**
 * People for the specs: each worker creates its own users, one per part they play, and
 * signs each in once through the sign-in action, keeping the signed-in state (cookies)
 * in a file. A test opens pages (or plain HTTP clients) as any of them at once, without
 * going through the sign-in form — and what one spec does to its people (signing them
 * out, ending their sessions) never reaches another spec running beside it.
 */
const PARTS = {
  operator: { roles: ["operator"], name: "Olga Operator" },
  operator2: { roles: ["operator"], name: "Otto Operator" },
  approver: { roles: ["approver"], name: "Anna Approver" },
  approver2: { roles: ["approver"], name: "Arno Approver" },
  auditor: { roles: ["auditor"], name: "Aldo Auditor" },
  admin: { roles: ["admin"], name: "Ada Admin" },
} as const;

export type Part = keyof typeof PARTS;

export type Person = { id: string; email: string; name: string; storageState: string };

type Open = { javaScriptEnabled?: boolean };

/** Signs in through the sign-in action (a successful one redirects: no result row). */
async function signIn(client: APIRequestContext, email: string) {
  const answer = await callAction(client, "signInAction", [{}, { email, password: PASSWORD }], {
    page: "/login",
  });
  if (answer.result?.serverError || answer.result?.validationErrors)
    throw new Error(`could not sign in ${email}: ${JSON.stringify(answer.result)}`);
}

async function createPeople(workerIndex: number, outputDir: string): Promise<Record<Part, Person>> {
  mkdirSync(outputDir, { recursive: true });
  const passwordHash = await hashPassword(PASSWORD);
  const run = randomUUID().slice(0, 8);
  const people = {} as Record<Part, Person>;
  for (const [part, { roles, name }] of Object.entries(PARTS) as [Part, (typeof PARTS)[Part]][]) {
    const person: Person = {
      id: randomUUID(),
      email: `${part}-w${workerIndex}-${run}@e2e.test`,
      name: `${name} ${workerIndex}`,
      storageState: path.join(outputDir, `.auth-${part}-w${workerIndex}-${run}.json`),
    };
    await query(
      `INSERT INTO users (id, email, name, roles, password_hash, updated_at) VALUES ($1, $2, $3, $4::role[], $5, now())`,
      [person.id, person.email, person.name, roles, passwordHash],
    );
    const client = await request.newContext({ baseURL: BASE_URL });
    const answer = await callAction(
      client,
      "signInAction",
      [{}, { email: person.email, password: PASSWORD }],
      {
        page: "/login",
      },
    );
    if (answer.result?.serverError || answer.result?.validationErrors)
      throw new Error(`could not sign in ${person.email}: ${JSON.stringify(answer.result)}`);
    await client.storageState({ path: person.storageState });
    await client.dispose();
    people[part] = person;
  }
  return people;
}

export const test = base.extend<
  {
    /** A page signed in as this person (each call a browser context of its own). */
    as: (part: Part, open?: Open) => Promise<Page>;
    /** An HTTP client signed in as this person (sharing the worker's session of them). */
    clientAs: (part: Part) => Promise<APIRequestContext>;
    /** An HTTP client with a session of its own for this person (to sign out, say). */
    freshClientAs: (part: Part) => Promise<APIRequestContext>;
  },
  { people: Record<Part, Person> }
>({
  people: [
    async ({}, provide, workerInfo) => {
      await provide(await createPeople(workerInfo.workerIndex, workerInfo.project.outputDir));
    },
    { scope: "worker" },
  ],
  as: async ({ browser, people }, provide) => {
    const contexts: Awaited<ReturnType<Browser["newContext"]>>[] = [];
    await provide(async (part, open = {}) => {
      const context = await browser.newContext({ storageState: people[part].storageState, ...open });
      contexts.push(context);
      return context.newPage();
    });
    for (const c of contexts) await c.close();
  },
  clientAs: async ({ people }, provide) => {
    const clients: APIRequestContext[] = [];
    await provide(async (part) => {
      const client = await request.newContext({ baseURL: BASE_URL, storageState: people[part].storageState });
      clients.push(client);
      return client;
    });
    for (const c of clients) await c.dispose();
  },
  freshClientAs: async ({ people }, provide) => {
    const clients: APIRequestContext[] = [];
    await provide(async (part) => {
      const client = await request.newContext({ baseURL: BASE_URL });
      clients.push(client);
      await signIn(client, people[part].email);
      return client;
    });
    for (const c of clients) await c.dispose();
  },
});

export { expect } from "@playwright/test";
