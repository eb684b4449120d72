import type { PrismaClient, ProviderProfile } from "@/prisma/generated/client";
import { appendAudit } from "@/lib/audit/append";
import { auditActor, type Actor } from "@/lib/auth/actor";
import { authorize } from "@/lib/auth/authorize";
import { transaction } from "@/lib/db/transaction";
import { formatUtc } from "@/lib/format";
import { ResolutionError } from "@/lib/resolution/errors";
import { PROFILE_BOUNDS } from "./bounds";
import { baseUrlProblem } from "./schemas";

export type ProfileChange = {
  providerId: string;
  /** null: the deployment's default provider address (SANDBOX_URL). */
  baseUrl: string | null;
  responseWindowSeconds: number;
  /** null for a provider without idempotency keys. */
  keyRetentionSeconds: number | null;
  visibilityDelaySeconds: number;
  rateLimitPerSecond: number;
  /** When the profile the admin edited was last changed: the compare-and-set's version. */
  expectedUpdatedAt: Date;
  reason: string;
};

const EDITABLE = [
  "baseUrl",
  "responseWindowSeconds",
  "keyRetentionSeconds",
  "visibilityDelaySeconds",
  "rateLimitPerSecond",
] as const;

type Editable = Pick<ProviderProfile, (typeof EDITABLE)[number]>;

const view = (p: Editable): Editable => Object.fromEntries(EDITABLE.map((k) => [k, p[k]])) as Editable;

/** The service's own check of what the schema checks, for callers that are not a form. */
function refuseOutOfBounds(input: ProfileChange, provider: ProviderProfile) {
  for (const field of ["responseWindowSeconds", "visibilityDelaySeconds", "rateLimitPerSecond"] as const) {
    const { label, min, max } = PROFILE_BOUNDS[field];
    const value = input[field];
    if (!Number.isInteger(value) || value < min || value > max)
      throw new ResolutionError("invalid", `${label}: a whole number from ${min} to ${max}.`);
  }
  const problem = input.baseUrl === null ? null : baseUrlProblem(input.baseUrl);
  if (problem) throw new ResolutionError("invalid", problem);
  const retention = input.keyRetentionSeconds;
  if (!provider.supportsIdempotency) {
    if (retention !== null)
      throw new ResolutionError(
        "invalid",
        `${provider.name} keeps no idempotency keys: leave key retention empty.`,
      );
    return;
  }
  const { min, max } = PROFILE_BOUNDS.keyRetentionSeconds;
  if (retention === null || !Number.isInteger(retention) || retention < min || retention > max)
    throw new ResolutionError("invalid", `Key retention: a whole number of seconds from ${min} to ${max}.`);
  // "Absent" is authoritative only after the visibility delay, and only while the key is kept.
  if (input.visibilityDelaySeconds >= retention)
    throw new ResolutionError(
      "invalid",
      "The maximum visibility delay must be shorter than the key retention: otherwise no lookup could ever prove an effect absent while the provider still keeps its key.",
    );
}

/**
 * An admin changes a provider profile's operating settings. Audited with before, after
 * and the reason in the same transaction; a compare-and-set on the profile's updatedAt,
 * so of two admins editing one profile the second is refused (naming who was first),
 * never silently overwritten. A change that changes nothing writes nothing.
 */
export async function updateProviderProfile(
  db: PrismaClient,
  admin: Actor,
  input: ProfileChange,
  now = new Date(),
): Promise<{ profile: ProviderProfile; changed: (typeof EDITABLE)[number][] }> {
  return transaction(db, async (tx) => {
    await authorize(tx, admin, "administer");
    const before = await tx.providerProfile.findUnique({ where: { id: input.providerId } });
    if (!before) throw new ResolutionError("not_found", "No such provider.");
    const stale = async () => {
      const last = await tx.auditEvent.findFirst({
        where: { action: "settings.provider_profile_changed", targetId: before.id },
        orderBy: { seq: "desc" },
        select: { actorEmail: true, occurredAt: true },
      });
      const by = last
        ? ` by ${last.actorEmail ?? "the system"} at ${formatUtc(last.occurredAt, "minute")}`
        : "";
      return new ResolutionError(
        "stale",
        `${before.name} was changed meanwhile${by}. Nothing was changed; reload and edit again.`,
      );
    };
    if (before.updatedAt.getTime() !== input.expectedUpdatedAt.getTime()) throw await stale();
    refuseOutOfBounds(input, before);
    const after: Editable = view(input);
    const changed = EDITABLE.filter((k) => before[k] !== after[k]);
    if (changed.length === 0) return { profile: before, changed };
    const { count } = await tx.providerProfile.updateMany({
      where: { id: before.id, updatedAt: input.expectedUpdatedAt },
      // Always a new version, even within the millisecond of the last change.
      data: { ...after, updatedAt: new Date(Math.max(now.getTime(), before.updatedAt.getTime() + 1)) },
    });
    if (count !== 1) throw await stale();
    await appendAudit(tx, {
      actor: auditActor(admin),
      action: "settings.provider_profile_changed",
      targetType: "provider_profile",
      targetId: before.id,
      reason: input.reason,
      requestId: admin.requestId,
      details: { changed, before: view(before), after },
      occurredAt: now,
    });
    return { profile: await tx.providerProfile.findUniqueOrThrow({ where: { id: before.id } }), changed };
  });
}
