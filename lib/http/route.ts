import "server-only";
import { randomUUID } from "node:crypto";
import { AuthError, requireRole, type SessionUser } from "@/lib/auth/session";
import type { Role } from "@/lib/auth/roles";

/**
 * Wraps a route handler: the role check runs first, expected failures become
 * 401/403 JSON, and anything unexpected is logged under an id the caller sees.
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
      if (error instanceof AuthError) {
        return Response.json(
          { error: error.code, message: error.message },
          { status: error.code === "unauthenticated" ? 401 : 403 },
        );
      }
      const errorId = randomUUID();
      console.error(`[${errorId}]`, error);
      return Response.json(
        { error: "internal", message: `Unexpected error (id ${errorId})`, errorId },
        { status: 500 },
      );
    }
  };
}
