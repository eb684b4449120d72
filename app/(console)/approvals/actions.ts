"use server";

import { refresh } from "next/cache";
import { actionFor } from "@/lib/actions/client";
import { db } from "@/lib/db";
import { decide } from "@/lib/resolution/approvals";
import { sendCompensationAfterCommit } from "@/lib/actions/compensation";
import { decisionInput } from "@/lib/resolution/schemas";

export const decideAction = actionFor("decide")
  .metadata({ name: "decide" })
  .inputSchema(decisionInput)
  .stateAction(async ({ parsedInput, ctx }) => {
    const result = await decide(db, ctx.actor, parsedInput);
    const compensationOutcome = result.compensationIntentId
      ? await sendCompensationAfterCommit(ctx.actor, result.compensationIntentId)
      : null;
    refresh();
    return {
      resolutionId: result.resolution.id,
      outcome: result.outcome,
      approvals: result.approvals,
      required: result.required,
      compensationOutcome,
    };
  });
