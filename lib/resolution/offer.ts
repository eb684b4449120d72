import { formatAmount } from "@/lib/format";
import type { EffectIntent, Lookup, ProviderProfile } from "@/prisma/generated/client";
import type { ResolutionKind } from "@/prisma/generated/enums";
import { approvalsRequired, evidenceAllows, type Threshold } from "./rules";

export const OFFERED_KINDS = ["accept_receipt", "mark_rejected", "start_compensation", "escalate"] as const;

/** What the intent page's resolve form may offer for one kind, from the rules the server applies. */
export type KindOffer = {
  kind: ResolutionKind;
  /** Allowed citing the deciding lookup (or no evidence, for the kinds that need none). */
  allowed: boolean;
  /** Not allowed on the lookup, but allowed citing an external evidence reference instead. */
  externalOnly: boolean;
  /** Why it is not allowed on the lookup (null when it is). */
  reason: string | null;
  /** Approvers needed with the evidence it would cite. */
  approvals: number;
  /** The approval rule in words, for the form to say before submitting. */
  approvalNote: string;
  /** The same, when it cites an external evidence reference instead of the lookup. */
  externalApprovalNote: string;
};

const CONCLUSIVE = new Set(["found_matching", "found_conflicting", "multiple_found", "absent"]);

/**
 * The lookup a resolution would rest on: the newest that says something (an
 * inconclusive or not-yet-visible answer is not evidence), else the newest.
 * `lookups` are newest first.
 */
export function decidingLookup<L extends Pick<Lookup, "outcome">>(lookups: L[]): L | null {
  return lookups.find((l) => CONCLUSIVE.has(l.outcome)) ?? lookups[0] ?? null;
}

function approvalNote(
  kind: ResolutionKind,
  approvals: number,
  amountApprovals: number,
  intent: Pick<EffectIntent, "amountMinor" | "currency">,
  threshold: Threshold,
  external: boolean,
): string {
  if (approvals === 0)
    return kind === "escalate"
      ? "No approval needed: it applies at once and the intent stays unknown, flagged for an operator."
      : "No approval needed: it applies at once.";
  const amount = formatAmount(intent.amountMinor, intent.currency);
  const because =
    amountApprovals === 2 && threshold?.dualThresholdMinor != null
      ? `${amount} is at or above the two-approver threshold of ${formatAmount(threshold.dualThresholdMinor, intent.currency)}`
      : amountApprovals === 1 && threshold
        ? `${amount} is at or above the one-approver threshold of ${formatAmount(threshold.thresholdMinor, intent.currency)}`
        : external
          ? "a resolution on an external evidence reference always needs one"
          : "every payment compensation needs one";
  return approvals === 2
    ? `Needs 2 different approvers before it applies (${because}).`
    : `Needs 1 approver before it applies (${because}).`;
}

/**
 * Which resolutions the evidence allows now and why not the others, with how many
 * approvers each would need: the same rules (`evidenceAllows`, `approvalsRequired`) the
 * server applies when the proposal arrives.
 */
export function resolutionOffer(input: {
  intent: EffectIntent;
  provider: ProviderProfile;
  /** Newest first. */
  lookups: Lookup[];
  threshold: Threshold;
  now: Date;
}): KindOffer[] {
  const { intent, provider, lookups, threshold, now } = input;
  const lookup = decidingLookup(lookups);
  const amountApprovals = approvalsRequired("accept_receipt", intent, provider, threshold, false);
  return OFFERED_KINDS.map((kind) => {
    const onLookup = evidenceAllows(
      kind,
      intent,
      provider,
      { lookup, externalEvidenceRef: null, laterLookups: lookups },
      now,
    );
    const onExternal = onLookup.ok
      ? onLookup
      : evidenceAllows(
          kind,
          intent,
          provider,
          { lookup: null, externalEvidenceRef: "external", laterLookups: lookups },
          now,
        );
    const externalOnly = !onLookup.ok && onExternal.ok;
    const approvals = approvalsRequired(kind, intent, provider, threshold, externalOnly);
    const externalApprovals = approvalsRequired(kind, intent, provider, threshold, true);
    return {
      kind,
      allowed: onLookup.ok,
      externalOnly,
      reason: onLookup.ok ? null : onLookup.reason,
      approvals,
      approvalNote: approvalNote(kind, approvals, amountApprovals, intent, threshold, externalOnly),
      externalApprovalNote: approvalNote(kind, externalApprovals, amountApprovals, intent, threshold, true),
    };
  });
}
