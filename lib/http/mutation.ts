import "server-only";
import { randomUUID } from "node:crypto";
import { headers } from "next/headers";
import { z } from "zod";
import type { Role } from "@/lib/auth/roles";
import { AuthError, requireRole, type SessionUser } from "@/lib/auth/session";
import { LedgerError } from "@/lib/ledger/protocol";
import type { Actor } from "@/lib/resolution/actor";
import { ResolutionError } from "@/lib/resolution/errors";

type Params = Record<string, string | string[]>;

/**
 * A guarded JSON mutation: role check first, then Zod on the body, then the
 * handler; expected failures come back as typed JSON errors with a clear message,
 * unexpected ones as 500 with an id that is in the server log.
 */
export function mutation<S extends z.ZodType, P extends Params>(
  allowed: readonly Role[],
  schema: S,
  handler: (args: { input: z.infer<S>; actor: Actor; user: SessionUser; params: P }) => Promise<unknown>,
) {
  return async (request: Request, context: { params: Promise<P> }): Promise<Response> => {
    try {
      const user = await requireRole(allowed);
      const raw: unknown = await request.json().catch(() => undefined);
      const parsed = schema.safeParse(raw ?? {});
      if (!parsed.success) {
        const issues = parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
        return Response.json(
          { error: "invalid", message: issues[0]?.message ?? "Invalid input.", issues },
          { status: 422 },
        );
      }
      const requestId = (await headers()).get("x-request-id") ?? randomUUID();
      const actor: Actor = { id: user.id, email: user.email, roles: user.roles, requestId };
      const body = await handler({ input: parsed.data, actor, user, params: await context.params });
      return Response.json(body ?? { ok: true }, { status: 200 });
    } catch (error) {
      return errorResponse(error);
    }
  };
}

export function errorResponse(error: unknown): Response {
  if (error instanceof AuthError) {
    return Response.json(
      { error: error.code, message: error.message },
      { status: error.code === "unauthenticated" ? 401 : 403 },
    );
  }
  if (error instanceof ResolutionError)
    return Response.json({ error: error.code, message: error.message }, { status: error.status });
  if (error instanceof LedgerError)
    return Response.json({ error: error.code, message: error.message }, { status: 409 });
  if (error instanceof z.ZodError)
    return Response.json(
      { error: "invalid", message: error.issues[0]?.message ?? "Invalid input." },
      { status: 422 },
    );
  const errorId = randomUUID();
  console.error(`[${errorId}]`, error);
  return Response.json(
    { error: "internal", message: `Something went wrong on our side (error id ${errorId}).`, errorId },
    { status: 500 },
  );
}

/** JSON-safe: BigInt amounts become strings. */
export function json<T>(value: T): unknown {
  return JSON.parse(JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v)));
}
