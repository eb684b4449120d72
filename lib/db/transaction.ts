import type { Prisma, PrismaClient } from "@/prisma/generated/client";
import { ContentionError, isRetryableConflict, isTransactionTimeout } from "./errors";

export type Tx = Prisma.TransactionClient;

const ATTEMPTS = 6;

/**
 * Runs one interactive transaction, again (a bounded number of times, with jitter)
 * when PostgreSQL rolled it back for a deadlock or a serialization failure, or when
 * it could not get a connection in time under load. The body must only touch the
 * database: a rolled-back attempt leaves nothing behind. Contention that outlasts the
 * retries becomes a ContentionError (a clear "try again"), never a 500.
 */
export async function transaction<T>(db: PrismaClient, body: (tx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      // Generous limits: under a burst, a transaction may queue for a connection and then
      // for a row lock behind others doing the same; that is a wait, not a failure.
      return await db.$transaction(body, { maxWait: 15_000, timeout: 30_000 });
    } catch (error) {
      if (!isRetryableConflict(error) && !isTransactionTimeout(error)) throw error;
      if (attempt >= ATTEMPTS) throw new ContentionError();
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * 2 ** attempt));
    }
  }
}
