import type { Metadata } from "next";
import { mayPerform } from "@/lib/auth/authorize";
import { requirePageRole } from "@/lib/auth/session";
import { db } from "@/lib/db";
import { Time } from "@/components/time";
import { formatDuration } from "@/lib/format";
import { screenRoles } from "@/lib/nav";
import { ProfileForm } from "./profile-form";

export const metadata: Metadata = { title: "Providers" };

const METHOD_LABELS = {
  idempotency_key: "Idempotency key",
  provider_request_id: "Provider request id",
  domain_attributes: "Domain attributes",
} as const;

export default async function ProvidersPage() {
  const user = await requirePageRole(screenRoles("/providers"), "/providers");
  const canEdit = mayPerform(user.roles, "administer");
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
          {canEdit &&
            " Admins change the operating settings below, each change with a reason the audit log keeps beside before and after. Key retention and the visibility delay decide when a lookup may prove an effect absent and whether a key may be sent again: set them to what the provider documents, never more generous."}
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
            <dl className="mt-3 grid grid-cols-1 sm:grid-cols-[14rem_1fr] gap-x-2 gap-y-1 text-sm">
              <dt className="text-slate-600 max-sm:mt-1">Base URL</dt>
              <dd className="break-all">{p.baseUrl ?? "the deployment's default"}</dd>
              <dt className="text-slate-600 max-sm:mt-1">Kind</dt>
              <dd>{p.kind}</dd>
              <dt className="text-slate-600 max-sm:mt-1">Idempotency keys</dt>
              <dd>
                {p.supportsIdempotency
                  ? `Supported${p.parameterMatching ? ", parameters must match on reuse" : ""}${p.maxKeyLength ? `, up to ${p.maxKeyLength} characters` : ""}`
                  : "Not supported — Reckon's ledger is the only guard"}
              </dd>
              <dt className="text-slate-600 max-sm:mt-1">Key retention</dt>
              <dd>{p.keyRetentionSeconds ? formatDuration(p.keyRetentionSeconds) : "—"}</dd>
              <dt className="text-slate-600 max-sm:mt-1">Normal response window</dt>
              <dd>{formatDuration(p.responseWindowSeconds)}</dd>
              <dt className="text-slate-600 max-sm:mt-1">Maximum visibility delay</dt>
              <dd>{formatDuration(p.visibilityDelaySeconds)}</dd>
              <dt className="text-slate-600 max-sm:mt-1">Rate limit</dt>
              <dd>{p.rateLimitPerSecond} requests/s</dd>
              <dt className="text-slate-600 max-sm:mt-1">Lookup methods</dt>
              <dd>{p.lookupMethods.map((m) => METHOD_LABELS[m]).join(", ")}</dd>
              <dt className="text-slate-600 max-sm:mt-1">Intents in the ledger</dt>
              <dd>{p._count.intents.toLocaleString("en")}</dd>
              <dt className="text-slate-600 max-sm:mt-1">Last changed</dt>
              <dd>
                <Time value={p.updatedAt} />
              </dd>
            </dl>
            {canEdit && (
              <ProfileForm
                profile={{
                  id: p.id,
                  name: p.name,
                  baseUrl: p.baseUrl ?? "",
                  responseWindowSeconds: String(p.responseWindowSeconds),
                  keyRetentionSeconds: p.keyRetentionSeconds === null ? "" : String(p.keyRetentionSeconds),
                  visibilityDelaySeconds: String(p.visibilityDelaySeconds),
                  rateLimitPerSecond: String(p.rateLimitPerSecond),
                  supportsIdempotency: p.supportsIdempotency,
                  updatedAt: p.updatedAt.toISOString(),
                }}
              />
            )}
          </section>
        ))}
      </div>
    </div>
  );
}
