import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appendAudit, auditHash, GENESIS_HASH, SYSTEM_ACTOR } from "@/lib/audit/append";
import { writeCheckpoint } from "@/lib/audit/checkpoints";
import { recomputeAuditHash, verifyAuditChain } from "@/lib/audit/verify";
import { getEnv } from "@/lib/env";
import { freshPostgres, type TestDatabase } from "./support";

// Tampering as a superuser would: with the append-only trigger disabled. The chain
// (and, for a cut tail, an exported checkpoint) must still give it away, naming the event.
let database: TestDatabase;
let url: string;
const key = "k".repeat(40);

beforeAll(async () => {
  database = await freshPostgres();
  url = (database.target as { url: string }).url;
});
afterAll(async () => database.dispose());

async function freshLog(count: number) {
  sink = mkdtempSync(path.join(tmpdir(), "reckon-sink-"));
  await database.runner.exec(
    "ALTER TABLE audit_events DISABLE TRIGGER USER; TRUNCATE audit_events; ALTER TABLE audit_events ENABLE TRIGGER USER;",
  );
  for (let i = 1; i <= count; i++) {
    await database.prisma.$transaction((tx) =>
      appendAudit(tx, { actor: SYSTEM_ACTOR, action: `test.event_${i}`, reason: `reason ${i}` }),
    );
  }
  return database.prisma.auditEvent.findMany({ orderBy: { seq: "asc" } });
}

async function asSuperuser(sql: string) {
  await database.runner.exec(
    `ALTER TABLE audit_events DISABLE TRIGGER USER; ${sql}; ALTER TABLE audit_events ENABLE TRIGGER USER;`,
  );
}

// The checkpoint sink of this file's runs: a fresh folder, emptied with each fresh log.
let sink = mkdtempSync(path.join(tmpdir(), "reckon-sink-"));

function auditVerify(...args: string[]) {
  const run = spawnSync(process.execPath, ["--import", "tsx", "scripts/audit-verify.ts", ...args], {
    env: { ...process.env, DATABASE_URL: url, AUDIT_CHECKPOINT_KEY: key, AUDIT_CHECKPOINT_DIR: sink },
    encoding: "utf8",
  });
  return { code: run.status, out: run.stdout + run.stderr };
}

describe("npm run audit:verify", () => {
  it("passes an intact chain", async () => {
    await freshLog(5);
    const r = auditVerify();
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/OK: 5 events/);
  });

  it("names an altered event", async () => {
    const rows = await freshLog(6);
    await asSuperuser(`UPDATE audit_events SET reason = 'nothing to see' WHERE seq = ${rows[3]!.seq}`);
    const r = auditVerify();
    expect(r.code).toBe(1);
    expect(r.out).toContain(`BROKEN at event #${rows[3]!.seq}`);
    expect(r.out).toMatch(/altered/);
  });

  it("names the event after a removed one", async () => {
    const rows = await freshLog(6);
    await asSuperuser(`DELETE FROM audit_events WHERE seq = ${rows[2]!.seq}`);
    const report = await verifyAuditChain(database.prisma);
    expect(report.firstBreak).toMatchObject({ seq: String(rows[3]!.seq), kind: "broken_link" });
    expect(auditVerify().code).toBe(1);
  });

  it("names an inserted event", async () => {
    const rows = await freshLog(4);
    await asSuperuser(
      `INSERT INTO audit_events (seq, occurred_at, actor_roles, action, prev_hash, hash) VALUES (${rows[1]!.seq} * 1000 + 1, now(), '{}', 'forged', '${rows[3]!.hash}', '${"f".repeat(64)}')`,
    );
    const report = await verifyAuditChain(database.prisma);
    expect(report.ok).toBe(false);
    expect(report.firstBreak?.seq).toBe(String(rows[1]!.seq * 1000n + 1n));
  });

  it("catches a cut tail against an exported checkpoint, which the chain alone cannot", async () => {
    const rows = await freshLog(8);
    const file = path.join(mkdtempSync(path.join(tmpdir(), "reckon-cp-")), "checkpoint.json");
    expect(auditVerify("--export-checkpoint", file).code).toBe(0);
    await asSuperuser(`DELETE FROM audit_events WHERE seq >= ${rows[6]!.seq}`);
    // The remaining chain is internally consistent…
    expect(auditVerify().code).toBe(0);
    // …but not against what the checkpoint saw.
    const r = auditVerify("--checkpoint", file);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`Event #${rows[7]!.seq}, the head when the checkpoint was taken`);
  });

  it("refuses a checkpoint signed with another key", async () => {
    await freshLog(3);
    const file = path.join(mkdtempSync(path.join(tmpdir(), "reckon-cp-")), "checkpoint.json");
    expect(auditVerify("--export-checkpoint", file).code).toBe(0);
    const other = spawnSync(
      process.execPath,
      ["--import", "tsx", "scripts/audit-verify.ts", "--checkpoint", file],
      {
        env: {
          ...process.env,
          DATABASE_URL: url,
          AUDIT_CHECKPOINT_KEY: "z".repeat(40),
          AUDIT_CHECKPOINT_DIR: sink,
        },
        encoding: "utf8",
      },
    );
    expect(other.status).toBe(1);
    expect(other.stdout + other.stderr).toMatch(/signature does not match/);
  });

  it("catches an edited event re-hashed without the key, and every later one re-hashed too", async () => {
    const rows = await freshLog(6);
    // What someone who can write the table (but holds no key) can do: edit an event and
    // recompute every hash after it with plain sha256, so every link still holds.
    await asSuperuser(`UPDATE audit_events SET reason = 'nothing to see' WHERE seq = ${rows[2]!.seq}`);
    const edited = await database.prisma.auditEvent.findMany({ orderBy: { seq: "asc" } });
    let prev = edited[1]!.hash;
    for (const row of edited.slice(2)) {
      const forged = recomputeAuditHash({ ...row, prevHash: prev, hashVersion: 1 }, "no key");
      await asSuperuser(
        `UPDATE audit_events SET prev_hash = '${prev}', hash = '${forged}', hash_version = 1 WHERE seq = ${row.seq}`,
      );
      prev = forged;
    }
    const report = await verifyAuditChain(database.prisma);
    expect(report.firstBreak).toMatchObject({ seq: String(rows[2]!.seq), kind: "unsealed" });
    // Kept as keyed events, the forged hashes simply do not match the seal.
    await asSuperuser(`UPDATE audit_events SET hash_version = 2 WHERE seq >= ${rows[2]!.seq}`);
    expect((await verifyAuditChain(database.prisma)).firstBreak).toMatchObject({
      seq: String(rows[2]!.seq),
      kind: "altered",
    });
  });

  it("keeps verifying a chain begun before it was keyed, and the first keyed event seals it", async () => {
    await freshLog(0);
    // Legacy events, as written before the migration: plain sha256, version 1.
    let prev = GENESIS_HASH;
    for (let i = 1; i <= 3; i++) {
      const at = new Date(Date.UTC(2026, 10, 1, 0, i));
      const row = {
        occurredAt: at,
        actorId: null,
        actorEmail: null,
        actorRoles: [],
        action: `legacy.${i}`,
        tenantId: null,
        targetType: null,
        targetId: null,
        reason: null,
        evidenceRef: null,
        beforeStatus: null,
        afterStatus: null,
        requestId: null,
        details: null,
      };
      const hash = auditHash(prev, { ...row, occurredAt: at.toISOString() }, 1, "unused");
      await database.prisma.auditEvent.create({
        data: { ...row, details: undefined, prevHash: prev, hash, hashVersion: 1 },
      });
      prev = hash;
    }
    await database.prisma.$transaction((tx) => appendAudit(tx, { actor: SYSTEM_ACTOR, action: "keyed.1" }));
    const report = await verifyAuditChain(database.prisma);
    expect(report).toMatchObject({ ok: true, count: 4, legacyCount: 3 });
    // A legacy event edited and re-hashed: its successors' links break up to the keyed one.
    const rows = await database.prisma.auditEvent.findMany({ orderBy: { seq: "asc" } });
    const forged = recomputeAuditHash({ ...rows[2]!, reason: "rewritten" }, "unused");
    await asSuperuser(
      `UPDATE audit_events SET reason = 'rewritten', hash = '${forged}' WHERE seq = ${rows[2]!.seq}`,
    );
    expect((await verifyAuditChain(database.prisma)).firstBreak).toMatchObject({
      seq: String(rows[3]!.seq),
      kind: "broken_link",
    });
  });

  it("writes checkpoints to the sink and reports against the newest, which bounds a cut tail", async () => {
    const rows = await freshLog(5);
    const o = { dir: sink, checkpointKey: key, chainKey: getEnv().auditChainKey };
    const first = await writeCheckpoint(database.prisma, o);
    expect(first).toMatchObject({ written: { headSeq: String(rows[4]!.seq), count: 5 } });
    expect(await writeCheckpoint(database.prisma, o)).toHaveProperty("unchanged");
    await database.prisma.$transaction((tx) => appendAudit(tx, { actor: SYSTEM_ACTOR, action: "later" }));
    // Incremental: only what came after the newest checkpoint is verified and sealed into the next.
    const second = await writeCheckpoint(database.prisma, o);
    expect(second).toMatchObject({ written: { count: 6 } });
    expect(readdirSync(sink).filter((n) => n.endsWith(".json"))).toHaveLength(2);
    expect(auditVerify().out).toMatch(/Latest checkpoint .*Holds everything the checkpoint/);

    // The tail is cut below the newest checkpoint: the chain alone cannot tell, the sink can.
    await asSuperuser(`DELETE FROM audit_events WHERE seq > ${rows[3]!.seq}`);
    const r = auditVerify();
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/BROKEN against the latest checkpoint .*is gone: the newest events were deleted/);
    expect(await writeCheckpoint(database.prisma, o)).toHaveProperty("mismatch");
  });
});
