import type { Prisma } from "@/prisma/generated/client";
import type { Role } from "@/prisma/generated/enums";
import { createHmac } from "node:crypto";
import { getEnv } from "@/lib/env";
import { canonicalJson, sha256Hex } from "@/lib/digest";

export const GENESIS_HASH = "0".repeat(64);

// Every audit writer takes this transaction-scoped lock before reading the chain
// head, so concurrent transactions append one after another and the chain never forks.
const AUDIT_CHAIN_LOCK_ID = 4_242_001;

export type AuditActor = { id: string | null; email: string | null; roles: Role[] };

export const SYSTEM_ACTOR: AuditActor = { id: null, email: null, roles: [] };

export type AuditInput = {
  actor: AuditActor;
  action: string;
  tenantId?: string | null;
  targetType?: string | null;
  targetId?: string | null;
  reason?: string | null;
  evidenceRef?: string | null;
  beforeStatus?: string | null;
  afterStatus?: string | null;
  requestId?: string | null;
  details?: Prisma.InputJsonValue | null;
  occurredAt?: Date;
};

/** The fields a row's hash covers, in the shape verification recomputes them from. */
export type AuditContent = {
  occurredAt: string;
  actorId: string | null;
  actorEmail: string | null;
  actorRoles: string[];
  action: string;
  tenantId: string | null;
  targetType: string | null;
  targetId: string | null;
  reason: string | null;
  evidenceRef: string | null;
  beforeStatus: string | null;
  afterStatus: string | null;
  requestId: string | null;
  details: unknown;
};

/** How an event is sealed: 1 plain sha256 (the chain's first, unkeyed events), 2 an HMAC with the chain key. */
export type HashVersion = 1 | 2;
export const CURRENT_HASH_VERSION: HashVersion = 2;

/**
 * An event's hash over the previous event's hash and its own canonical content. Keyed
 * (version 2), it cannot be recomputed by someone who can write the table but does not
 * hold AUDIT_CHAIN_KEY, so an edited event cannot be re-hashed into a valid chain.
 */
export function auditHash(
  prevHash: string,
  content: AuditContent,
  version: HashVersion,
  key: string,
): string {
  const text = `${prevHash}\n${canonicalJson(content)}`;
  return version === 1 ? sha256Hex(text) : createHmac("sha256", key).update(text).digest("hex");
}

/**
 * What PostgreSQL will store, so what is hashed is what verification later reads back:
 * text cannot hold a NUL or a lone UTF-16 surrogate (the driver would turn it into
 * U+FFFD after the hash was taken, and the event would read as altered forever).
 */
function storable<T>(value: T): T {
  if (typeof value === "string") return value.toWellFormed().replaceAll("\u0000", "\uFFFD") as T;
  if (Array.isArray(value)) return value.map(storable) as T;
  if (value !== null && typeof value === "object" && !(value instanceof Date))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [storable(k), storable(v)])) as T;
  return value;
}

function contentOf(input: AuditInput, occurredAt: Date): AuditContent {
  return storable({
    occurredAt: occurredAt.toISOString(),
    actorId: input.actor.id,
    actorEmail: input.actor.email,
    actorRoles: [...input.actor.roles].sort(),
    action: input.action,
    tenantId: input.tenantId ?? null,
    targetType: input.targetType ?? null,
    targetId: input.targetId ?? null,
    reason: input.reason ?? null,
    evidenceRef: input.evidenceRef ?? null,
    beforeStatus: input.beforeStatus ?? null,
    afterStatus: input.afterStatus ?? null,
    requestId: input.requestId ?? null,
    details: input.details ?? null,
  });
}

/**
 * Appends audit events inside the caller's transaction, so each exists exactly when
 * the change it records does. Call it last in the transaction, after every row lock:
 * the chain lock is then held only for the head read and the insert, and no
 * transaction ever waits for a row while holding it (so it cannot be part of a deadlock).
 */
export async function appendAuditEvents(tx: Prisma.TransactionClient, inputs: readonly AuditInput[]) {
  if (inputs.length === 0) return;
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${AUDIT_CHAIN_LOCK_ID})`;
  const head = await tx.auditEvent.findFirst({ orderBy: { seq: "desc" }, select: { hash: true } });
  let prevHash = head?.hash ?? GENESIS_HASH;
  const key = getEnv().auditChainKey;
  const rows: Prisma.AuditEventCreateManyInput[] = [];
  for (const input of inputs) {
    const occurredAt = input.occurredAt ?? new Date();
    const content = contentOf(input, occurredAt);
    const hash = auditHash(prevHash, content, CURRENT_HASH_VERSION, key);
    rows.push({
      ...content,
      actorRoles: content.actorRoles as Role[],
      occurredAt,
      details: (content.details ?? undefined) as Prisma.InputJsonValue | undefined,
      prevHash,
      hash,
      hashVersion: CURRENT_HASH_VERSION,
    });
    prevHash = hash;
  }
  // One statement keeps the rows in the chain's order (seq follows insertion order).
  await tx.auditEvent.createMany({ data: rows });
}

/** Appends one audit event inside the caller's transaction (see appendAuditEvents). */
export async function appendAudit(tx: Prisma.TransactionClient, input: AuditInput) {
  await appendAuditEvents(tx, [input]);
}
