import { getToken } from "next-auth/jwt";
import { NextResponse, type NextRequest } from "next/server";
import { getEnv } from "@/lib/env";
import { isCrossSite } from "@/lib/http/same-origin";

// An early, optimistic redirect for anonymous visitors. It is not the access
// check: every page, route handler and server action checks the role itself.
export async function proxy(request: NextRequest) {
  // Next.js refuses a server action posted from another origin with a bare 500; say it plainly, first.
  if (request.method === "POST" && request.headers.has("next-action") && isCrossSite(request.headers)) {
    return NextResponse.json(
      { code: "forbidden", message: "Cross-site requests are refused." },
      { status: 403 },
    );
  }
  const token = await getToken({ req: request, secret: getEnv().sessionSecret });
  if (token?.uid) return NextResponse.next();
  if (request.nextUrl.pathname.startsWith("/api/")) {
    return NextResponse.json({ error: "unauthenticated", message: "Sign in first." }, { status: 401 });
  }
  const login = new URL("/login", request.url);
  login.searchParams.set("callbackUrl", request.nextUrl.pathname + request.nextUrl.search);
  return NextResponse.redirect(login);
}

// /api/metrics answers Prometheus with a bearer token, so it checks access itself.
export const config = {
  matcher: ["/((?!login|api/auth|api/health|api/metrics|_next/static|_next/image|favicon.ico|robots.txt).*)"],
};
