import type { Role } from "@/lib/generated/prisma/enums";

declare module "next-auth" {
  interface Session {
    user: { id: string; email: string; name: string; roles: Role[] };
  }
  interface User {
    roles?: Role[];
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    uid?: string;
    roles?: Role[];
  }
}
