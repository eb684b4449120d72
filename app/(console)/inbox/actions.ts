"use server";

import { refresh } from "next/cache";
import type { z } from "zod";
import { actionFor } from "@/lib/actions/client";
import type { Actor } from "@/lib/auth/actor";
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

type BulkInput = z.infer<typeof bulkAcceptInput>;

export type BulkItemResult = {
  intentId: string;
  outcome: "applied" | "needs_approval" | "refused";
  message: string | null;
};

/**
 * Each row its own guarded resolution with its own audit event, under the same rules as
 * one proposed on the intent page; those that would need approval are skipped.
 */
async function resolveEach(
  kind: "accept_receipt" | "mark_rejected",
  input: BulkInput,
  actor: Actor,
): Promise<{ results: BulkItemResult[] }> {
  const results: BulkItemResult[] = [];
  for (const item of input.items) {
    try {
      await proposeResolution(db, actor, {
        intentId: item.intentId,
        kind,
        reason: input.reason,
        lookupId: item.lookupId,
        expectedVersion: item.expectedVersion,
        submissionKey: itemKey(input.submissionKey, item.intentId),
        onlyWithoutApproval: true,
      });
      results.push({ intentId: item.intentId, outcome: "applied", message: null });
    } catch (error) {
      // Each row answers for itself, so a refusal (or a fault) midway never hides which
      // rows were already applied.
      results.push({
        intentId: item.intentId,
        outcome:
          error instanceof ResolutionError && error.code === "needs_approval" ? "needs_approval" : "refused",
        message: describeFailure(error, `bulk ${kind} item`).body.message,
      });
    }
  }
  refresh();
  return { results };
}

/** Accepts the receipts of many intents (each a found-matching lookup) with one reason. */
export const bulkAcceptAction = actionFor("resolve")
  .metadata({ name: "bulk-accept" })
  .inputSchema(bulkAcceptInput)
  .action(({ parsedInput, ctx }) => resolveEach("accept_receipt", parsedInput, ctx.actor));

/**
 * Marks many intents rejected with one reason, each on its absent lookup while the
 * provider still keeps its key (the same input as bulk accept: a lookup per row).
 */
export const bulkMarkRejectedAction = actionFor("resolve")
  .metadata({ name: "bulk-mark-rejected" })
  .inputSchema(bulkAcceptInput)
  .action(({ parsedInput, ctx }) => resolveEach("mark_rejected", parsedInput, ctx.actor));
