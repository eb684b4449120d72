import { z } from "zod";
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

/** Whole minor units, within what the amount column (bigint) holds. */
const minorUnits = (label: string) =>
  z
    .string({ error: `${label} is required.` })
    .trim()
    .regex(/^\d{1,15}$/, `${label}: whole minor units (cents), at most 15 digits.`)
    .transform((v) => BigInt(v));

export const thresholdInput = formInput(
  z
    .object({
      tenantId: oneLineText("Tenant", 1, 64),
      currency: z.string().regex(/^[A-Z]{3}$/, "Currency is three capital letters."),
      thresholdMinor: minorUnits("One-approver threshold"),
      dualThresholdMinor: minorUnits("Two-approver threshold").optional(),
      /** Below this the reconciler may confirm on its own; absent (an empty field): never. */
      autoResolveBelowMinor: minorUnits("Reconciler may confirm below").optional(),
    })
    .superRefine((v, ctx) => {
      // Above the approval threshold people decide; setThreshold refuses it too.
      if (v.autoResolveBelowMinor !== undefined && v.autoResolveBelowMinor > v.thresholdMinor)
        ctx.addIssue({
          code: "custom",
          path: ["autoResolveBelowMinor"],
          message: `Reconciler may confirm below: at most the one-approver threshold (${v.thresholdMinor}); above it, people decide.`,
        });
    }),
);
