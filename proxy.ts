import { getToken } from "next-auth/jwt";
import { NextResponse, type NextRequest } from "next/server";
import { getEnv } from "@/lib/env";
import { isCrossSite } from "@/lib/http/same-origin";
import { contentSecurityPolicy, securityHeaders } from "@/lib/http/security-headers";

// Paths anyone may reach: the sign-in page and NextAuth's own routes, the health check
// (for load balancers), and /api/metrics (it checks its bearer token itself).
const PUBLIC = /^\/(login|api\/auth\/|api\/health$|api\/metrics$)/;

/**
 * Runs before every request but static files: security headers and a fresh CSP nonce
 * on every response, a plain 403 for a server action posted from another origin, and
 * an early, optimistic redirect for anonymous visitors. The redirect is not the access
 * check: every page, route handler and server action checks the role itself.
 */
export async function proxy(request: NextRequest) {
  const env = getEnv();
  const finish = (response: NextResponse, csp?: string) => {
    for (const [name, value] of Object.entries(securityHeaders({ https: env.https })))
      response.headers.set(name, value);
    if (csp) response.headers.set("content-security-policy", csp);
    return response;
  };
  // Next.js refuses a server action posted from another origin with a bare 500; say it plainly, first.
  if (request.method === "POST" && request.headers.has("next-action") && isCrossSite(request.headers)) {
    return finish(
      NextResponse.json({ code: "forbidden", message: "Cross-site requests are refused." }, { status: 403 }),
    );
  }

  const path = request.nextUrl.pathname;
  try {
    decodeURIComponent(path);
  } catch {
    // Broken percent-encoding names nothing: a plain 400 rather than a failure deeper in.
    return finish(new NextResponse("Bad request: the address is not valid.", { status: 400 }));
  }
  // A server action checks the session itself and answers "sign in first" in its own
  // result, which the form shows; a redirect would swallow the form's answer.
  const isAction = request.method === "POST" && request.headers.has("next-action");
  if (!PUBLIC.test(path) && !isAction) {
    const token = await getToken({ req: request, secret: env.sessionSecret });
    if (!token?.uid) {
      if (path.startsWith("/api/"))
        return finish(
          NextResponse.json({ code: "unauthenticated", message: "Sign in first." }, { status: 401 }),
        );
      const login = new URL("/login", request.url);
      login.searchParams.set("callbackUrl", path + request.nextUrl.search);
      return finish(NextResponse.redirect(login));
    }
  }

  const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
  const csp = contentSecurityPolicy(nonce, {
    https: env.https,
    dev: env.NODE_ENV === "development",
    formTargets: env.oidc ? [new URL(env.oidc.issuer).origin] : [],
  });
  // Next.js reads the nonce from the request's CSP header and puts it on its own scripts.
  const headers = new Headers(request.headers);
  headers.set("x-nonce", nonce);
  headers.set("content-security-policy", csp);
  return finish(NextResponse.next({ request: { headers } }), csp);
}

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico|robots.txt).*)"],
};
