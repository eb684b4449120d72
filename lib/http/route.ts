import "server-only";
import { headers } from "next/headers";
import type { z } from "zod";
import { AuthError } from "@/lib/auth/errors";
import { requireRole, currentUser, type SessionUser } from "@/lib/auth/session";
import type { Role } from "@/lib/auth/roles";
import type { Actor } from "@/lib/auth/actor";
import { DUTIES, mayPerform, type Duty } from "@/lib/auth/authorize";
import { describeFailure } from "./errors";
import { requestIdFrom } from "./request-id";
import { isCrossSite } from "./same-origin";

/** Every route's failure answer (see describeFailure). */
export function errorResponse(error: unknown, where = "route"): Response {
  const { status, body } = describeFailure(error, where);
  return Response.json(body, { status });
}

/**
 * Wraps a reading route handler: the role check runs first; failures are answered as
 * every console route answers them.
 */
export function withRole<Ctx>(
  allowed: readonly Role[],
  handler: (request: Request, user: SessionUser, context: Ctx) => Promise<Response>,
) {
  return async (request: Request, context: Ctx): Promise<Response> => {
    try {
      const user = await requireRole(allowed);
      return await handler(request, user, context);
    } catch (error) {
      return errorResponse(error, new URL(request.url).pathname);
    }
  };
}

/** Refuses a state-changing request from another site, as Next.js does for server actions. */
export function crossSiteRefusal(request: Request): Response | null {
  if (!isCrossSite(request.headers)) return null;
  return Response.json({ code: "forbidden", message: "Cross-site requests are refused." }, { status: 403 });
}

/**
 * A route handler that changes state — the exception beside the server actions, kept
 * where a route is needed (bulk lookups run in parallel with progress; server actions
 * are dispatched one at a time). Same guarded path: same-origin only, the duty's role
 * first, JSON only (415 otherwise, 400 for invalid JSON), Zod, then the service, whose
 * transaction re-checks the duty and writes the audit event.
 */
export function jsonMutation<S extends z.ZodType, P extends Record<string, string>>(
  duty: Duty,
  schema: S,
  handler: (args: { input: z.infer<S>; actor: Actor }) => Promise<unknown>,
  /** Route parameters merged into the input (they are validated with it). */
  fromParams: (params: P) => Record<string, string> = () => ({}),
) {
  return async (request: Request, context: { params: Promise<P> }): Promise<Response> => {
    const where = new URL(request.url).pathname;
    try {
      const refused = crossSiteRefusal(request);
      if (refused) return refused;
      const user = await currentUser();
      if (!user) throw new AuthError("unauthenticated");
      if (!mayPerform(user.roles, duty))
        throw new AuthError("forbidden", `Your role does not allow you to ${DUTIES[duty].verb}.`);
      const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
      if (type !== "application/json")
        return Response.json(
          { code: "unsupported", message: "Send JSON (application/json)." },
          { status: 415 },
        );
      let body: unknown;
      try {
        body = await request.json();
      } catch {
        return Response.json({ code: "invalid", message: "The body is not valid JSON." }, { status: 400 });
      }
      if (typeof body !== "object" || body === null || Array.isArray(body))
        return Response.json(
          { code: "invalid", message: "The body must be a JSON object." },
          { status: 400 },
        );
      const parsed = schema.safeParse({ ...body, ...fromParams(await context.params) });
      if (!parsed.success) {
        const issues = parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
        return Response.json(
          { code: "invalid", message: issues[0]?.message ?? "Invalid input.", issues },
          { status: 422 },
        );
      }
      const actor: Actor = {
        id: user.id,
        email: user.email,
        roles: user.roles,
        requestId: requestIdFrom((await headers()).get("x-request-id")),
      };
      return Response.json((await handler({ input: parsed.data, actor })) ?? { ok: true });
    } catch (error) {
      return errorResponse(error, where);
    }
  };
}
