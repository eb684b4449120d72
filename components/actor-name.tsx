/**
 * Who did something: a person by name, or a machine actor (users.system, the
 * reconciler) marked as automatic, so no one mistakes its work for a colleague's.
 */
export function ActorName({
  name,
  system,
  email,
}: {
  name: string | null | undefined;
  system?: boolean;
  email?: string | null;
}) {
  if (system) {
    return (
      <span title={email ?? undefined} data-actor="system">
        {name ?? "Reconciler"} <span className="text-slate-600">(automatic)</span>
      </span>
    );
  }
  return <>{name ?? email ?? "system"}</>;
}
