"use server";

import { refresh } from "next/cache";
import { actionFor } from "@/lib/actions/client";
import { revokeSessionsInput } from "@/lib/auth/schemas";
import { revokeSessions } from "@/lib/auth/sessions";
import { db } from "@/lib/db";

export const revokeSessionsAction = actionFor("administer")
  .metadata({ name: "revoke-sessions" })
  .inputSchema(revokeSessionsInput)
  .stateAction(async ({ parsedInput, ctx }) => {
    const ended = await revokeSessions(db, ctx.actor, parsedInput);
    refresh();
    return { ended };
  });
