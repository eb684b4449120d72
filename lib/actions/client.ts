import "server-only";
import { createSafeActionClient } from "next-safe-action";
import { headers } from "next/headers";
import { z } from "zod";
import { AuthError } from "@/lib/auth/errors";
import { currentUser } from "@/lib/auth/session";
import { describeFailure, type FailureBody } from "@/lib/http/errors";
import { requestIdFrom } from "@/lib/http/request-id";
import type { Actor } from "@/lib/auth/actor";
import { DUTIES, mayPerform, type Duty } from "@/lib/auth/authorize";

/**
 * The one guarded path every console mutation takes (next-safe-action):
 *
 *   role (the session's user may perform the duty) → parse (Zod, FormData or object)
 *   → the action calls a service, which loads the target, takes the tenant from the
 *     record, re-checks the duty in its transaction and commits the compare-and-set
 *     with its audit event → a typed result the form shows.
 *
 * Next.js checks each action request's Origin against the host before any of this.
 * Expected refusals come back as `serverError` ({ code, message }); field errors as
 * `validationErrors` (flattened); the unexpected as a message with an error id that is
 * in the server log.
 */

const baseClient = createSafeActionClient({
  defineMetadataSchema: () => z.object({ name: z.string() }),
  defaultValidationErrorsShape: "flattened",
  handleServerError: (error, { metadata }): FailureBody =>
    describeFailure(error, `action ${metadata?.name ?? "?"}`).body,
});

/** For the one action anyone may call: signing in. */
export const publicAction = baseClient;

/** Any signed-in person (signing out). */
export const signedInAction = baseClient.use(async ({ next }) => {
  const user = await currentUser();
  if (!user) throw new AuthError("unauthenticated");
  return next({ ctx: { user, requestId: requestIdFrom((await headers()).get("x-request-id")) } });
});

/** An action client for one duty: the caller must be signed in and may perform it. */
export function actionFor(duty: Duty) {
  return baseClient.use(async ({ next }) => {
    const user = await currentUser();
    if (!user) throw new AuthError("unauthenticated");
    if (!mayPerform(user.roles, duty))
      throw new AuthError("forbidden", `Your role does not allow you to ${DUTIES[duty].verb}.`);
    const actor: Actor = {
      id: user.id,
      email: user.email,
      roles: user.roles,
      requestId: requestIdFrom((await headers()).get("x-request-id")),
    };
    return next({ ctx: { actor } });
  });
}
