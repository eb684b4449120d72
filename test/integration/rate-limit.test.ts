import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/lib/db/connect";
import { takeProviderToken } from "@/lib/providers/rate-limit";
import { freshPostgres, type TestDatabase } from "./support";

// The provider's rate limit holds across processes: two separate connection pools (as
// two reconcilers, or a console and a reconciler, would have) draw from one bucket.
let database: TestDatabase;
let second: Database;
beforeAll(async () => {
  database = await freshPostgres();
  second = openDatabase(database.target);
});
afterAll(async () => {
  await second.close();
  await database.dispose();
});

describe("the provider rate limit", () => {
  it("hands out no more than the rate allows, however many callers ask at once", async () => {
    const rate = 10;
    const callers = 35;
    const started = Date.now();
    const takenAt: number[] = [];
    await Promise.all(
      Array.from({ length: callers }, async (_, i) => {
        await takeProviderToken(
          i % 2 ? database.prisma : second.prisma,
          "pay",
          rate,
          (ms) => new Promise((r) => setTimeout(r, ms / 4)),
        );
        takenAt.push(Date.now() - started);
      }),
    );
    // A full bucket gives `rate` at once; the rest come at `rate` per second.
    expect(Math.max(...takenAt)).toBeGreaterThanOrEqual(((callers - rate) / rate) * 1000 - 100);
    // In no one-second window were more than 2 × rate handed out (the burst plus the refill).
    takenAt.sort((a, b) => a - b);
    for (let i = 0; i < takenAt.length; i++) {
      const inWindow = takenAt.filter((t) => t >= takenAt[i]! && t < takenAt[i]! + 1000).length;
      expect(inWindow).toBeLessThanOrEqual(2 * rate);
    }
  });
});
