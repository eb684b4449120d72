import { randomUUID } from "node:crypto";
import type { Prisma, PrismaClient } from "@/prisma/generated/client";
import type { Role } from "@/prisma/generated/enums";
import { appendAudit, SYSTEM_ACTOR } from "@/lib/audit/append";
import { hashPassword } from "@/lib/auth/password";

export const DEMO_PASSWORD = "reckon-demo";

export const DEMO_USERS: { email: string; name: string; roles: Role[] }[] = [
  { email: "operator@demo.test", name: "Olivia Operator", roles: ["operator"] },
  { email: "operator2@demo.test", name: "Oscar Operator", roles: ["operator"] },
  { email: "approver@demo.test", name: "Amara Approver", roles: ["approver"] },
  { email: "approver2@demo.test", name: "Arjun Approver", roles: ["approver"] },
  { email: "auditor@demo.test", name: "Aude Auditor", roles: ["auditor"] },
  { email: "admin@demo.test", name: "Adam Admin", roles: ["admin"] },
];

export const DEMO_TENANTS: readonly { id: string; name: string }[] = [
  { id: "acme-shop", name: "Acme Shop" },
  { id: "globex-travel", name: "Globex Travel" },
  { id: "initech-saas", name: "Initech SaaS" },
];

export const DEMO_PROVIDERS: Prisma.ProviderProfileCreateManyInput[] = [
  {
    id: "payments-sandbox",
    name: "Payments sandbox (Stripe-compatible)",
    kind: "payments",
    baseUrl: null,
    supportsIdempotency: true,
    keyRetentionSeconds: 24 * 3600,
    maxKeyLength: 255,
    parameterMatching: true,
    responseWindowSeconds: 30,
    visibilityDelaySeconds: 60,
    rateLimitPerSecond: 25,
    lookupMethods: ["idempotency_key", "provider_request_id", "domain_attributes"],
  },
  {
    id: "mailer-sandbox",
    name: "Mailer sandbox",
    kind: "mailer",
    baseUrl: null,
    supportsIdempotency: false,
    keyRetentionSeconds: null,
    maxKeyLength: null,
    parameterMatching: false,
    responseWindowSeconds: 10,
    visibilityDelaySeconds: 5,
    rateLimitPerSecond: 10,
    lookupMethods: ["provider_request_id", "domain_attributes"],
  },
];

// Thresholds in minor units; JPY has no minor unit.
const THRESHOLDS: Record<string, [bigint, bigint]> = {
  USD: [100_000n, 1_000_000n],
  EUR: [100_000n, 1_000_000n],
  GBP: [80_000n, 800_000n],
  JPY: [150_000n, 1_500_000n],
};

/** Users, tenants, provider profiles and approval thresholds: everything but the ledger. */
export async function seedReferenceData(
  prisma: PrismaClient,
  options: { providerBaseUrl?: string | null; at?: Date } = {},
) {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const users = DEMO_USERS.map((u) => ({ ...u, id: randomUUID(), passwordHash }));
  await prisma.$transaction(async (tx) => {
    await tx.tenant.createMany({ data: [...DEMO_TENANTS] });
    await tx.providerProfile.createMany({
      data: DEMO_PROVIDERS.map((p) => ({ ...p, baseUrl: options.providerBaseUrl ?? null })),
    });
    await tx.user.createMany({ data: users });
    const admin = users.find((u) => u.roles.includes("admin"))!;
    await tx.approvalThreshold.createMany({
      data: DEMO_TENANTS.flatMap((t) =>
        Object.entries(THRESHOLDS).map(([currency, [single, dual]]) => ({
          tenantId: t.id,
          currency,
          thresholdMinor: single,
          dualThresholdMinor: dual,
          updatedById: admin.id,
        })),
      ),
    });
    for (const u of users) {
      await appendAudit(tx, {
        actor: SYSTEM_ACTOR,
        action: "user.created",
        targetType: "user",
        targetId: u.id,
        details: { email: u.email, roles: u.roles, via: "demo seed" },
        occurredAt: options.at,
      });
    }
  });
  return users;
}
