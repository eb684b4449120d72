import { z } from "zod";
import { formatAmount, parseMajorAmount } from "@/lib/format";
import { formInput } from "@/lib/validation/form";
import { multiLineText, oneLineText, recordId } from "@/lib/validation/text";

// The input of every console action, in one place: the forms read their field names
// and limits from here, and the server actions (and the one JSON route) parse with it.

export const reason = multiLineText("Reason", 5, 2000);

const tenantId = oneLineText("Tenant", 1, 64).optional();
const intentId = recordId("intent");

export const claimInput = formInput(
  z.object({
    intentId,
    tenantId,
    takeOverReason: reason.optional(),
  }),
);

export const releaseInput = formInput(z.object({ intentId, tenantId }));

export const sendCompensationInput = formInput(z.object({ intentId, tenantId }));

export const LOOKUP_METHODS = ["idempotency_key", "provider_request_id", "domain_attributes"] as const;

export const lookupInput = formInput(
  z.object({
    intentId,
    tenantId,
    method: z.enum(LOOKUP_METHODS, { error: "Choose how to look it up." }),
  }),
);

export const RESOLUTION_KINDS = [
  "accept_receipt",
  "mark_rejected",
  "start_compensation",
  "escalate",
] as const;

/** The evidence select: nothing, a lookup's id, or "external" with a reference beside it. */
export const EXTERNAL_EVIDENCE = "external";

export const resolutionInput = formInput(
  z
    .object({
      intentId,
      tenantId,
      kind: z.enum(RESOLUTION_KINDS, { error: "Choose a resolution." }),
      reason,
      evidence: z
        .union([z.uuid(), z.literal(EXTERNAL_EVIDENCE)], { error: "Choose the evidence." })
        .optional(),
      externalEvidenceRef: oneLineText("External evidence reference", 3, 200).optional(),
      expectedVersion: z.coerce.number({ error: "Reload the page." }).int().min(0).max(2_147_483_647),
      submissionKey: z.uuid({ error: "Missing submission key; reload the page." }),
    })
    .superRefine((v, ctx) => {
      if (v.evidence === EXTERNAL_EVIDENCE && !v.externalEvidenceRef)
        ctx.addIssue({
          code: "custom",
          path: ["externalEvidenceRef"],
          message: "Give the external evidence reference (a ticket or statement).",
        });
      if (v.evidence && v.evidence !== EXTERNAL_EVIDENCE && v.externalEvidenceRef)
        ctx.addIssue({
          code: "custom",
          path: ["externalEvidenceRef"],
          message: "Cite a lookup or an external reference, not both.",
        });
    })
    .transform(({ evidence, externalEvidenceRef, ...rest }) => ({
      ...rest,
      lookupId: evidence && evidence !== EXTERNAL_EVIDENCE ? evidence : null,
      externalEvidenceRef: evidence === EXTERNAL_EVIDENCE || !evidence ? (externalEvidenceRef ?? null) : null,
    })),
);

export const decisionInput = formInput(
  z.object({
    resolutionId: recordId("resolution"),
    decision: z.enum(["approved", "denied"], { error: "Approve or deny." }),
    reason,
  }),
);

export const bulkAcceptInput = z.object({
  reason,
  submissionKey: z.uuid(),
  items: z
    .array(
      z.object({ intentId, lookupId: z.uuid(), expectedVersion: z.number().int().min(0).max(2_147_483_647) }),
    )
    .min(1, "Select at least one row.")
    .max(200, "At most 200 rows at once."),
});

/** An amount as a person types it in major units; read once the currency is known. */
const majorAmount = (label: string) =>
  z
    .string({ error: `${label} is required.` })
    .trim()
    .min(1, `${label} is required.`)
    .max(40, `${label}: too long.`);

const THRESHOLD_LABELS = {
  threshold: "One-approver threshold",
  dualThreshold: "Two-approver threshold",
  autoResolveBelow: "Reconciler may confirm below",
} as const;

/**
 * A tenant's thresholds for one currency, typed in major units ("1,000.00" USD,
 * "150000" JPY: lib/format.ts knows each currency's minor unit) and returned in minor
 * units, with the reason the audit log keeps beside before and after.
 */
export const thresholdInput = formInput(
  z
    .object({
      tenantId: oneLineText("Tenant", 1, 64),
      currency: z.string().regex(/^[A-Z]{3}$/, "Currency is three capital letters."),
      threshold: majorAmount(THRESHOLD_LABELS.threshold),
      dualThreshold: majorAmount(THRESHOLD_LABELS.dualThreshold).optional(),
      /** Below this the reconciler may confirm on its own; absent (an empty field): never. */
      autoResolveBelow: majorAmount(THRESHOLD_LABELS.autoResolveBelow).optional(),
      reason,
    })
    .transform((v, ctx) => {
      const minor = (field: keyof typeof THRESHOLD_LABELS) => {
        const text = v[field];
        if (text === undefined) return null;
        const parsed = parseMajorAmount(text, v.currency);
        if (parsed.ok) return parsed.minor;
        ctx.addIssue({
          code: "custom",
          path: [field],
          message: `${THRESHOLD_LABELS[field]}: ${parsed.message}`,
        });
        return null;
      };
      const thresholdMinor = minor("threshold");
      const dualThresholdMinor = minor("dualThreshold");
      const autoResolveBelowMinor = minor("autoResolveBelow");
      if (thresholdMinor === null) return z.NEVER;
      const shown = formatAmount(thresholdMinor, v.currency);
      if (dualThresholdMinor !== null && dualThresholdMinor < thresholdMinor)
        ctx.addIssue({
          code: "custom",
          path: ["dualThreshold"],
          message: `Two-approver threshold: at or above the one-approver threshold (${shown}).`,
        });
      // Above the approval threshold people decide; setThreshold refuses it too.
      if (autoResolveBelowMinor !== null && autoResolveBelowMinor > thresholdMinor)
        ctx.addIssue({
          code: "custom",
          path: ["autoResolveBelow"],
          message: `Reconciler may confirm below: at most the one-approver threshold (${shown}); above it, people decide.`,
        });
      return {
        tenantId: v.tenantId,
        currency: v.currency,
        thresholdMinor,
        dualThresholdMinor,
        autoResolveBelowMinor,
        reason: v.reason,
      };
    }),
);
