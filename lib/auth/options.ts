import "server-only";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { z } from "zod";
import { appendAudit } from "@/lib/audit/append";
import { db } from "@/lib/db";
import { requestIdFrom } from "@/lib/http/request-id";
import { getEnv } from "@/lib/env";
import { normalizeEmail, signInWithPassword } from "./sign-in";

const credentials = z.object({
  email: z.string().trim().min(3).max(254),
  password: z.string().min(1).max(1024),
});

/** Shown on the sign-in page for a locked account. */
export const LOCKED_PREFIX = "locked:";

let options: NextAuthOptions | undefined;

// Built on first use rather than at import, so `next build` needs no secret.
export function authOptions(): NextAuthOptions {
  if (options) return options;
  const env = getEnv();
  const providers: NextAuthOptions["providers"] = [
    CredentialsProvider({
      name: "Email and password",
      credentials: {
        email: { label: "Email", type: "email" },
        password: { label: "Password", type: "password" },
      },
      async authorize(raw, req) {
        const parsed = credentials.safeParse(raw);
        if (!parsed.success) return null;
        const result = await signInWithPassword(db, {
          ...parsed.data,
          requestId: requestIdFrom(req.headers?.["x-request-id"]),
        });
        if (result.ok)
          return {
            id: result.user.id,
            email: result.user.email,
            name: result.user.name,
            roles: result.user.roles,
          };
        if (result.reason === "locked") throw new Error(`${LOCKED_PREFIX}${result.retryAt.toISOString()}`);
        return null;
      },
    }),
  ];
  if (env.oidc) {
    providers.push({
      id: "oidc",
      name: env.oidc.name,
      type: "oauth",
      wellKnown: new URL(".well-known/openid-configuration", env.oidc.issuer.replace(/\/?$/, "/")).toString(),
      clientId: env.oidc.clientId,
      clientSecret: env.oidc.clientSecret,
      authorization: { params: { scope: "openid email profile" } },
      idToken: true,
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
    session: { strategy: "jwt", maxAge: env.SESSION_MAX_AGE_SECONDS },
    jwt: { maxAge: env.SESSION_MAX_AGE_SECONDS },
    pages: { signIn: "/login", error: "/login" },
    providers,
    callbacks: {
      // SSO only admits people an admin has provisioned; roles always come from Reckon.
      async signIn({ user, account }) {
        if (account?.provider !== "oidc") return true;
        const email = user.email ? normalizeEmail(user.email) : null;
        const known = email ? await db.user.findUnique({ where: { email } }) : null;
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
        if (user && account) {
          const row =
            account.provider === "oidc"
              ? await db.user.findUnique({ where: { email: normalizeEmail(user.email ?? "") } })
              : await db.user.findUnique({ where: { id: user.id } });
          if (row) {
            token.uid = row.id;
            token.roles = row.roles;
            token.name = row.name;
            token.email = row.email;
          }
        }
        return token;
      },
      session({ session, token }) {
        session.user = {
          id: token.uid ?? "",
          email: token.email ?? "",
          name: token.name ?? "",
          roles: token.roles ?? [],
        };
        return session;
      },
    },
    events: {
      async signOut({ token }) {
        if (!token?.uid) return;
        await db.$transaction((tx) =>
          appendAudit(tx, {
            actor: { id: token.uid ?? null, email: token.email ?? null, roles: token.roles ?? [] },
            action: "auth.sign_out",
            targetType: "user",
            targetId: token.uid ?? null,
          }),
        );
      },
    },
  };
  return options;
}
