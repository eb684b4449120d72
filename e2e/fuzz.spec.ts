import { toolEnv } from "@/tools/env";
import fc from "fast-check";
import type { APIRequestContext } from "@playwright/test";
import { expect, test, type Part } from "./fixtures";
import { callAction } from "./actions";
import { query } from "./ledger";

// Property-based fuzzing of every action's and route's input against the running app,
// as a role allowed to call it: whatever arrives, the answer is never a 5xx (nor an
// action's "internal" error), and refused input changes no table at all.

const RUNS = toolEnv().FUZZ_RUNS;

/** Values of every shape and of the kinds that once broke things. */
const anything: fc.Arbitrary<unknown> = fc.oneof(
  fc.string(),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.uuid(),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
  fc.constantFrom(
    "",
    "\u0000",
    "a\u0000b",
    "\ud800",
    "\u202Eevil",
    "1e308",
    "-1",
    "99999999999999999999",
    "NaN",
    "Infinity",
    "../../etc/passwd",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "x".repeat(5000),
    "approved",
    "escalate",
    "idempotency_key",
  ),
);

/** An input with the action's own field names (each maybe missing) and maybe extra ones. */
const inputOf = (fields: string[]) =>
  fc
    .tuple(
      fc.record(Object.fromEntries(fields.map((f) => [f, anything])), { requiredKeys: [] }),
      fc.dictionary(fc.string({ maxLength: 8 }), anything, { maxKeys: 2 }),
    )
    .map(([known, extra]) => ({ ...extra, ...known }));

type Target = { who: Part; name: string; fields: string[]; plain?: boolean };

const ACTIONS: Target[] = [
  { who: "operator", name: "claimAction", fields: ["intentId", "tenantId", "takeOverReason"] },
  { who: "operator", name: "releaseAction", fields: ["intentId", "tenantId"] },
  { who: "operator", name: "lookupAction", fields: ["intentId", "tenantId", "method"] },
  {
    who: "operator",
    name: "proposeAction",
    fields: [
      "intentId",
      "tenantId",
      "kind",
      "reason",
      "evidence",
      "externalEvidenceRef",
      "expectedVersion",
      "submissionKey",
    ],
  },
  { who: "operator", name: "sendCompensationAction", fields: ["intentId", "tenantId"] },
  {
    who: "operator",
    name: "bulkAcceptAction",
    fields: ["reason", "submissionKey", "items"],
    plain: true,
  },
  { who: "approver", name: "decideAction", fields: ["resolutionId", "decision", "reason"] },
  {
    who: "admin",
    name: "saveThresholdAction",
    fields: ["tenantId", "currency", "threshold", "dualThreshold", "autoResolveBelow", "reason"],
  },
  {
    who: "admin",
    name: "saveReconcilePolicyAction",
    fields: ["tenantId", "providerId", "mode", "redispatch", "maxRedispatches", "reason"],
  },
  { who: "admin", name: "revokeSessionsAction", fields: ["userId", "reason"] },
  { who: "admin", name: "createUserAction", fields: ["email", "name", "roles", "signIn"] },
  { who: "admin", name: "setUserRolesAction", fields: ["userId", "roles", "expectedRoles", "reason"] },
  { who: "admin", name: "setUserAccessAction", fields: ["userId", "change", "reason"] },
  { who: "admin", name: "unlockUserAction", fields: ["userId"] },
  {
    who: "admin",
    name: "saveProviderProfileAction",
    fields: [
      "providerId",
      "baseUrl",
      "responseWindowSeconds",
      "keyRetentionSeconds",
      "visibilityDelaySeconds",
      "rateLimitPerSecond",
      "expectedUpdatedAt",
      "reason",
    ],
  },
];

/** Every table's row count and a checksum of its rows. */
async function snapshot(): Promise<Record<string, string>> {
  const tables = await query<{ t: string }>(
    "SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_prisma_migrations' ORDER BY 1",
  );
  const out: Record<string, string> = {};
  for (const { t } of tables) {
    const [row] = await query<{ n: string; h: string | null }>(
      `SELECT count(*)::text AS n, md5(string_agg(x::text, '|' ORDER BY x::text)) AS h FROM "${t}" x`,
    );
    out[t] = `${row!.n}:${row!.h}`;
  }
  return out;
}

test("every action survives random input: never a 5xx, and refused input changes nothing", async ({
  clientAs,
}) => {
  test.setTimeout(240_000);
  const clients = new Map<Part, APIRequestContext>();
  for (const who of new Set(ACTIONS.map((a) => a.who))) clients.set(who, await clientAs(who));
  // Sign-ins above wrote their sessions and events; from here on nothing may change.
  const before = await snapshot();
  let changed = 0;
  for (const target of ACTIONS) {
    await fc.assert(
      fc.asyncProperty(inputOf(target.fields), async (input) => {
        const answer = await callAction(
          clients.get(target.who)!,
          target.name,
          target.plain ? [input] : [{}, input],
        );
        expect(answer.status, `${target.name} ${JSON.stringify(input).slice(0, 200)}`).toBeLessThan(500);
        expect(answer.result?.serverError?.code, target.name).not.toBe("internal");
        if (answer.result?.data !== undefined) changed += 1;
      }),
      { numRuns: RUNS, seed: 20261130 },
    );
  }
  expect(changed).toBe(0);
  expect(await snapshot()).toEqual(before);
});

test("every route survives random query strings and bodies: never a 5xx", async ({ clientAs }) => {
  test.setTimeout(240_000);
  const operator = await clientAs("operator");
  const auditor = await clientAs("auditor");
  const params = fc.dictionary(
    fc.constantFrom(
      "tenant",
      "provider",
      "age",
      "min",
      "max",
      "claim",
      "needsOperator",
      "q",
      "cursor",
      "actor",
      "action",
      "intent",
      "from",
      "to",
      "before",
      "format",
      "x",
    ),
    fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.constantFrom("\u0000", "1e308", "-5", "%E0%A4%A", "9".repeat(30)),
    ),
    { maxKeys: 4 },
  );
  await fc.assert(
    fc.asyncProperty(
      params,
      fc.constantFrom("/api/inbox", "/api/inbox/export", "/api/audit/export"),
      async (p, route) => {
        const client = route.startsWith("/api/audit") ? auditor : operator;
        const response = await client.get(`${route}?${new URLSearchParams(p as Record<string, string>)}`);
        expect(response.status(), `${route} ${JSON.stringify(p)}`).toBeLessThan(500);
        await response.body();
      },
    ),
    { numRuns: RUNS * 2, seed: 20261130 },
  );
  const before = await snapshot();
  await fc.assert(
    fc.asyncProperty(
      fc.oneof(anything, inputOf(["method", "tenantId", "intentId"])),
      fc.uuid(),
      async (body, id) => {
        const response = await operator.post(`/api/intents/${id}/lookups`, {
          headers: { "content-type": "application/json" },
          data: JSON.stringify(body),
        });
        expect(response.status(), JSON.stringify(body).slice(0, 200)).toBeLessThan(500);
      },
    ),
    { numRuns: RUNS, seed: 20261130 },
  );
  expect(await snapshot()).toEqual(before);
});
