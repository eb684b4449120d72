import { db } from "@/lib/db";
import { json, mutation } from "@/lib/http/mutation";
import { sha256Hex } from "@/lib/ledger/digest";
import { ResolutionError } from "@/lib/resolution/errors";
import { proposeResolution } from "@/lib/resolution/resolve";
import { bulkAcceptInput } from "@/lib/resolution/schemas";

/** A per-item submission key derived from the bulk one: a retried bulk run applies nothing twice. */
function itemKey(bulkKey: string, intentId: string): string {
  const h = sha256Hex(`${bulkKey}:${intentId}`);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/**
 * Accepts the receipts of many intents with one reason. Each is its own guarded
 * resolution with its own audit event; those that would need approval are skipped.
 */
export const POST = mutation(["operator"], bulkAcceptInput, async ({ input, actor }) => {
  const results = [];
  for (const item of input.items) {
    try {
      const r = await proposeResolution(db, actor, {
        intentId: item.intentId,
        kind: "accept_receipt",
        reason: input.reason,
        lookupId: item.lookupId,
        expectedVersion: item.expectedVersion,
        submissionKey: itemKey(input.submissionKey, item.intentId),
        onlyWithoutApproval: true,
      });
      results.push({ intentId: item.intentId, outcome: r.applied ? "applied" : "pending", message: null });
    } catch (error) {
      if (!(error instanceof ResolutionError)) throw error;
      results.push({
        intentId: item.intentId,
        outcome: error.code === "needs_approval" ? "needs_approval" : "refused",
        message: error.message,
      });
    }
  }
  return json({ results });
});
