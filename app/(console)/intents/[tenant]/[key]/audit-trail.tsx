import { ActorName } from "@/components/actor-name";
import { Time } from "@/components/time";
import type { IntentPageData } from "./load";

export function AuditTrail({
  audit,
  systemActors,
}: {
  audit: IntentPageData["audit"];
  /** Machine actors by id (the reconciler), shown as automatic rather than by email. */
  systemActors: IntentPageData["systemActors"];
}) {
  return (
    <section aria-labelledby="trail" className="rounded border border-slate-200 bg-white p-4">
      <h2 id="trail" className="mb-2 font-semibold">
        Audit trail
      </h2>
      <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Audit trail, scrollable">
        <table className="w-full text-sm" aria-label="Audit trail">
          <thead>
            <tr className="text-left text-xs text-slate-600">
              <th className="py-1">When</th>
              <th>Who</th>
              <th>Action</th>
              <th>Status</th>
              <th>Reason</th>
            </tr>
          </thead>
          <tbody>
            {audit.length === 0 && (
              <tr>
                <td colSpan={5} className="py-2 text-slate-600">
                  No operator action yet.
                </td>
              </tr>
            )}
            {audit.map((e) => (
              <tr key={String(e.seq)} className="border-t border-slate-100">
                <td className="py-1 whitespace-nowrap">
                  <Time value={e.occurredAt} precision="second" />
                </td>
                <td>
                  {e.actorId && systemActors.has(e.actorId) ? (
                    <ActorName name={systemActors.get(e.actorId)} system email={e.actorEmail} />
                  ) : (
                    (e.actorEmail ?? "system")
                  )}
                </td>
                <td>{e.action}</td>
                <td>
                  {e.beforeStatus && e.afterStatus
                    ? e.beforeStatus === e.afterStatus
                      ? e.afterStatus
                      : `${e.beforeStatus} → ${e.afterStatus}`
                    : "—"}
                </td>
                <td className="text-slate-600">{e.reason ?? ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
