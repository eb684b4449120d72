"use server";

import { refresh } from "next/cache";
import { actionFor } from "@/lib/actions/client";
import { createUserInput } from "@/lib/admin/schemas";
import { createUser } from "@/lib/admin/users";
import { revokeSessionsInput } from "@/lib/auth/schemas";
import { revokeSessions } from "@/lib/auth/sessions";
import { db } from "@/lib/db";
import { getEnv } from "@/lib/env";

export const revokeSessionsAction = actionFor("administer")
  .metadata({ name: "revoke-sessions" })
  .inputSchema(revokeSessionsInput)
  .stateAction(async ({ parsedInput, ctx }) => {
    const ended = await revokeSessions(db, ctx.actor, parsedInput);
    refresh();
    return { ended };
  });

export const createUserAction = actionFor("administer")
  .metadata({ name: "create-user" })
  .inputSchema(createUserInput)
  .stateAction(async ({ parsedInput, ctx }) => {
    const created = await createUser(db, ctx.actor, parsedInput, { ssoAvailable: getEnv().oidc !== null });
    refresh();
    // The initial password travels once, in this answer to the admin who asked; nothing keeps it.
    return { ...created.user, initialPassword: created.initialPassword };
  });
