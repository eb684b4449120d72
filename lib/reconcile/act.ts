import type { PrismaClient, Reconciliation } from "@/prisma/generated/client";
import type { LookupMethod } from "@/lib/providers/types";
import { proposeResolution } from "@/lib/resolution/resolve";
import type { Decision } from "./decide";
import type { finish } from "./queue";
import { reconcilerGuard } from "./guard";
import { redispatch } from "./redispatch";
import type { PassCounts, ReconcilerOptions } from "./types";

// Carrying out a decision through the same guarded services a person's action uses.

export type Outcome = Exclude<keyof PassCounts, "picked">;

/**
 * The lookup that can settle it: by idempotency key where the provider keeps keys; else
 * by the provider's id for it, if an attempt got one; else by what was sent (recipient,
 * template, time).
 */
export async function methodFor(
  db: PrismaClient,
  provider: { lookupMethods: LookupMethod[] },
  intent: { id: string; providerResultId: string | null },
): Promise<LookupMethod | undefined> {
  const has = (m: LookupMethod) => provider.lookupMethods.includes(m);
  if (has("idempotency_key")) return "idempotency_key";
  if (has("provider_request_id")) {
    const known =
      intent.providerResultId ??
      (await db.effectAttempt.findFirst({
        where: { intentId: intent.id, providerRequestId: { not: null } },
      }));
    if (known) return "provider_request_id";
  }
  if (has("domain_attributes")) return "domain_attributes";
  return provider.lookupMethods[0];
}

export async function carryOut(
  o: ReconcilerOptions,
  row: Reconciliation,
  intentId: string,
  version: number,
  lookupId: string | null,
  decision: Decision,
  seen: Parameters<typeof finish>[3],
  done: (data: Parameters<typeof finish>[3]) => Promise<boolean>,
  now: () => Date,
): Promise<Outcome> {
  switch (decision.action) {
    case "confirm":
    case "escalate": {
      await proposeResolution(
        o.db,
        o.actor,
        {
          intentId,
          kind: decision.action === "confirm" ? "accept_receipt" : "escalate",
          reason: decision.reason,
          lookupId,
          expectedVersion: version,
          // One per lookup (or intent version): a reconciler that dies after committing and runs
          // again replays its own submission, never doubles it.
          submissionKey: lookupId ? `reconciler:${lookupId}` : `reconciler:${intentId}:v${version}`,
          onlyWithoutApproval: true,
          guard: reconcilerGuard(decision.action),
        },
        now(),
      );
      const confirmed = decision.action === "confirm";
      await done({
        ...seen,
        state: confirmed ? "settled" : "escalated",
        lastAction: confirmed ? "confirmed" : "escalated",
        lastReason: decision.reason,
      });
      return confirmed ? "confirmed" : "escalated";
    }
    case "retry_later":
      await done({ ...seen, nextAt: decision.at, lastAction: "retry_later", lastReason: decision.reason });
      return "retryLater";
    case "redispatch": {
      if (!lookupId) throw new Error("a redispatch rests on a lookup");
      const provider = await o.db.providerProfile.findUniqueOrThrow({
        where: { id: row.providerId },
        select: { visibilityDelaySeconds: true },
      });
      const sent = await redispatch(
        o.db,
        o.settings,
        o.actor,
        { intentId, lookupId, expectedVersion: version, owner: o.owner, leaseMs: o.leaseMs, crash: o.crash },
        now,
      );
      const settled = sent.outcome === "confirmed" || sent.outcome === "rejected";
      // Still unknown after sending: look again once the provider's search can show it.
      const lookAgain = new Date(now().getTime() + provider.visibilityDelaySeconds * 1000 + 5_000);
      await done({
        ...seen,
        state: settled ? "settled" : "active",
        nextAt: lookAgain,
        lastAction: "redispatched",
        lastReason: `${decision.reason} Result: ${sent.outcome}${sent.detail ? ` (${sent.detail})` : ""}.`,
      });
      return "redispatched";
    }
  }
}
