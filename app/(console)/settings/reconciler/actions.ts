"use server";

import { refresh } from "next/cache";
import { actionFor } from "@/lib/actions/client";
import { db } from "@/lib/db";
import { setReconcilePolicy } from "@/lib/reconcile/policy";
import { reconcilePolicyInput } from "./schemas";

export const saveReconcilePolicyAction = actionFor("administer")
  .metadata({ name: "save-reconcile-policy" })
  .inputSchema(reconcilePolicyInput)
  .stateAction(async ({ parsedInput, ctx }) => {
    const saved = await setReconcilePolicy(db, ctx.actor, parsedInput);
    refresh();
    return {
      tenantId: saved.tenantId,
      providerId: saved.providerId,
      mode: saved.mode,
      savedAt: saved.updatedAt,
    };
  });
