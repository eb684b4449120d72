import { z } from "zod";

// Input of every console action, shared by the forms (early feedback) and the
// route handlers (the check that counts).
export const reason = z
  .string()
  .trim()
  .min(5, "Give a reason of at least 5 characters.")
  .max(2000, "Keep the reason under 2,000 characters.");

const tenantId = z.string().min(1).max(64).optional();

export const claimInput = z.object({
  tenantId,
  takeOverReason: reason.optional().nullable(),
});

export const releaseInput = z.object({ tenantId });

export const lookupInput = z.object({
  tenantId,
  method: z.enum(["idempotency_key", "provider_request_id", "domain_attributes"]),
});

export const resolutionInput = z
  .object({
    tenantId,
    kind: z.enum(["accept_receipt", "mark_rejected", "start_compensation", "escalate"]),
    reason,
    lookupId: z.uuid().nullable().optional(),
    externalEvidenceRef: z
      .string()
      .trim()
      .min(3, "An evidence reference needs at least 3 characters.")
      .max(200)
      .regex(/^[^\r\n]+$/, "One line only.")
      .nullable()
      .optional(),
    expectedVersion: z.number().int().min(0),
    submissionKey: z.uuid("Missing submission key; reload the page."),
  })
  .refine((v) => !(v.lookupId && v.externalEvidenceRef), {
    message: "Cite a lookup or an external reference, not both.",
    path: ["externalEvidenceRef"],
  });

export const bulkAcceptInput = z.object({
  reason,
  submissionKey: z.uuid(),
  items: z
    .array(z.object({ intentId: z.uuid(), lookupId: z.uuid(), expectedVersion: z.number().int().min(0) }))
    .min(1)
    .max(200),
});

export const intentIdParam = z.uuid("No such intent.");
