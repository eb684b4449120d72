import type { Metadata } from "next";
import { requirePageRole } from "@/lib/auth/session";
import { db } from "@/lib/db";
import { formatDuration } from "@/lib/format";
import { screenRoles } from "@/lib/nav";

export const metadata: Metadata = { title: "Providers" };

const METHOD_LABELS = {
  idempotency_key: "Idempotency key",
  provider_request_id: "Provider request id",
  domain_attributes: "Domain attributes",
} as const;

export default async function ProvidersPage() {
  await requirePageRole(screenRoles("/providers"), "/providers");
  const providers = await db.providerProfile.findMany({
    orderBy: { id: "asc" },
    include: { _count: { select: { intents: true } } },
  });
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold">Providers</h1>
        <p className="text-sm text-slate-600">
          What each provider promises: how long it remembers an idempotency key, how late its search may show
          an effect, and how Reckon can look an effect up.
        </p>
      </div>
      <div className="grid gap-4 md:grid-cols-2">
        {providers.map((p) => (
          <section
            key={p.id}
            aria-labelledby={`provider-${p.id}`}
            className="rounded border border-slate-200 bg-white p-4"
          >
            <h2 id={`provider-${p.id}`} className="text-lg font-semibold">
              {p.name} <span className="text-sm font-normal text-slate-600">{p.id}</span>
            </h2>
            <dl className="mt-3 grid grid-cols-[14rem_1fr] gap-y-1 text-sm">
              <dt className="text-slate-600">Kind</dt>
              <dd>{p.kind}</dd>
              <dt className="text-slate-600">Idempotency keys</dt>
              <dd>
                {p.supportsIdempotency
                  ? `Supported${p.parameterMatching ? ", parameters must match on reuse" : ""}${p.maxKeyLength ? `, up to ${p.maxKeyLength} characters` : ""}`
                  : "Not supported — Reckon's ledger is the only guard"}
              </dd>
              <dt className="text-slate-600">Key retention</dt>
              <dd>{p.keyRetentionSeconds ? formatDuration(p.keyRetentionSeconds) : "—"}</dd>
              <dt className="text-slate-600">Normal response window</dt>
              <dd>{formatDuration(p.responseWindowSeconds)}</dd>
              <dt className="text-slate-600">Maximum visibility delay</dt>
              <dd>{formatDuration(p.visibilityDelaySeconds)}</dd>
              <dt className="text-slate-600">Rate limit</dt>
              <dd>{p.rateLimitPerSecond} requests/s</dd>
              <dt className="text-slate-600">Lookup methods</dt>
              <dd>{p.lookupMethods.map((m) => METHOD_LABELS[m]).join(", ")}</dd>
              <dt className="text-slate-600">Intents in the ledger</dt>
              <dd>{p._count.intents.toLocaleString("en")}</dd>
            </dl>
          </section>
        ))}
      </div>
    </div>
  );
}
