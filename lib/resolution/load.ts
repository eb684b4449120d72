import type { Prisma, PrismaClient } from "@/prisma/generated/client";
import { ResolutionError } from "./errors";

/**
 * Loads the intent an action targets. The tenant comes from the record; a tenant
 * the client names must agree, and a mismatch reads as "not found" (no probing).
 */
export async function loadIntentForActor(
  tx: PrismaClient | Prisma.TransactionClient,
  intentId: string,
  tenantId?: string,
) {
  const intent = await tx.effectIntent.findUnique({ where: { id: intentId } });
  if (!intent || (tenantId !== undefined && intent.tenantId !== tenantId)) {
    throw new ResolutionError("not_found", "No such intent in this tenant.");
  }
  return intent;
}
