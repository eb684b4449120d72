import type { Prisma, PrismaClient, Reconciliation } from "@/prisma/generated/client";

/**
 * The reconciler's work queue in PostgreSQL (table reconciliations, one row per intent).
 * Any number of reconcilers pick from it at once: a pick locks due rows with
 * FOR UPDATE SKIP LOCKED and leases them in the same statement, so no two take one
 * intent; a reconciler that dies leaves a lease that runs out, and the next one picks
 * the intent up. Nothing here changes an intent: that is the guarded services' job.
 */

/**
 * Takes up unknown intents that a policy lets the reconciler work on, and takes them up
 * again when they are unknown again with nobody on them (a policy switched back on, or
 * an intent a person resolved that a later retry left unknown once more). Escalated
 * intents (needs operator) stay with people. Returns how many rows it added or revived.
 * It reads the whole unknown backlog, so the loop runs it every so often, not every pass.
 */
export async function enqueueUnknown(db: PrismaClient, now: Date): Promise<number> {
  return db.$executeRaw`
    INSERT INTO reconciliations AS r (intent_id, tenant_id, provider_id, state, deadline, next_at, created_at, updated_at)
    SELECT i.id, i.tenant_id, i.provider_id, 'active',
           CASE WHEN p.supports_idempotency AND p.key_retention_seconds IS NOT NULL
                THEN COALESCE(i.last_attempt_at, i.created_at) + make_interval(secs => p.key_retention_seconds)
           END,
           ${now}, ${now}, ${now}
      FROM effect_intents i
      JOIN provider_profiles p ON p.id = i.provider_id
      JOIN reconcile_policies rp ON rp.tenant_id = i.tenant_id AND rp.provider_id = i.provider_id
     WHERE i.status = 'unknown' AND NOT i.needs_operator AND rp.mode <> 'off'
       AND NOT EXISTS (SELECT 1 FROM reconciliations x WHERE x.intent_id = i.id AND x.state = 'active')
    ON CONFLICT (intent_id) DO UPDATE
       SET state = 'active', next_at = EXCLUDED.next_at, deadline = EXCLUDED.deadline, tries = 0,
           leased_by = NULL, lease_until = NULL, updated_at = EXCLUDED.updated_at
     WHERE r.state <> 'active'`;
}

/** Leases up to `limit` due rows to `owner`, the nearest provider deadline first. */
export async function pickDue(
  db: PrismaClient,
  owner: string,
  limit: number,
  leaseMs: number,
  now: Date,
): Promise<Reconciliation[]> {
  const until = new Date(now.getTime() + leaseMs);
  const rows = await db.$queryRaw<{ intent_id: string }[]>`
    WITH due AS (
      SELECT intent_id FROM reconciliations
       WHERE state = 'active' AND next_at <= ${now} AND (lease_until IS NULL OR lease_until < ${now})
       ORDER BY deadline ASC NULLS LAST, next_at ASC
       LIMIT ${limit}
       FOR UPDATE SKIP LOCKED)
    UPDATE reconciliations r
       SET leased_by = ${owner}, lease_until = ${until}, updated_at = ${now}
      FROM due WHERE r.intent_id = due.intent_id
    RETURNING r.intent_id`;
  if (rows.length === 0) return [];
  const picked = await db.reconciliation.findMany({
    where: { intentId: { in: rows.map((r) => r.intent_id) }, leasedBy: owner },
  });
  // The same order as picked: nearest deadline first.
  return picked.sort(
    (a, b) =>
      (a.deadline?.getTime() ?? Infinity) - (b.deadline?.getTime() ?? Infinity) ||
      a.nextAt.getTime() - b.nextAt.getTime(),
  );
}

/**
 * Records what became of a leased row and lets the lease go. Only the lease holder
 * may: a reconciler whose lease ran out (and was taken over) changes nothing here.
 */
export async function finish(
  db: PrismaClient,
  row: Pick<Reconciliation, "intentId">,
  owner: string,
  data: Prisma.ReconciliationUpdateManyMutationInput,
  now: Date,
): Promise<boolean> {
  const { count } = await db.reconciliation.updateMany({
    where: { intentId: row.intentId, leasedBy: owner },
    data: { ...data, leasedBy: null, leaseUntil: null, lastTriedAt: now, updatedAt: now },
  });
  return count === 1;
}

/**
 * Renews this reconciler's lease on one row before it looks up or acts, and says whether
 * it still holds it: a batch that outlasts its lease (a slow provider) must not work on
 * what another reconciler has taken over meanwhile.
 */
export async function holdLease(
  db: PrismaClient,
  row: Pick<Reconciliation, "intentId">,
  owner: string,
  leaseMs: number,
  now: Date,
): Promise<boolean> {
  const { count } = await db.reconciliation.updateMany({
    where: { intentId: row.intentId, leasedBy: owner, leaseUntil: { gt: now } },
    data: { leaseUntil: new Date(now.getTime() + leaseMs) },
  });
  return count === 1;
}
