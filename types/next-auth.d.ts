import type { Role } from "@/prisma/generated/enums";

declare module "next-auth" {
  interface Session {
    /** Roles are re-read from the database on every request (lib/auth/session.ts), never trusted from here. */
    user: { id: string; sid: string; email: string; name: string; roles: Role[] };
  }
  interface User {
    roles?: Role[];
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    uid?: string;
    /** The `sessions` row this cookie belongs to. */
    sid?: string;
  }
}
