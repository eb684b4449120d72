import { randomUUID } from "node:crypto";
import type { Prisma, PrismaClient } from "@/lib/generated/prisma/client";
import type { AttemptOutcome, IntentStatus, Role } from "@/lib/generated/prisma/enums";
import { appendAudit, SYSTEM_ACTOR } from "@/lib/audit/append";
import { hashPassword } from "@/lib/auth/password";
import { digest } from "@/lib/ledger/digest";
import { maskEmail } from "@/lib/redact";
import { rng, type Rng } from "./random";

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

// Minor units per currency for thresholds: JPY has no minor unit.
const CURRENCIES = [
  ["USD", 0.45],
  ["EUR", 0.3],
  ["GBP", 0.17],
  ["JPY", 0.08],
] as const;
const THRESHOLDS: Record<string, [bigint, bigint]> = {
  USD: [100_000n, 1_000_000n],
  EUR: [100_000n, 1_000_000n],
  GBP: [80_000n, 800_000n],
  JPY: [150_000n, 1_500_000n],
};

const TEMPLATES = ["receipt", "payment-failed", "booking-confirmation", "password-reset", "invoice-due"];
const FIRST_NAMES = [
  "jane",
  "omar",
  "li",
  "sofia",
  "kwame",
  "ines",
  "mateo",
  "yuki",
  "noah",
  "amelie",
  "ravi",
  "zoe",
];
const DOMAINS = ["example.com", "example.org", "mail.example.net"];
const UNKNOWN_CAUSES = ["timeout", "connection_reset", "worker_lost", "response_lost"];
const RETRIABLE = ["http_429", "http_500", "http_503"];

export type SeedOptions = { intents?: number; seed?: number; now?: Date };
export type SeedReport = {
  users: number;
  tenants: number;
  providers: number;
  intents: number;
  attempts: number;
  byStatus: Record<string, number>;
};

/** Users, tenants, provider profiles and approval thresholds: everything but the ledger. */
export async function seedReferenceData(
  prisma: PrismaClient,
  options: { providerBaseUrl?: string | null } = {},
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
      });
    }
  });
  return users;
}

/** Seeds users, tenants, providers, thresholds and a synthetic ledger; skips if tenants already exist. */
export async function seedDemo(prisma: PrismaClient, options: SeedOptions = {}): Promise<SeedReport | null> {
  if ((await prisma.tenant.count()) > 0) return null;
  const now = options.now ?? new Date();
  const r = rng(options.seed ?? 1);
  const users = await seedReferenceData(prisma);

  const { intents, attempts } = syntheticLedger(r, options.intents ?? 2100, now);
  for (let i = 0; i < intents.length; i += 500) {
    await prisma.effectIntent.createMany({ data: intents.slice(i, i + 500) });
  }
  for (let i = 0; i < attempts.length; i += 1000) {
    await prisma.effectAttempt.createMany({ data: attempts.slice(i, i + 1000) });
  }
  const byStatus: Record<string, number> = {};
  for (const i of intents) byStatus[i.status!] = (byStatus[i.status!] ?? 0) + 1;
  await prisma.$transaction((tx) =>
    appendAudit(tx, {
      actor: SYSTEM_ACTOR,
      action: "ledger.seeded",
      details: { intents: intents.length, attempts: attempts.length, byStatus, seed: options.seed ?? 1 },
    }),
  );
  return {
    users: users.length,
    tenants: DEMO_TENANTS.length,
    providers: DEMO_PROVIDERS.length,
    intents: intents.length,
    attempts: attempts.length,
    byStatus,
  };
}

type IntentRow = Prisma.EffectIntentCreateManyInput & {
  id: string;
  createdAt: Date;
  lastAttemptAt?: Date | null;
  resolvedAt?: Date | null;
};
type AttemptRow = Prisma.EffectAttemptCreateManyInput;

function amountFor(r: Rng, currency: string): bigint {
  // Mostly everyday amounts, a long tail of large ones (for approval thresholds).
  const major = r.chance(0.06) ? r.int(1_000, 25_000) : r.chance(0.3) ? r.int(100, 999) : r.int(5, 99);
  const cents = currency === "JPY" ? 0 : r.int(0, 99);
  return BigInt(currency === "JPY" ? major * 150 : major * 100 + cents);
}

function syntheticLedger(r: Rng, count: number, now: Date): { intents: IntentRow[]; attempts: AttemptRow[] } {
  const intents: IntentRow[] = [];
  const attempts: AttemptRow[] = [];
  const dayMs = 86_400_000;

  const addAttempts = (
    intent: IntentRow,
    finalOutcome: AttemptOutcome,
    finalError: string | null,
    start: Date,
  ) => {
    const retries =
      finalOutcome === "in_flight"
        ? 0
        : r.weighted([
            [0, 0.8],
            [1, 0.15],
            [2, 0.05],
          ] as const);
    let t = start.getTime();
    for (let n = 1; n <= retries + 1; n++) {
      const last = n === retries + 1;
      const took = r.int(80, 2_500);
      attempts.push({
        id: randomUUID(),
        intentId: intent.id,
        tenantId: intent.tenantId,
        attemptNo: n,
        leaseOwner: `worker-${r.int(1, 8)}`,
        startedAt: new Date(t),
        finishedAt:
          last && (finalOutcome === "in_flight" || finalOutcome === "unknown") ? null : new Date(t + took),
        outcome: last ? finalOutcome : "rejected",
        errorClass: last ? finalError : r.pick(RETRIABLE),
        providerRequestId: `req_${r.id(14)}`,
      });
      if (!last) t += took + r.int(1_000, 30_000);
    }
    intent.attemptCount = retries + 1;
    intent.lastAttemptAt = new Date(t);
  };

  for (let n = 0; n < count; n++) {
    const tenant = r.weighted(DEMO_TENANTS.map((t, i) => [t, [0.45, 0.35, 0.2][i] ?? 0.1] as const));
    const isCharge = r.chance(0.65);
    // Unknowns are recent-ish: minutes to a few days, some past the 24 h key retention.
    let status: IntentStatus = r.weighted([
      ["confirmed", 0.84],
      ["rejected", 0.07],
      ["unknown", 0.05],
      ["dispatched", 0.025],
      ["prepared", 0.015],
    ] as const);
    const ageMs =
      status === "unknown"
        ? r.weighted([
            [r.int(2, 55) * 60_000, 0.4],
            [r.int(1, 23) * 3_600_000, 0.35],
            [r.int(25, 120) * 3_600_000, 0.25],
          ] as const)
        : status === "dispatched" || status === "prepared"
          ? r.int(1, 20) * 1000
          : r.int(1, 30 * 24 * 60) * 60_000;
    const createdAt = new Date(now.getTime() - ageMs);
    const base: IntentRow = {
      id: randomUUID(),
      tenantId: tenant.id,
      intentKey: "",
      workflowId: "",
      stepId: "",
      providerId: isCharge ? "payments-sandbox" : "mailer-sandbox",
      operation: isCharge ? "charge" : "send_email",
      requestDigest: "",
      requestSummary: {},
      status,
      createdAt,
      updatedAt: createdAt,
    };

    if (isCharge) {
      const invoice = `inv_${tenant.id.slice(0, 3)}${String(10_000 + n)}`;
      const currency = r.weighted(CURRENCIES);
      const amountMinor = amountFor(r, currency);
      const customer = `cus_${r.id(10)}`;
      Object.assign(base, {
        intentKey: `invoice:${invoice}:collect:v1`,
        workflowId: `wf_collect_${invoice}`,
        stepId: "charge-card",
        amountMinor,
        currency,
        customerRef: `invoice/${invoice}`,
        requestSummary: {
          amount_minor: amountMinor.toString(),
          currency,
          customer,
          description: `Invoice ${invoice}`,
        },
        requestDigest: digest({
          amount: amountMinor.toString(),
          currency,
          customer,
          metadata: { intent_key: `invoice:${invoice}:collect:v1` },
          payment_method: `pm_${r.id(12)}`,
        }),
      });
    } else {
      const order = `ord_${tenant.id.slice(0, 3)}${String(10_000 + n)}`;
      const email = `${r.pick(FIRST_NAMES)}.${r.id(4).toLowerCase()}@${r.pick(DOMAINS)}`;
      const template = r.pick(TEMPLATES);
      Object.assign(base, {
        intentKey: `order:${order}:${template}:v1`,
        workflowId: `wf_notify_${order}`,
        stepId: `send-${template}`,
        recipient: maskEmail(email),
        template,
        customerRef: `order/${order}`,
        requestSummary: { recipient: maskEmail(email), template },
        requestDigest: digest({ to: email, template, vars: { order } }),
      });
    }

    const started = new Date(createdAt.getTime() + r.int(5, 400));
    switch (status) {
      case "prepared":
        base.attemptCount = 0;
        break;
      case "dispatched":
        base.leaseOwner = `worker-${r.int(1, 8)}`;
        base.leaseExpiresAt = new Date(now.getTime() + r.int(10, 60) * 1000);
        addAttempts(base, "in_flight", null, started);
        break;
      case "confirmed":
        base.providerResultId = isCharge ? `ch_${r.id(14)}` : `msg_${r.id(14)}`;
        base.responseDigest = digest({ id: base.providerResultId, status: "succeeded" });
        addAttempts(base, "succeeded", null, started);
        base.resolvedAt = new Date(base.lastAttemptAt!.getTime() + r.int(80, 2000));
        break;
      case "rejected":
        addAttempts(
          base,
          "rejected",
          isCharge
            ? r.pick(["card_declined", "insufficient_funds", "expired_card"])
            : r.pick(["invalid_recipient", "suppressed"]),
          started,
        );
        base.resolvedAt = new Date(base.lastAttemptAt!.getTime() + r.int(80, 2000));
        break;
      case "unknown":
        addAttempts(base, "unknown", r.pick(UNKNOWN_CAUSES), started);
        base.needsOperator = r.chance(0.1);
        break;
      default:
        break;
    }
    base.version = status === "prepared" ? 0 : status === "dispatched" ? 1 : 2;
    base.updatedAt = base.resolvedAt ?? base.lastAttemptAt ?? createdAt;
    intents.push(base);

    // Some confirmed charges were later refunded through a compensation intent.
    if (isCharge && status === "confirmed" && ageMs > dayMs && r.chance(0.05)) {
      const refundStatus: IntentStatus = r.weighted([
        ["confirmed", 0.8],
        ["unknown", 0.1],
        ["dispatched", 0.1],
      ] as const);
      status = refundStatus === "confirmed" ? "compensated" : "compensating";
      base.status = status;
      base.version = 3;
      const refund: IntentRow = {
        ...base,
        id: randomUUID(),
        intentKey: `${base.intentKey.replace(/:collect:v1$/, "")}:refund:v1`,
        stepId: "refund-charge",
        operation: "refund",
        status: refundStatus,
        compensatesId: base.id,
        needsOperator: false,
        providerResultId: null,
        responseDigest: null,
        resolvedAt: null,
        createdAt: new Date(createdAt.getTime() + r.int(2, 20) * 3_600_000),
        requestSummary: { ...(base.requestSummary as object), refunds: base.providerResultId },
        requestDigest: digest({ charge: base.providerResultId, amount: String(base.amountMinor) }),
      };
      const refundStart = new Date(refund.createdAt.getTime() + 200);
      if (refundStatus === "confirmed") {
        refund.providerResultId = `re_${r.id(14)}`;
        refund.responseDigest = digest({ id: refund.providerResultId, status: "succeeded" });
        addAttempts(refund, "succeeded", null, refundStart);
        refund.resolvedAt = refund.lastAttemptAt;
        refund.version = 2;
      } else if (refundStatus === "unknown") {
        addAttempts(refund, "unknown", r.pick(UNKNOWN_CAUSES), refundStart);
        refund.version = 2;
      } else {
        refund.leaseOwner = `worker-${r.int(1, 8)}`;
        refund.leaseExpiresAt = new Date(now.getTime() + 30_000);
        addAttempts(refund, "in_flight", null, refundStart);
        refund.version = 1;
      }
      refund.updatedAt = refund.resolvedAt ?? refund.lastAttemptAt ?? refund.createdAt;
      intents.push(refund);
    }
  }
  return { intents, attempts };
}
