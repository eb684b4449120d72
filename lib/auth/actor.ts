import type { Role } from "@/prisma/generated/enums";

/** The signed-in person a console action is done by (roles as the database has them now). */
export type Actor = {
  id: string;
  email: string;
  roles: Role[];
  requestId?: string;
  /** A machine actor (the reconciler), never a signed-in person. */
  system?: boolean;
};

export function auditActor(actor: Actor) {
  return { id: actor.id, email: actor.email, roles: actor.roles };
}
