import type { Prisma, PrismaClient } from "@/prisma/generated/client";

/**
 * Paces calls to a provider to its published rate limit across every process that
 * calls it (console instances, reconcilers): one token bucket per provider, kept in
 * the database and drawn from in one statement. A caller without a token waits for
 * the next one instead of earning a 429.
 */
export async function takeProviderToken(
  db: PrismaClient | Prisma.TransactionClient,
  providerId: string,
  perSecond: number,
  sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<void> {
  const rate = Math.max(perSecond, 0.001);
  for (;;) {
    // Refill by the time passed, then take one if there is one. The row lock makes
    // concurrent takers queue on the bucket, so no token is handed out twice.
    const taken = await db.$queryRaw<{ tokens: number }[]>`
      INSERT INTO provider_rate_buckets AS b (provider_id, tokens, refilled_at)
      VALUES (${providerId}, ${rate - 1}, clock_timestamp())
      ON CONFLICT (provider_id) DO UPDATE
         SET tokens = LEAST(${rate}::float8, b.tokens + EXTRACT(EPOCH FROM clock_timestamp() - b.refilled_at) * ${rate}::float8) - 1,
             refilled_at = clock_timestamp()
       WHERE LEAST(${rate}::float8, b.tokens + EXTRACT(EPOCH FROM clock_timestamp() - b.refilled_at) * ${rate}::float8) >= 1
      RETURNING tokens`;
    if (taken.length === 1) return;
    await sleep(Math.ceil(1000 / rate));
  }
}
