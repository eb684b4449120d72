import pg from "pg";
import { databaseUrl } from "@/test/support/postgres";
import { E2E_DATABASE, E2E_SANDBOX_PORT } from "./scenarios";

/** Direct reads of the e2e database and the sandbox's ground truth, to check both sides. */
export async function query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl(E2E_DATABASE) });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

export type IntentRow = {
  id: string;
  tenant_id: string;
  intent_key: string;
  status: string;
  version: number;
  provider_result_id: string | null;
  needs_operator: boolean;
};

export async function intentByKey(intentKey: string, tenantId = "acme-shop"): Promise<IntentRow> {
  const [row] = await query<IntentRow>(
    "SELECT id, tenant_id, intent_key, status, version, provider_result_id, needs_operator FROM effect_intents WHERE tenant_id = $1 AND intent_key = $2",
    [tenantId, intentKey],
  );
  if (!row) throw new Error(`no intent ${intentKey}`);
  return row;
}

export async function resolutionsOf(intentId: string) {
  return query<{ kind: string; status: string; submission_key: string }>(
    "SELECT kind, status, submission_key FROM resolutions WHERE intent_id = $1",
    [intentId],
  );
}

export async function sandboxEffects(
  filter: { intentKey?: string } = {},
): Promise<{ id: string; kind: string; intentKey: string | null; body: Record<string, unknown> }[]> {
  const q = new URLSearchParams(filter as Record<string, string>);
  const response = await fetch(`http://127.0.0.1:${E2E_SANDBOX_PORT}/_effects?${q}`);
  return (
    (await response.json()) as {
      effects: { id: string; kind: string; intentKey: string | null; body: Record<string, unknown> }[];
    }
  ).effects;
}

export function intentPath(intentKey: string, tenantId = "acme-shop"): string {
  return `/intents/${encodeURIComponent(tenantId)}/${encodeURIComponent(intentKey)}`;
}
