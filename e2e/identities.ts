import { toolEnv } from "@/tools/env";
import { request, type APIRequestContext } from "@playwright/test";
import { callAction } from "./actions";
import { PASSWORD } from "./support";

export const BASE_URL = `http://127.0.0.1:${toolEnv().E2E_PORT}`;

/** An HTTP client signed in as this demo user (through the sign-in action), or anonymous. */
export async function clientFor(email: string | null): Promise<APIRequestContext> {
  const context = await request.newContext({ baseURL: BASE_URL });
  if (!email) return context;
  const answer = await callAction(context, "signInAction", [{}, { email, password: PASSWORD }], {
    page: "/login",
  });
  // A successful sign-in redirects (the Flight answer carries no result row).
  if (answer.result?.serverError || answer.result?.validationErrors)
    throw new Error(`could not sign in ${email}: ${JSON.stringify(answer.result)}`);
  return context;
}
