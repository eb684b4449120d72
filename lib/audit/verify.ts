import { createHmac, timingSafeEqual } from "node:crypto";
import type { AuditEvent, PrismaClient } from "@/prisma/generated/client";
import { canonicalJson } from "@/lib/digest";
import { getEnv } from "@/lib/env";
import { auditHash, GENESIS_HASH } from "./append";

export type ChainBreak = {
  seq: string;
  kind: "altered" | "broken_link" | "unsealed";
  /** What an auditor should read. */
  message: string;
};

export type VerifyReport = {
  ok: boolean;
  count: number;
  head: { seq: string; hash: string } | null;
  firstBreak: ChainBreak | null;
  /** Events sealed without the key (written before the chain was keyed). */
  legacyCount: number;
};

/** The hash a row should carry, recomputed from its stored content. */
export function recomputeAuditHash(row: AuditEvent, key: string): string {
  return auditHash(
    row.prevHash,
    {
      occurredAt: row.occurredAt.toISOString(),
      actorId: row.actorId,
      actorEmail: row.actorEmail,
      actorRoles: row.actorRoles,
      action: row.action,
      tenantId: row.tenantId,
      targetType: row.targetType,
      targetId: row.targetId,
      reason: row.reason,
      evidenceRef: row.evidenceRef,
      beforeStatus: row.beforeStatus,
      afterStatus: row.afterStatus,
      requestId: row.requestId,
      details: row.details,
    },
    row.hashVersion === 1 ? 1 : 2,
    key,
  );
}

/** Where a verification starts: the chain's beginning, or a checkpoint already verified. */
export type VerifyFrom = { afterSeq: bigint; prevHash: string; count: number; keyed: boolean };

/**
 * Walks the chain in order (from the start, or on from a verified checkpoint) and names
 * the first event where it breaks: a row whose content no longer matches its hash
 * (altered — or, for a keyed event, re-hashed by someone without the key), whose link to
 * the row before does not hold (a row removed, reordered or inserted before it), or an
 * unkeyed event after keyed ones began (written by someone without the key).
 */
export async function verifyAuditChain(
  db: PrismaClient,
  options: { key?: string; onProgress?: (checked: number) => void; from?: VerifyFrom } = {},
): Promise<VerifyReport> {
  const key = options.key ?? getEnv().auditChainKey;
  let prev = options.from?.prevHash ?? GENESIS_HASH;
  let count = options.from?.count ?? 0;
  let keyed = options.from?.keyed ?? false;
  let legacyCount = 0;
  let last: { seq: bigint; hash: string } | null = options.from
    ? { seq: options.from.afterSeq, hash: options.from.prevHash }
    : null;
  let after: bigint | null = options.from?.afterSeq ?? null;
  const broken = (row: AuditEvent, kind: ChainBreak["kind"], message: string): VerifyReport => ({
    ok: false,
    count,
    legacyCount,
    head: last && { seq: String(last.seq), hash: last.hash },
    firstBreak: { seq: String(row.seq), kind, message },
  });
  for (;;) {
    const page: AuditEvent[] = await db.auditEvent.findMany({
      where: after === null ? {} : { seq: { gt: after } },
      orderBy: { seq: "asc" },
      take: 1000,
    });
    if (page.length === 0) break;
    for (const row of page) {
      if (row.prevHash !== prev)
        return broken(
          row,
          "broken_link",
          `Event #${row.seq} (${row.action}) does not follow event #${last?.seq ?? "(start)"}: an event before it was removed, reordered or inserted.`,
        );
      if (row.hashVersion === 1 && keyed)
        return broken(
          row,
          "unsealed",
          `Event #${row.seq} (${row.action}) is not sealed with the chain key, though events before it are: it was written by someone without the key.`,
        );
      if (recomputeAuditHash(row, key) !== row.hash)
        return broken(
          row,
          "altered",
          `Event #${row.seq} (${row.action}) was altered: its content no longer matches its ${row.hashVersion === 1 ? "hash" : "seal"}.`,
        );
      if (row.hashVersion !== 1) keyed = true;
      else legacyCount += 1;
      prev = row.hash;
      last = { seq: row.seq, hash: row.hash };
      count += 1;
    }
    after = page.at(-1)!.seq;
    options.onProgress?.(count);
  }
  return {
    ok: true,
    count,
    legacyCount,
    head: last && { seq: String(last.seq), hash: last.hash },
    firstBreak: null,
  };
}

export type Checkpoint = { headSeq: string; headHash: string; count: number; at: string; signature: string };

function sign(body: Omit<Checkpoint, "signature">, key: string): string {
  return createHmac("sha256", key).update(canonicalJson(body)).digest("hex");
}

/** The chain head, count and time, signed with the configured key. Kept outside, it proves the tail was not cut. */
export function makeCheckpoint(report: VerifyReport, key: string, at = new Date()): Checkpoint {
  const body = {
    headSeq: report.head?.seq ?? "0",
    headHash: report.head?.hash ?? GENESIS_HASH,
    count: report.count,
    at: at.toISOString(),
  };
  return { ...body, signature: sign(body, key) };
}

export type CheckpointVerdict = { ok: true } | { ok: false; message: string };

/** Does today's chain still contain what an exported checkpoint saw? */
export async function checkAgainstCheckpoint(
  db: PrismaClient,
  checkpoint: Checkpoint,
  key: string,
  /** A full verification's report, to compare counts; without it only the head is checked. */
  report?: VerifyReport,
): Promise<CheckpointVerdict> {
  const { signature, ...body } = checkpoint;
  const expected = Buffer.from(sign(body, key), "hex");
  const given = Buffer.from(signature ?? "", "hex");
  if (expected.length !== given.length || !timingSafeEqual(expected, given))
    return {
      ok: false,
      message: "The checkpoint's signature does not match: it was not made with this key, or it was edited.",
    };
  if (checkpoint.count === 0) return { ok: true };
  const head = await db.auditEvent.findUnique({ where: { seq: BigInt(checkpoint.headSeq) } });
  if (!head)
    return {
      ok: false,
      message: `Event #${checkpoint.headSeq}, the head when the checkpoint was taken (${checkpoint.at}), is gone: the newest events were deleted.`,
    };
  if (head.hash !== checkpoint.headHash)
    return {
      ok: false,
      message: `Event #${checkpoint.headSeq} is not the event the checkpoint saw: history was rewritten.`,
    };
  if (report && report.count < checkpoint.count)
    return {
      ok: false,
      message: `The log has ${report.count} events; the checkpoint saw ${checkpoint.count}.`,
    };
  return { ok: true };
}
