import type { PrismaClient } from "@/prisma/generated/client";
import type { ProviderSettings } from "@/lib/providers/registry";
import type { Actor } from "@/lib/auth/actor";
import { decide, closeStaleRequests } from "@/lib/resolution/approvals";
import { claimIntent } from "@/lib/resolution/claims";
import { ResolutionError } from "@/lib/resolution/errors";
import { lookupForOperator } from "@/lib/resolution/lookups";
import { proposeResolution } from "@/lib/resolution/resolve";
import { rng } from "@/lib/seed/random";

export type HistorySummary = {
  resolved: number;
  approved: number;
  denied: number;
  expired: number;
  pendingNow: number;
};

/**
 * Weeks of past operator work on the simulated ledger, done through the same guarded
 * services the console uses (so every step is in the audit log, in time order): claims,
 * lookups, resolutions, approvals, denials and requests left to expire. The last three
 * days stay untouched for people trying the demo, except a few proposals that wait
 * for an approver now.
 */
export async function buildHistory(
  db: PrismaClient,
  settings: ProviderSettings,
  seed = 1,
): Promise<HistorySummary> {
  const r = rng(seed + 1000);
  const users = await db.user.findMany();
  const actor = (email: string): Actor => {
    const u = users.find((x) => x.email === email)!;
    return { id: u.id, email: u.email, roles: u.roles };
  };
  const operators = [actor("operator@demo.test"), actor("operator2@demo.test")];
  const approvers = [actor("approver@demo.test"), actor("approver2@demo.test")];
  const now = Date.now();
  const summary: HistorySummary = { resolved: 0, approved: 0, denied: 0, expired: 0, pendingNow: 0 };

  const unknowns = await db.effectIntent.findMany({
    where: { status: "unknown" },
    orderBy: { createdAt: "asc" },
  });
  const old = unknowns.filter((u) => (u.lastAttemptAt ?? u.createdAt).getTime() < now - 3 * 86_400_000);
  const chosen = old.filter(() => r.chance(0.75));

  for (const intent of chosen) {
    const operator = r.pick(operators);
    const t0 = (intent.lastAttemptAt ?? intent.createdAt).getTime() + r.int(20, 300) * 60_000;
    const at = (minutes: number) => new Date(t0 + minutes * 60_000);
    try {
      await claimIntent(db, operator, { intentId: intent.id }, at(0));
      const method = intent.providerId === "payments-sandbox" ? "idempotency_key" : "domain_attributes";
      const { lookup } = await lookupForOperator(
        db,
        settings,
        operator,
        { intentId: intent.id, method },
        () => at(1),
      );
      const current = await db.effectIntent.findUniqueOrThrow({ where: { id: intent.id } });
      const kind =
        lookup.outcome === "found_matching"
          ? "accept_receipt"
          : lookup.outcome === "absent"
            ? "mark_rejected"
            : "escalate";
      const reason =
        kind === "accept_receipt"
          ? r.pick([
              "Provider shows the charge under this key",
              "Found by key lookup; amount and customer match",
              "Search result matches exactly",
            ])
          : kind === "mark_rejected"
            ? r.pick([
                "Nothing at the provider after the search delay",
                "Key lookup is empty; safe to retry with the same key",
              ])
            : r.pick([
                "Candidates do not match the intent; needs a closer look",
                "Ambiguous evidence, escalating to payments team",
              ]);
      const proposed = await proposeResolution(
        db,
        operator,
        {
          intentId: intent.id,
          kind,
          reason,
          lookupId: kind === "escalate" ? null : lookup.id,
          expectedVersion: current.version,
          submissionKey: crypto.randomUUID(),
        },
        at(3),
      );
      if (proposed.applied || kind === "escalate") {
        summary.resolved += 1;
        continue;
      }
      // Waiting for an approver: most are approved, some denied, a few left to expire.
      const fate = r.weighted([
        ["approve", 0.6],
        ["deny", 0.25],
        ["expire", 0.15],
      ] as const);
      if (fate === "expire") {
        await closeStaleRequests(db, at(24 * 60 + 5));
        summary.expired += 1;
        continue;
      }
      const approver = r.pick(approvers);
      const decision = await decide(
        db,
        approver,
        {
          resolutionId: proposed.resolution.id,
          decision: fate === "approve" ? "approved" : "denied",
          reason:
            fate === "approve"
              ? r.pick(["Evidence is clear", "Matches the statement", "Approved per runbook"])
              : r.pick([
                  "Amount needs a second check with finance",
                  "Wait for the customer's bank statement",
                ]),
        },
        at(r.int(30, 600)),
      );
      if (decision.outcome === "approved_waiting") {
        const second = approvers.find((a) => a.id !== approver.id)!;
        await decide(
          db,
          second,
          { resolutionId: proposed.resolution.id, decision: "approved", reason: "Second signature" },
          at(r.int(601, 900)),
        );
      }
      if (fate === "approve") summary.approved += 1;
      else summary.denied += 1;
    } catch (error) {
      // History is best effort per intent: evidence that does not allow a step is skipped.
      if (!(error instanceof ResolutionError)) throw error;
    }
  }

  // A few recent high-value unknowns wait for an approver right now.
  const recent = unknowns.filter(
    (u) =>
      u.providerId === "payments-sandbox" &&
      u.amountMinor !== null &&
      u.amountMinor >= 100_000n &&
      (u.lastAttemptAt ?? u.createdAt).getTime() >= now - 3 * 86_400_000,
  );
  for (const intent of recent.slice(0, 2)) {
    const operator = operators[0]!;
    try {
      const { lookup } = await lookupForOperator(
        db,
        settings,
        operator,
        { intentId: intent.id, method: "idempotency_key" },
        () => new Date(now - 30 * 60_000),
      );
      if (lookup.outcome !== "found_matching") continue;
      const current = await db.effectIntent.findUniqueOrThrow({ where: { id: intent.id } });
      const p = await proposeResolution(
        db,
        operator,
        {
          intentId: intent.id,
          kind: "accept_receipt",
          reason: "Provider shows the charge; above threshold",
          lookupId: lookup.id,
          expectedVersion: current.version,
          submissionKey: crypto.randomUUID(),
        },
        new Date(now - 25 * 60_000),
      );
      if (!p.applied) summary.pendingNow += 1;
    } catch (error) {
      if (!(error instanceof ResolutionError)) throw error;
    }
  }
  return summary;
}
