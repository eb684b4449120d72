"use server";

import { refresh } from "next/cache";
import { actionFor } from "@/lib/actions/client";
import { db } from "@/lib/db";
import { thresholdInput } from "@/lib/resolution/schemas";
import { setThreshold } from "@/lib/resolution/thresholds";

export const saveThresholdAction = actionFor("administer")
  .metadata({ name: "save-threshold" })
  .inputSchema(thresholdInput)
  .stateAction(async ({ parsedInput, ctx }) => {
    const saved = await setThreshold(db, ctx.actor, {
      ...parsedInput,
      dualThresholdMinor: parsedInput.dualThresholdMinor ?? null,
      // The form always posts the field: empty means the reconciler never confirms.
      autoResolveBelowMinor: parsedInput.autoResolveBelowMinor ?? null,
    });
    refresh();
    return { tenantId: saved.tenantId, currency: saved.currency, savedAt: saved.updatedAt };
  });
