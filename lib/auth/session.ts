import "server-only";
import { getServerSession } from "next-auth";
import { redirect } from "next/navigation";
import { cache } from "react";
import { db } from "@/lib/db";
import { AuthError } from "./errors";
import { authOptions } from "./options";
import { liveSessionUser } from "./sessions";
import { hasAnyRole, type Role } from "./roles";

export type SessionUser = { id: string; email: string; name: string; roles: Role[]; sessionId: string };

export { AuthError };

/**
 * The signed-in user as the database has them now, once per request: the cookie's
 * session must be live (not signed out, revoked or expired) and its user enabled, and
 * the roles are the ones held now — all of it counts at once, not when the cookie runs out.
 */
export const currentUser = cache(async (): Promise<SessionUser | null> => {
  const session = await getServerSession(authOptions());
  const id = session?.user?.id;
  const sid = session?.user?.sid;
  if (!id || !sid) return null;
  const user = await liveSessionUser(db, sid, id);
  if (!user) return null;
  return { id: user.id, email: user.email, name: user.name, roles: user.roles, sessionId: sid };
});

/** First statement of every server action and route handler. Throws AuthError. */
export async function requireRole(allowed: readonly Role[]): Promise<SessionUser> {
  const user = await currentUser();
  if (!user) throw new AuthError("unauthenticated");
  if (!hasAnyRole(user.roles, allowed)) throw new AuthError("forbidden");
  return user;
}

/** First statement of every page: anonymous visitors go to /login, others without the role to /forbidden. */
export async function requirePageRole(allowed: readonly Role[], path: string): Promise<SessionUser> {
  const user = await currentUser();
  if (!user) redirect(`/login?callbackUrl=${encodeURIComponent(path)}`);
  if (!hasAnyRole(user.roles, allowed)) redirect(`/forbidden?from=${encodeURIComponent(path)}`);
  return user;
}
