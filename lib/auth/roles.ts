import { Role } from "@/prisma/generated/enums";

export type { Role };
export const ROLES = Object.values(Role) as readonly Role[];

export const ROLE_LABELS: Record<Role, string> = {
  operator: "Operator",
  approver: "Approver",
  auditor: "Auditor",
  admin: "Admin",
};

/** Unknown role names are dropped, never granted. */
export function knownRoles(values: readonly unknown[]): Role[] {
  return values.filter((v): v is Role => typeof v === "string" && (ROLES as readonly string[]).includes(v));
}

export function hasAnyRole(userRoles: readonly Role[], allowed: readonly Role[]): boolean {
  return userRoles.some((r) => allowed.includes(r));
}
