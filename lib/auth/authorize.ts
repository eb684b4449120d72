import type { Prisma, PrismaClient } from "@/prisma/generated/client";
import type { Role } from "@/prisma/generated/enums";
import { AuthError } from "@/lib/auth/errors";
import type { Actor } from "./actor";
import { ROLE_LABELS } from "./roles";

/**
 * What each console duty needs, enforced by the services themselves (not only by the
 * pages and actions in front of them): the role it takes, and the roles that exclude
 * it. An admin never resolves or approves, whatever other roles they hold.
 */
export const DUTIES = {
  claim: { role: "operator", verb: "claim intents" },
  look_up: { role: "operator", verb: "run provider lookups" },
  resolve: { role: "operator", verb: "resolve intents", excludedBy: "admin" },
  decide: { role: "approver", verb: "approve or deny resolutions", excludedBy: "admin" },
  administer: { role: "admin", verb: "change settings" },
  verify_audit: { role: "auditor", verb: "verify the audit log" },
} as const satisfies Record<string, { role: Role; verb: string; excludedBy?: Role }>;

export type Duty = keyof typeof DUTIES;

const ROLE_NAMES: Record<Role, string> = {
  operator: "operators",
  approver: "approvers",
  auditor: "auditors",
  admin: "admins",
};

/**
 * Why a set of roles breaks separation of duties, or null: a role that excludes a duty
 * (admin) may not be held together with the role that duty takes (operator, approver).
 * Derived from DUTIES, so the rule for granting roles is the rule for using them.
 */
export function rolesConflict(roles: readonly Role[]): string | null {
  const rules: { role: Role; verb: string; excludedBy?: Role }[] = Object.values(DUTIES);
  const clashes = rules.filter((r) => r.excludedBy && roles.includes(r.excludedBy) && roles.includes(r.role));
  const excluded = clashes[0]?.excludedBy;
  if (!excluded) return null;
  const held = [...new Set(clashes.map((r) => ROLE_LABELS[r.role]))].join(" or ");
  const verbs = clashes.map((r) => r.verb).join(", nor ");
  return `${ROLE_LABELS[excluded]} cannot be combined with ${held}: an ${excluded} may not ${verbs} (separation of duties).`;
}

/** Pure check of a set of roles against a duty. */
export function mayPerform(roles: readonly Role[], duty: Duty): boolean {
  const rule: { role: Role; excludedBy?: Role } = DUTIES[duty];
  return roles.includes(rule.role) && !(rule.excludedBy && roles.includes(rule.excludedBy));
}

/**
 * Refuses an actor who may not perform the duty, by the roles the database holds now
 * (read in the caller's transaction, so a role taken away or an account disabled a
 * moment ago counts). Returns the roles it checked.
 */
export async function authorize(
  tx: PrismaClient | Prisma.TransactionClient,
  actor: Pick<Actor, "id">,
  duty: Duty,
): Promise<Role[]> {
  const user = await tx.user.findUnique({ where: { id: actor.id }, select: { roles: true, disabled: true } });
  if (!user || user.disabled)
    throw new AuthError("unauthenticated", "Your account is not active; sign in again.");
  const rule: { role: Role; verb: string; excludedBy?: Role } = DUTIES[duty];
  if (!user.roles.includes(rule.role))
    throw new AuthError("forbidden", `Only ${ROLE_NAMES[rule.role]} may ${rule.verb}.`);
  if (rule.excludedBy && user.roles.includes(rule.excludedBy))
    throw new AuthError(
      "forbidden",
      `You hold the ${rule.excludedBy} role, so you may not ${rule.verb} (separation of duties).`,
    );
  return user.roles;
}
