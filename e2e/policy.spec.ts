import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { request, type APIRequestContext } from "@playwright/test";
import { mayPerform } from "@/lib/auth/authorize";
import { ACTION_POLICY, allows, PAGE_POLICY, ROUTE_POLICY, type Access } from "@/lib/auth/policy";
import type { Role } from "@/lib/auth/roles";
import { callAction } from "./actions";
import { expect, test, type Part } from "./fixtures";
import { BASE_URL } from "./identities";
import { intentByKey, intentPath, query } from "./ledger";
import { SCENARIOS } from "./scenarios";

// Proof by enumeration: every page, route handler and server action the build contains
// must be declared in lib/auth/policy.ts, and each answers every identity — anonymous
// and each role — exactly as the policy says.

const build = (file: string) =>
  JSON.parse(readFileSync(path.join(process.cwd(), ".next/server", file), "utf8")) as Record<string, unknown>;

/** "/(console)/intents/[tenant]/[key]/page" → "/intents/[tenant]/[key]" */
const appPath = (key: string) =>
  key
    .replace(/\/(page|route)$/, "")
    .replace(/\/\([^)]+\)/g, "")
    .replace(/^$/, "/") || "/";

const manifest = Object.keys(build("app-paths-manifest.json"));
const pages = manifest.filter((k) => k.endsWith("/page")).map(appPath);
const routes = manifest.filter((k) => k.endsWith("/route")).map(appPath);
const actions = Object.values(
  (build("server-reference-manifest.json") as { node: Record<string, { exportedName?: string }> }).node,
).map((a) => a.exportedName!);

test("every page, route and action in the build has an entry in the policy, and every entry exists", () => {
  expect(pages.filter((p) => !(p in PAGE_POLICY))).toEqual([]);
  const routePaths = Object.keys(ROUTE_POLICY).map((k) => k.split(" ")[1]);
  expect(routes.filter((r) => !routePaths.includes(r))).toEqual([]);
  expect(actions.filter((a) => !(a in ACTION_POLICY))).toEqual([]);
  expect(Object.keys(PAGE_POLICY).filter((p) => !pages.includes(p))).toEqual([]);
  expect(routePaths.filter((r) => !routes.includes(r!))).toEqual([]);
  expect(Object.keys(ACTION_POLICY).filter((a) => !actions.includes(a))).toEqual([]);
});

const IDENTITIES: { part: Part | null; roles: Role[] | null }[] = [
  { part: null, roles: null },
  { part: "operator", roles: ["operator"] },
  { part: "approver", roles: ["approver"] },
  { part: "auditor", roles: ["auditor"] },
  { part: "admin", roles: ["admin"] },
];

const expected = (access: Access, roles: Role[] | null) => allows(access, roles, mayPerform);

// Actions built with .action() take their input only; the forms' actions take (previous state, input).
const PLAIN_ACTIONS = new Set(["bulkAcceptAction", "bulkMarkRejectedAction", "verifyChainAction"]);

for (const identity of IDENTITIES) {
  test(`as ${identity.part ?? "anonymous"}: every page, route and action answers as the policy says`, async ({
    freshClientAs,
  }) => {
    // A session of its own: signing out at the end must not end the worker's shared one.
    const client: APIRequestContext = identity.part
      ? await freshClientAs(identity.part)
      : await request.newContext({ baseURL: BASE_URL });
    const spare = await intentByKey(SCENARIOS.spare.job.intentKey);
    const [resolution] = await query<{ id: string }>("SELECT id FROM resolutions LIMIT 1");
    const concrete: Record<string, string> = {
      "/intents/[tenant]/[key]": intentPath(spare.intent_key),
      "/audit/resolutions/[id]": `/audit/resolutions/${resolution?.id ?? randomUUID()}`,
    };
    const problems: string[] = [];

    for (const [page, access] of Object.entries(PAGE_POLICY) as [string, Access][]) {
      if (page.startsWith("/_")) continue; // not addressable
      const response = await client.get(concrete[page] ?? page, { maxRedirects: 0 });
      const location = response.headers().location ?? "";
      // Past the role check: the page (or its own "not found", when there is no such record).
      const reached = [200, 404].includes(response.status()) || (page === "/login" && location === "/");
      const allowed = expected(access, identity.roles);
      if (allowed !== reached) problems.push(`page ${page}: ${response.status()} ${location}`);
      if (!allowed && !location.startsWith(identity.roles ? "/forbidden" : "/login"))
        problems.push(`page ${page}: refused to the wrong place (${location})`);
    }

    for (const [key, access] of Object.entries(ROUTE_POLICY) as [string, Access][]) {
      const [method, route] = key.split(" ") as [string, string];
      if (route.startsWith("/api/auth/")) continue; // NextAuth's own (public) endpoints
      const url = route.replace("[id]", randomUUID());
      const response =
        method === "GET"
          ? await client.get(url, { maxRedirects: 0 })
          : await client.post(url, { data: { method: "idempotency_key" } });
      const allowed = expected(access, identity.roles);
      const refused = [401, 403].includes(response.status());
      if (allowed === refused) problems.push(`route ${key}: ${response.status()}`);
      if (!allowed && response.status() !== (identity.roles ? 403 : 401))
        problems.push(`route ${key}: refused with ${response.status()}`);
    }

    for (const [name, access] of Object.entries(ACTION_POLICY) as [string, Access][]) {
      if (name === "signOutAction" && identity.roles) continue; // called last, below
      const answer = await callAction(client, name, PLAIN_ACTIONS.has(name) ? [{}] : [{}, {}]);
      const code = answer.result?.serverError?.code;
      const refused = code === "forbidden" || code === "unauthenticated";
      const allowed = expected(access, identity.roles);
      if (answer.status >= 500 || code === "internal")
        problems.push(`action ${name}: failed (${answer.status})`);
      if (allowed === refused) problems.push(`action ${name}: ${code ?? "answered"}`);
      if (!allowed && code !== (identity.roles ? "forbidden" : "unauthenticated"))
        problems.push(`action ${name}: refused as ${code}`);
    }
    if (identity.roles) {
      // Signing out, last: it ends this client's session.
      await callAction(client, "signOutAction", [{}, {}]);
      expect((await client.get("/api/overview")).status()).toBe(401);
    }
    expect(problems).toEqual([]);
    if (!identity.part) await client.dispose();
  });
}
