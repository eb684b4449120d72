"use server";

import { refresh } from "next/cache";
import { actionFor } from "@/lib/actions/client";
import { db } from "@/lib/db";
import { describeFailure } from "@/lib/http/errors";
import { sha256Hex } from "@/lib/digest";
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
export const bulkAcceptAction = actionFor("resolve")
  .metadata({ name: "bulk-accept" })
  .inputSchema(bulkAcceptInput)
  .action(async ({ parsedInput, ctx }) => {
    const results: {
      intentId: string;
      outcome: "applied" | "needs_approval" | "refused";
      message: string | null;
    }[] = [];
    for (const item of parsedInput.items) {
      try {
        await proposeResolution(db, ctx.actor, {
          intentId: item.intentId,
          kind: "accept_receipt",
          reason: parsedInput.reason,
          lookupId: item.lookupId,
          expectedVersion: item.expectedVersion,
          submissionKey: itemKey(parsedInput.submissionKey, item.intentId),
          onlyWithoutApproval: true,
        });
        results.push({ intentId: item.intentId, outcome: "applied", message: null });
      } catch (error) {
        // Each row answers for itself, so a refusal (or a fault) midway never hides which
        // rows were already applied.
        results.push({
          intentId: item.intentId,
          outcome:
            error instanceof ResolutionError && error.code === "needs_approval"
              ? "needs_approval"
              : "refused",
          message: describeFailure(error, "bulk accept item").body.message,
        });
      }
    }
    refresh();
    return { results };
  });
