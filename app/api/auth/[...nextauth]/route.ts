import NextAuth from "next-auth";
import { authOptions } from "@/lib/auth/options";

type Context = { params: Promise<{ nextauth: string[] }> };

// NextAuth's own sign-in, callback, session and sign-out endpoints.
function handler(request: Request, context: Context) {
  return NextAuth(request as never, context as never, authOptions()) as Promise<Response>;
}

export { handler as GET, handler as POST };
