import type { PrismaClient } from "@/prisma/generated/client";
import type { Actor } from "@/lib/auth/actor";

/** The reconciler's account: a machine actor with the operator's duties, no password, no sign-in. */
export const RECONCILER_EMAIL = "reconciler@reckon.invalid";

/**
 * The reconciler acts as this user, through the same services as a person: every
 * lookup and resolution it makes names it in the ledger and the audit log. An admin
 * who disables the account stops every reconciler at its next step.
 */
export async function reconcilerActor(db: PrismaClient): Promise<Actor> {
  const user = await db.user.upsert({
    where: { email: RECONCILER_EMAIL },
    create: { email: RECONCILER_EMAIL, name: "Reconciler", roles: ["operator"], system: true },
    update: {},
  });
  if (!user.system) throw new Error(`${RECONCILER_EMAIL} belongs to a person, not to the reconciler`);
  return { id: user.id, email: user.email, roles: user.roles, system: true };
}
