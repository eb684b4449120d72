import { z } from "zod";
import { db } from "@/lib/db";
import { json, mutation } from "@/lib/http/mutation";
import { setThreshold } from "@/lib/resolution/thresholds";

const minor = z.string().regex(/^\d{1,15}$/, "Amounts are whole minor units (cents).");
const thresholdInput = z.object({
  tenantId: z.string().min(1).max(64),
  currency: z.string().regex(/^[A-Z]{3}$/, "Currency is three capital letters."),
  thresholdMinor: minor,
  dualThresholdMinor: minor.nullable(),
});

export const POST = mutation(["admin"], thresholdInput, async ({ input, actor }) =>
  json({
    threshold: await setThreshold(db, actor, {
      tenantId: input.tenantId,
      currency: input.currency,
      thresholdMinor: BigInt(input.thresholdMinor),
      dualThresholdMinor: input.dualThresholdMinor === null ? null : BigInt(input.dualThresholdMinor),
    }),
  }),
);
