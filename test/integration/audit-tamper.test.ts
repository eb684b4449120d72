import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appendAudit, SYSTEM_ACTOR } from "@/lib/audit/append";
import { verifyAuditChain } from "@/lib/audit/verify";
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

function auditVerify(...args: string[]) {
  const run = spawnSync(process.execPath, ["--import", "tsx", "scripts/audit-verify.ts", ...args], {
    env: { ...process.env, DATABASE_URL: url, AUDIT_CHECKPOINT_KEY: key },
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
        env: { ...process.env, DATABASE_URL: url, AUDIT_CHECKPOINT_KEY: "z".repeat(40) },
        encoding: "utf8",
      },
    );
    expect(other.status).toBe(1);
    expect(other.stdout + other.stderr).toMatch(/signature does not match/);
  });
});
