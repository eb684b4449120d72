"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { publicAction } from "@/lib/actions/client";
import { safeCallbackUrl } from "@/lib/auth/callback-url";
import { AuthError } from "@/lib/auth/errors";
import { signInInput } from "@/lib/auth/schemas";
import { setSessionCookie } from "@/lib/auth/session-cookie";
import { signInWithPassword } from "@/lib/auth/sign-in";
import { db } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { clientDigest } from "@/lib/http/client-address";
import { requestIdFrom } from "@/lib/http/request-id";

/** The same words for every refusal: they must not tell which accounts exist or are locked. */
const REFUSED = "Wrong email or password, or too many attempts. Wait a few minutes and try again.";

/** Password sign-in: a plain form post (no secret in any URL), with or without JavaScript. */
export const signInAction = publicAction
  .metadata({ name: "sign-in" })
  .inputSchema(signInInput)
  .stateAction(async ({ parsedInput }) => {
    const env = getEnv();
    const h = await headers();
    const result = await signInWithPassword(db, {
      email: parsedInput.email,
      password: parsedInput.password,
      clientDigest: clientDigest(h, env.TRUSTED_PROXIES),
      requestId: requestIdFrom(h.get("x-request-id")),
      sessionSeconds: env.SESSION_MAX_AGE_SECONDS,
    });
    if (!result.ok) throw new AuthError("unauthenticated", REFUSED);
    await setSessionCookie({
      userId: result.user.id,
      sessionId: result.sessionId,
      name: result.user.name,
      email: result.user.email,
    });
    redirect(safeCallbackUrl(parsedInput.callbackUrl));
  });
