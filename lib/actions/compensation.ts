import "server-only";
import type { Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db";
import { describeFailure } from "@/lib/http/errors";
import { consoleProviderSettings } from "@/lib/providers/settings";
import { dispatchCompensation } from "@/lib/resolution/compensation";

/**
 * What a person is told about the refund their resolution started: its outcome, or —
 * when sending failed after the resolution committed — that it waits to be sent (the
 * sweeper sends left-over compensations; the intent page has a "send now" button).
 */
export async function sendCompensationAfterCommit(
  actor: Actor,
  compensationIntentId: string,
): Promise<string> {
  try {
    return (await dispatchCompensation(db, consoleProviderSettings(), actor, compensationIntentId)).outcome;
  } catch (error) {
    const { body } = describeFailure(error, "compensation dispatch");
    return `not sent yet (${body.message}); it will be sent again`;
  }
}
