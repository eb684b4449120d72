import type { Role } from "@/prisma/generated/enums";

/** The signed-in person a console action is done by (roles as the database has them now). */
export type Actor = { id: string; email: string; roles: Role[]; requestId?: string };

export function auditActor(actor: Actor) {
  return { id: actor.id, email: actor.email, roles: actor.roles };
}
