import "server-only";
import { requireRole, type SessionUser } from "@/lib/auth/session";
import type { Role } from "@/lib/auth/roles";
import { errorResponse } from "./mutation";

/**
 * Wraps a route handler: the role check runs first; expected failures and
 * unexpected ones are answered as every console route answers them (errorResponse).
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
      return errorResponse(error);
    }
  };
}
