import type { PrismaClient, ProviderProfile } from "@/prisma/generated/client";
import type { TransitionAudit } from "@/lib/ledger/protocol";
import { stripeClient } from "@/lib/providers/payments";
import type { ProviderSettings } from "@/lib/providers/registry";
import type { WorkerDeps } from "./types";

/**
 * What runEffect needs to send an effect through one provider profile: its client
 * pointed at the profile's base URL (the default only when the profile has none), the
 * way lookups reach it too — so pointing a tenant's profile at a real provider sends
 * lookups and compensations alike there.
 */
export function depsForProfile(
  db: PrismaClient,
  profile: ProviderProfile,
  settings: ProviderSettings,
  o: { workerId: string; audit?: TransitionAudit; leaseMs?: number; maxAttempts?: number },
): WorkerDeps {
  const baseUrl = profile.baseUrl ?? settings.defaultBaseUrl;
  return {
    db,
    stripe: stripeClient({ apiKey: settings.stripeApiKey, baseUrl, timeoutMs: settings.timeoutMs }),
    mailer: { baseUrl, timeoutMs: settings.timeoutMs },
    providers: { payments: profile.id, mailer: profile.id },
    workerId: o.workerId,
    leaseMs: o.leaseMs ?? 30_000,
    maxAttempts: o.maxAttempts ?? 3,
    retryDelayMs: 50,
    audit: o.audit,
  };
}
