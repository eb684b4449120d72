import "server-only";
import type { NextAuthOptions } from "next-auth";
import type { TokenSet } from "openid-client";
import { appendAudit } from "@/lib/audit/append";
import { db } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { endSession, startSession } from "./sessions";
import { normalizeEmail } from "./sign-in";

let options: NextAuthOptions | undefined;

/**
 * NextAuth decodes the session cookie on every request and runs single sign-on (OIDC).
 * Password sign-in is Reckon's own server action (app/login/actions.ts), which mints the
 * same cookie; both kinds of session name a row in `sessions` that every request checks.
 * Built on first use rather than at import, so `next build` needs no secret.
 */
export function authOptions(): NextAuthOptions {
  if (options) return options;
  const env = getEnv();
  const providers: NextAuthOptions["providers"] = [];
  if (env.oidc) {
    providers.push({
      id: "oidc",
      name: env.oidc.name,
      type: "oauth",
      wellKnown: new URL(".well-known/openid-configuration", env.oidc.issuer.replace(/\/?$/, "/")).toString(),
      clientId: env.oidc.clientId,
      clientSecret: env.oidc.clientSecret,
      authorization: { params: { scope: "openid email profile" } },
      // The ID token is verified (signature, issuer, audience); the email and name come
      // from the userinfo endpoint, since a provider that follows the spec puts only `sub`
      // in the ID token (openid-client checks that both name the same subject).
      idToken: true,
      userinfo: {
        async request({ client, tokens }) {
          // At run time this is openid-client's TokenSet (NextAuth types it as plain parameters).
          const set = tokens as unknown as TokenSet;
          return { ...set.claims(), ...(await client.userinfo(set)) };
        },
      },
      checks: ["pkce", "state"],
      profile: (p: { sub: string; email?: string; name?: string }) => ({
        id: p.sub,
        email: p.email ?? null,
        name: p.name ?? null,
      }),
    });
  }

  options = {
    secret: env.sessionSecret,
    useSecureCookies: env.https,
    session: { strategy: "jwt", maxAge: env.SESSION_MAX_AGE_SECONDS },
    jwt: { maxAge: env.SESSION_MAX_AGE_SECONDS },
    pages: { signIn: "/login", error: "/login" },
    providers,
    callbacks: {
      // SSO only admits people an admin has provisioned; roles always come from Reckon.
      async signIn({ user, account }) {
        if (account?.provider !== "oidc") return false;
        const email = user.email ? normalizeEmail(user.email) : null;
        const found = email ? await db.user.findUnique({ where: { email } }) : null;
        // Machine actors (the reconciler) never sign in, whatever an identity provider says.
        const known = found?.system ? null : found;
        await db.$transaction((tx) =>
          appendAudit(tx, {
            actor: known
              ? { id: known.id, email: known.email, roles: known.roles }
              : { id: null, email: null, roles: [] },
            action: known && !known.disabled ? "auth.sign_in" : "auth.sign_in_failed",
            targetType: "user",
            targetId: known?.id ?? null,
            details: {
              method: "oidc",
              cause: known ? (known.disabled ? "disabled" : null) : "not_provisioned",
            },
          }),
        );
        return Boolean(known && !known.disabled);
      },
      async jwt({ token, user, account }) {
        if (user && account?.provider === "oidc") {
          const row = await db.user.findUnique({ where: { email: normalizeEmail(user.email ?? "") } });
          if (row && !row.system) {
            const session = await startSession(db, row.id, "oidc", env.SESSION_MAX_AGE_SECONDS);
            token.uid = row.id;
            token.sid = session.id;
            token.name = row.name;
            token.email = row.email;
          }
        }
        return token;
      },
      session({ session, token }) {
        session.user = {
          id: token.uid ?? "",
          sid: token.sid ?? "",
          email: token.email ?? "",
          name: token.name ?? "",
          roles: [],
        };
        return session;
      },
    },
    events: {
      // NextAuth's own sign-out route (the console uses its sign-out action) ends the session too.
      async signOut({ token }) {
        if (!token?.uid || !token.sid) return;
        await endSession(db, { id: token.uid, email: token.email ?? null, roles: [] }, token.sid);
      },
    },
  };
  return options;
}
