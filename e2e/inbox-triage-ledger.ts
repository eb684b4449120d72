import { E2E_AUDIT_CHAIN_KEY } from "./audit-chain-key";
import { randomBytes } from "node:crypto";
import { getEnv } from "@/lib/env";
import { openDatabase } from "@/lib/db/connect";
import type { EffectJob } from "@/lib/effects/types";
import { databaseUrl } from "@/test/support/postgres";
import { runScenario, type Scenario } from "@/tools/simulator/scenarios";
import { query } from "./ledger";
import { E2E_DATABASE, E2E_SANDBOX_PORT } from "./scenarios";

/**
 * Intents of the inbox-triage spec's own, made through the real protocol against the
 * e2e sandbox (as scripts/e2e-server.ts makes the shared ones), all under one prefix
 * (`inv_tri<run>_…`) so the spec's views hold only them and no other spec's intents
 * are touched. `hoursAgo` moves the last attempt back, setting how far the provider's
 * 24 h key retention has left to run.
 */
export type TriageIntent = {
  name: string;
  scenario: Scenario;
  hoursAgo: number;
  amountMinor?: number;
  currency?: string;
  email?: boolean;
};

export const triageRun = `tri${randomBytes(3).toString("hex")}`;

export const objectId = (name: string) => `inv_${triageRun}_${name}`;

function job(i: TriageIntent): EffectJob {
  const object = objectId(i.name);
  if (i.email)
    return {
      kind: "email",
      tenantId: "acme-shop",
      intentKey: `order:${object}:receipt:v1`,
      workflowId: `wf_notify_${object}`,
      stepId: "send-receipt",
      to: `${i.name}@example.com`,
      template: "receipt",
      variables: { order: object },
      customerRef: `order/${object}`,
    };
  return {
    kind: "charge",
    tenantId: "acme-shop",
    intentKey: `invoice:${object}:collect:v1`,
    workflowId: `wf_collect_${object}`,
    stepId: "charge-card",
    amountMinor: i.amountMinor ?? 1_100,
    currency: i.currency ?? "USD",
    customer: `cus_${object}`,
    paymentMethod: "pm_card_visa",
    description: `Triage ${i.name}`,
    customerRef: `invoice/${object}`,
  };
}

/** Makes the intents, one after another (the sandbox's clock is shared); returns their keys by name. */
export async function makeTriageIntents(intents: TriageIntent[]): Promise<Record<string, string>> {
  // Events sealed with another key would break the audit chain for every spec.
  if (getEnv().auditChainKey !== E2E_AUDIT_CHAIN_KEY)
    throw new Error("the environment was read before e2e/audit-chain-key.ts set the e2e audit chain key");
  const database = openDatabase({ kind: "postgres", url: databaseUrl(E2E_DATABASE) });
  const keys: Record<string, string> = {};
  try {
    for (const i of intents) {
      const j = job(i);
      await runScenario(database.prisma, `http://127.0.0.1:${E2E_SANDBOX_PORT}`, j, i.scenario);
      keys[i.name] = j.intentKey;
      if (i.hoursAgo > 0) {
        const shift = `${i.hoursAgo} hours`;
        await query(
          `UPDATE effect_intents SET created_at = created_at - $2::interval, last_attempt_at = last_attempt_at - $2::interval,
                  unknown_since = unknown_since - $2::interval WHERE tenant_id = 'acme-shop' AND intent_key = $1`,
          [j.intentKey, shift],
        );
        await query(
          `UPDATE effect_attempts SET started_at = started_at - $2::interval, finished_at = finished_at - $2::interval
            WHERE intent_id = (SELECT id FROM effect_intents WHERE tenant_id = 'acme-shop' AND intent_key = $1)`,
          [j.intentKey, shift],
        );
      }
    }
  } finally {
    await database.close();
  }
  return keys;
}
