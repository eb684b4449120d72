import { getEnv } from "@/lib/env";
import { afterEach, describe, expect, it } from "vitest";
import { appendAudit, GENESIS_HASH, SYSTEM_ACTOR } from "@/lib/audit/append";
import { recomputeAuditHash } from "@/lib/audit/verify";
import { freshPglite, freshPostgres, type TestDatabase } from "./support";

const cleanup: TestDatabase[] = [];
afterEach(async () => {
  await Promise.all(cleanup.splice(0).map((d) => d.dispose()));
});

const kinds = { postgres: freshPostgres, pglite: () => freshPglite() };

for (const [kind, open] of Object.entries(kinds)) {
  describe(`audit_events on ${kind}`, () => {
    it("refuses UPDATE, DELETE and TRUNCATE with a clear error, and keeps the rows", async () => {
      const database = await open();
      cleanup.push(database);
      const { prisma, runner } = database;
      await prisma.$transaction((tx) => appendAudit(tx, { actor: SYSTEM_ACTOR, action: "test.first" }));
      await prisma.$transaction((tx) => appendAudit(tx, { actor: SYSTEM_ACTOR, action: "test.second" }));

      await expect(runner.exec("DELETE FROM audit_events")).rejects.toThrow(
        /audit_events is append-only: DELETE is not allowed/,
      );
      await expect(runner.exec("UPDATE audit_events SET reason = 'rewritten'")).rejects.toThrow(
        /audit_events is append-only: UPDATE is not allowed/,
      );
      await expect(runner.exec("TRUNCATE audit_events")).rejects.toThrow(
        /audit_events is append-only: TRUNCATE is not allowed/,
      );
      await expect(prisma.auditEvent.deleteMany({})).rejects.toThrow(/append-only/);

      const rows = await prisma.auditEvent.findMany({ orderBy: { seq: "asc" } });
      expect(rows.map((r) => r.action)).toEqual(["test.first", "test.second"]);
      expect(rows.every((r) => r.reason === null)).toBe(true);
    });

    it("chains each event to the one before it", async () => {
      const database = await open();
      cleanup.push(database);
      const { prisma } = database;
      // Concurrent writers: the chain lock makes them append one after another.
      await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          prisma.$transaction((tx) =>
            appendAudit(tx, { actor: SYSTEM_ACTOR, action: `test.concurrent.${i}`, details: { i } }),
          ),
        ),
      );
      const rows = await prisma.auditEvent.findMany({ orderBy: { seq: "asc" } });
      expect(rows).toHaveLength(12);
      let prev = GENESIS_HASH;
      for (const row of rows) {
        expect(row.prevHash).toBe(prev);
        const recomputed = recomputeAuditHash(row, getEnv().auditChainKey);
        expect(row.hash).toBe(recomputed);
        prev = row.hash;
      }
    });

    it("rolls the audit event back with the change it records", async () => {
      const database = await open();
      cleanup.push(database);
      const { prisma } = database;
      await expect(
        prisma.$transaction(async (tx) => {
          await appendAudit(tx, { actor: SYSTEM_ACTOR, action: "test.doomed" });
          throw new Error("the change failed");
        }),
      ).rejects.toThrow("the change failed");
      expect(await prisma.auditEvent.count()).toBe(0);
    });
  });
}
