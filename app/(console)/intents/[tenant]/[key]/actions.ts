"use server";

import { randomUUID } from "node:crypto";
import { refresh } from "next/cache";
import { actionFor } from "@/lib/actions/client";
import { db } from "@/lib/db";
import { formatUtc } from "@/lib/format";
import { consoleProviderSettings } from "@/lib/providers/settings";
import { claimIntent, releaseIntent } from "@/lib/resolution/claims";
import { sendCompensationAfterCommit } from "@/lib/actions/compensation";
import { sendCompensationNow } from "@/lib/resolution/compensation";
import { lookupForOperator } from "@/lib/resolution/lookups";
import { proposeResolution } from "@/lib/resolution/resolve";
import {
  claimInput,
  lookupInput,
  releaseInput,
  resolutionInput,
  sendCompensationInput,
} from "@/lib/resolution/schemas";

// The intent page's mutations. Each is the guarded action client plus one service call;
// the services hold the rules (lib/resolution).

export const claimAction = actionFor("claim")
  .metadata({ name: "claim" })
  .inputSchema(claimInput)
  .stateAction(async ({ parsedInput, ctx }) => {
    const intent = await claimIntent(db, ctx.actor, parsedInput);
    refresh();
    return { message: `You hold the claim until ${formatUtc(intent.claimExpiresAt, "minute")}.` };
  });

export const releaseAction = actionFor("claim")
  .metadata({ name: "release" })
  .inputSchema(releaseInput)
  .stateAction(async ({ parsedInput, ctx }) => {
    await releaseIntent(db, ctx.actor, parsedInput);
    refresh();
    return { message: "Released: anyone may claim it now." };
  });

export const lookupAction = actionFor("look_up")
  .metadata({ name: "lookup" })
  .inputSchema(lookupInput)
  .stateAction(async ({ parsedInput, ctx }) => {
    const { lookup } = await lookupForOperator(db, consoleProviderSettings(), ctx.actor, parsedInput);
    refresh();
    return { lookupId: lookup.id, outcome: lookup.outcome, errorClass: lookup.errorClass };
  });

export const proposeAction = actionFor("resolve")
  .metadata({ name: "propose" })
  .inputSchema(resolutionInput)
  .stateAction(async ({ parsedInput, ctx }) => {
    const result = await proposeResolution(db, ctx.actor, parsedInput);
    // A compensation is sent once its transaction committed. A replayed submission sends
    // again, which is harmless: the protocol sends a prepared refund once.
    const compensationOutcome =
      result.applied && result.compensationIntentId
        ? await sendCompensationAfterCommit(ctx.actor, result.compensationIntentId)
        : null;
    refresh();
    return {
      resolutionId: result.resolution.id,
      applied: result.applied,
      replayed: result.replayed,
      intentStatus: result.intent.status,
      requiredApprovals: result.resolution.requiredApprovals,
      compensationOutcome,
      /** The next submission of this form gets a key of its own. */
      nextSubmissionKey: randomUUID(),
    };
  });

export const sendCompensationAction = actionFor("resolve")
  .metadata({ name: "send-compensation" })
  .inputSchema(sendCompensationInput)
  .stateAction(async ({ parsedInput, ctx }) => {
    const sent = await sendCompensationNow(db, consoleProviderSettings(), ctx.actor, parsedInput);
    refresh();
    return { outcome: sent.outcome };
  });
