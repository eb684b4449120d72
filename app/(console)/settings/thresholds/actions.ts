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
    // The form always posts every field: an empty auto-resolve limit means the reconciler never confirms.
    const saved = await setThreshold(db, ctx.actor, parsedInput);
    refresh();
    return { tenantId: saved.tenantId, currency: saved.currency, savedAt: saved.updatedAt };
  });
