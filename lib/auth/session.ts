import "server-only";
import { getServerSession } from "next-auth";
import { redirect } from "next/navigation";
import { cache } from "react";
import { db } from "@/lib/db";
import { AuthError } from "./errors";
import { authOptions } from "./options";
import { hasAnyRole, type Role } from "./roles";

export type SessionUser = { id: string; email: string; name: string; roles: Role[] };

export { AuthError };

/**
 * The signed-in user as the database has them now: a disabled account or a role
 * taken away counts at once, not when the session cookie runs out.
 */
export const currentUser = cache(async (): Promise<SessionUser | null> => {
  const session = await getServerSession(authOptions());
  const id = session?.user?.id;
  if (!id) return null;
  const user = await db.user.findUnique({
    where: { id },
    select: { id: true, email: true, name: true, roles: true, disabled: true },
  });
  if (!user || user.disabled) return null;
  return { id: user.id, email: user.email, name: user.name, roles: user.roles };
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
