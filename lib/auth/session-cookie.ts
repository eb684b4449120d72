import "server-only";
import { encode } from "next-auth/jwt";
import { cookies } from "next/headers";
import { getEnv } from "@/lib/env";

/** NextAuth's cookie name, so its session decoding (getServerSession, the proxy) reads ours. */
export function sessionCookieName(https: boolean): string {
  return `${https ? "__Secure-" : ""}next-auth.session-token`;
}

/** Sets the session cookie for a session row: httpOnly, SameSite=Lax, Secure over https. */
export async function setSessionCookie(s: {
  userId: string;
  sessionId: string;
  name: string;
  email: string;
}) {
  const env = getEnv();
  const maxAge = env.SESSION_MAX_AGE_SECONDS;
  const token = await encode({
    token: { sub: s.userId, uid: s.userId, sid: s.sessionId, name: s.name, email: s.email },
    secret: env.sessionSecret,
    maxAge,
  });
  (await cookies()).set(sessionCookieName(env.https), token, {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: env.https,
    maxAge,
  });
}

export async function clearSessionCookie() {
  (await cookies()).delete(sessionCookieName(getEnv().https));
}
