"use server";

import { redirect } from "next/navigation";
import { signedInAction } from "@/lib/actions/client";
import { clearSessionCookie } from "@/lib/auth/session-cookie";
import { endSession } from "@/lib/auth/sessions";
import { db } from "@/lib/db";

/** Signing out ends the session in the database at once, then drops the cookie. */
export const signOutAction = signedInAction.metadata({ name: "sign-out" }).stateAction(async ({ ctx }) => {
  const { user, requestId } = ctx;
  await endSession(db, { id: user.id, email: user.email, roles: user.roles }, user.sessionId, requestId);
  await clearSessionCookie();
  redirect("/login");
});
