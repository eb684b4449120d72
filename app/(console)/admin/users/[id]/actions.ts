"use server";

import { refresh } from "next/cache";
import { actionFor } from "@/lib/actions/client";
import { unlockUserInput, userAccessInput, userRolesInput } from "@/lib/admin/schemas";
import { setUserDisabled, unlockUser } from "@/lib/admin/user-access";
import { setUserRoles } from "@/lib/admin/users";
import { db } from "@/lib/db";
import { ResolutionError } from "@/lib/resolution/errors";

/**
 * Refreshes the page after a change, and also after a refusal because another admin was
 * first: the page then shows the user as they are now beside the refusal, and the roles
 * form compares against those the next time.
 */
async function thenRefresh<T>(change: () => Promise<T>): Promise<T> {
  try {
    const result = await change();
    refresh();
    return result;
  } catch (error) {
    if (error instanceof ResolutionError && error.code === "stale") refresh();
    throw error;
  }
}

export const setUserRolesAction = actionFor("administer")
  .metadata({ name: "set-user-roles" })
  .inputSchema(userRolesInput)
  .stateAction(({ parsedInput, ctx }) =>
    thenRefresh(async () => {
      const { user, changed } = await setUserRoles(db, ctx.actor, parsedInput);
      return { roles: user.roles, changed };
    }),
  );

export const setUserAccessAction = actionFor("administer")
  .metadata({ name: "set-user-access" })
  .inputSchema(userAccessInput)
  .stateAction(({ parsedInput: { userId, change, reason }, ctx }) =>
    thenRefresh(() => setUserDisabled(db, ctx.actor, { userId, disabled: change === "disable", reason })),
  );

export const unlockUserAction = actionFor("administer")
  .metadata({ name: "unlock-user" })
  .inputSchema(unlockUserInput)
  .stateAction(({ parsedInput, ctx }) => thenRefresh(() => unlockUser(db, ctx.actor, parsedInput)));
