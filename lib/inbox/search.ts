import { z } from "zod";
import { oneLineText } from "@/lib/validation/text";
import type { PrismaClient } from "@/prisma/generated/client";
import type { IntentStatus } from "@/prisma/generated/enums";

/**
 * Ids of intents (any status, any tenant) with a field that starts with `q`: the intent
 * key, its object part (`invoice:inv_42:collect:v1` → `inv_42`), the workflow id, the
 * customer reference or the provider result id. Each is a range on a byte-order index
 * (migration 20261202000000_inbox_triage): every string with the prefix lies between
 * `q` and `q` + the highest code point. At most `limit` per field.
 */
export async function prefixMatches(db: PrismaClient, q: string, limit: number): Promise<string[]> {
  const hi = `${q}\u{10FFFF}`;
  const rows = await db.$queryRaw<{ id: string }[]>`
    (SELECT id FROM effect_intents WHERE intent_key COLLATE "C" >= ${q} AND intent_key COLLATE "C" < ${hi} LIMIT ${limit})
    UNION
    (SELECT id FROM effect_intents WHERE split_part(intent_key, ':', 2) COLLATE "C" >= ${q} AND split_part(intent_key, ':', 2) COLLATE "C" < ${hi} LIMIT ${limit})
    UNION
    (SELECT id FROM effect_intents WHERE workflow_id COLLATE "C" >= ${q} AND workflow_id COLLATE "C" < ${hi} LIMIT ${limit})
    UNION
    (SELECT id FROM effect_intents WHERE customer_ref COLLATE "C" >= ${q} AND customer_ref COLLATE "C" < ${hi} LIMIT ${limit})
    UNION
    (SELECT id FROM effect_intents WHERE provider_result_id COLLATE "C" >= ${q} AND provider_result_id COLLATE "C" < ${hi} LIMIT ${limit})`;
  return rows.map((r) => r.id);
}

/** The finder's query in the URL (`find`), apart from the inbox's filters. */
export const finderQuery = z.object({ find: oneLineText("Find", 1, 255).optional() });

export type FoundIntent = {
  id: string;
  tenantId: string;
  intentKey: string;
  status: IntentStatus;
  needsOperator: boolean;
  amountMinor: bigint | null;
  currency: string | null;
  recipient: string | null;
  createdAt: Date;
  provider: { name: string };
};

export const FINDER_LIMIT = 20;

/** The finder: intents of any status by the same prefix fields, newest first. */
export async function findIntents(db: PrismaClient, q: string): Promise<FoundIntent[]> {
  const ids = await prefixMatches(db, q, FINDER_LIMIT);
  if (ids.length === 0) return [];
  return db.effectIntent.findMany({
    where: { id: { in: ids } },
    select: {
      id: true,
      tenantId: true,
      intentKey: true,
      status: true,
      needsOperator: true,
      amountMinor: true,
      currency: true,
      recipient: true,
      createdAt: true,
      provider: { select: { name: true } },
    },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    take: FINDER_LIMIT,
  });
}
