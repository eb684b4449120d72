import { expect } from "vitest";
import type { PrismaClient } from "@/prisma/generated/client";
import { appendAudit, SYSTEM_ACTOR } from "@/lib/audit/append";
import { digest } from "@/lib/digest";

/**
 * Writes and reads back every model through Prisma Client, every column set, so
 * a schema.prisma that drifts from the SQL migrations fails here on both databases.
 */
export async function exerciseEveryModel(prisma: PrismaClient) {
  const tenant = await prisma.tenant.create({ data: { id: "t-exercise", name: "Exercise Ltd" } });
  const user = await prisma.user.create({
    data: {
      email: "ex@demo.test",
      name: "Ex",
      passwordHash: "scrypt$1$1$1$a$b",
      roles: ["operator", "approver"],
      lockedUntil: new Date(),
    },
  });
  const provider = await prisma.providerProfile.create({
    data: {
      id: "p-exercise",
      name: "Exercise pay",
      kind: "payments",
      baseUrl: "http://127.0.0.1:1",
      supportsIdempotency: true,
      keyRetentionSeconds: 86_400,
      maxKeyLength: 255,
      parameterMatching: true,
      responseWindowSeconds: 30,
      visibilityDelaySeconds: 60,
      rateLimitPerSecond: 25,
      lookupMethods: ["idempotency_key", "provider_request_id", "domain_attributes"],
    },
  });
  const intent = await prisma.effectIntent.create({
    data: {
      tenantId: tenant.id,
      intentKey: "invoice:inv_1:collect:v1",
      workflowId: "wf_1",
      stepId: "charge",
      providerId: provider.id,
      operation: "charge",
      requestDigest: digest({ amount: 1200 }),
      requestSummary: { amount_minor: "1200", currency: "EUR" },
      replayParams: { payment_method: "pm_card_visa" },
      amountMinor: 9_007_199_254_740_993n, // beyond 2^53: must survive as a bigint
      currency: "EUR",
      recipient: "j***@example.com",
      template: "receipt",
      customerRef: "invoice/inv_1",
      status: "unknown",
      attemptCount: 1,
      providerResultId: "ch_1",
      responseDigest: digest({ id: "ch_1" }),
      leaseOwner: "worker-1",
      leaseExpiresAt: new Date(),
      version: 3,
      needsOperator: true,
      claimedById: user.id,
      claimExpiresAt: new Date(),
      lastAttemptAt: new Date(),
      resolvedAt: null,
      unknownSince: new Date(),
      settledAt: null,
      settledBy: null,
    },
  });
  const refund = await prisma.effectIntent.create({
    data: {
      tenantId: tenant.id,
      intentKey: "invoice:inv_1:refund:v1",
      workflowId: "wf_1",
      stepId: "refund",
      providerId: provider.id,
      operation: "refund",
      requestDigest: digest({ refund: "ch_1" }),
      requestSummary: {},
      compensatesId: intent.id,
    },
  });
  await prisma.effectAttempt.create({
    data: {
      intentId: intent.id,
      tenantId: tenant.id,
      attemptNo: 1,
      leaseOwner: "worker-1",
      finishedAt: new Date(),
      outcome: "unknown",
      errorClass: "timeout",
      providerRequestId: "req_1",
    },
  });
  const lookup = await prisma.lookup.create({
    data: {
      intentId: intent.id,
      tenantId: tenant.id,
      providerId: provider.id,
      method: "idempotency_key",
      outcome: "found_matching",
      actorId: user.id,
      providerResultId: "ch_1",
      responseDigest: digest({ id: "ch_1" }),
      evidence: { status: "succeeded", amount: 1200 },
      errorClass: null,
    },
  });
  const resolution = await prisma.resolution.create({
    data: {
      intentId: intent.id,
      tenantId: tenant.id,
      kind: "accept_receipt",
      status: "pending_approval",
      proposedById: user.id,
      reason: "Provider shows the charge",
      lookupId: lookup.id,
      externalEvidenceRef: null,
      providerResultId: "ch_1",
      proposalDigest: digest({ kind: "accept_receipt" }),
      intentVersion: 3,
      requiredApprovals: 1,
      submissionKey: "sub_1",
      compensationIntentId: refund.id,
      expiresAt: new Date(),
      decidedAt: null,
    },
  });
  await prisma.approval.create({
    data: {
      resolutionId: resolution.id,
      approverId: user.id,
      decision: "approved",
      reason: "ok",
      proposalDigest: resolution.proposalDigest,
      intentVersion: 3,
    },
  });
  await prisma.approvalThreshold.create({
    data: {
      tenantId: tenant.id,
      currency: "EUR",
      thresholdMinor: 100_000n,
      dualThresholdMinor: 1_000_000n,
      autoResolveBelowMinor: 20_000n,
      updatedById: user.id,
    },
  });
  const system = await prisma.user.create({
    data: { email: "machine@reckon.invalid", name: "Machine", roles: ["operator"], system: true },
  });
  await prisma.reconcilePolicy.create({
    data: {
      tenantId: tenant.id,
      providerId: provider.id,
      mode: "dry_run",
      redispatch: false,
      maxRedispatches: 3,
      updatedById: user.id,
    },
  });
  await prisma.reconciliation.create({
    data: {
      intentId: intent.id,
      tenantId: tenant.id,
      providerId: provider.id,
      state: "escalated",
      deadline: new Date(),
      nextAt: new Date(),
      tries: 2,
      redispatches: 1,
      lastOutcome: "absent",
      lastAction: "escalated",
      lastReason: "retries ran out",
      lastLookupId: lookup.id,
      lastTriedAt: new Date(),
      leasedBy: system.email,
      leaseUntil: new Date(),
    },
  });
  await prisma.providerRateBucket.create({
    data: { providerId: provider.id, tokens: 2.5, refilledAt: new Date() },
  });
  await prisma.keyConflict.create({
    data: {
      tenantId: tenant.id,
      intentKey: intent.intentKey,
      existingDigest: intent.requestDigest,
      attemptedDigest: digest({ amount: 1 }),
    },
  });
  await prisma.$transaction((tx) =>
    appendAudit(tx, {
      actor: SYSTEM_ACTOR,
      action: "test.exercised",
      tenantId: tenant.id,
      targetType: "intent",
      targetId: intent.id,
      details: { ok: true },
    }),
  );

  const loaded = await prisma.effectIntent.findUniqueOrThrow({
    where: { tenantId_intentKey: { tenantId: tenant.id, intentKey: intent.intentKey } },
    include: {
      tenant: true,
      provider: true,
      claimedBy: true,
      attempts: true,
      lookups: { include: { actor: true, resolutions: true } },
      resolutions: {
        include: { approvals: { include: { approver: true } }, proposedBy: true, lookup: true },
      },
      compensations: true,
      reconciliation: true,
    },
  });
  expect(loaded.reconciliation).toMatchObject({ state: "escalated", lastOutcome: "absent", redispatches: 1 });
  expect(loaded.amountMinor).toBe(9_007_199_254_740_993n);
  expect(loaded.provider.lookupMethods).toEqual([
    "idempotency_key",
    "provider_request_id",
    "domain_attributes",
  ]);
  expect(loaded.claimedBy?.roles).toEqual(["operator", "approver"]);
  expect(loaded.attempts[0]?.errorClass).toBe("timeout");
  expect(loaded.lookups[0]?.resolutions).toHaveLength(1);
  expect(loaded.resolutions[0]?.approvals[0]?.approver.email).toBe("ex@demo.test");
  expect(loaded.compensations.map((c) => c.intentKey)).toEqual(["invoice:inv_1:refund:v1"]);

  // Every model's full row reads back (a missing column fails here).
  expect(await prisma.tenant.count()).toBeGreaterThanOrEqual(1);
  for (const rows of await Promise.all([
    prisma.tenant.findMany(),
    prisma.user.findMany(),
    prisma.providerProfile.findMany(),
    prisma.effectIntent.findMany(),
    prisma.effectAttempt.findMany(),
    prisma.lookup.findMany(),
    prisma.resolution.findMany(),
    prisma.approval.findMany(),
    prisma.approvalThreshold.findMany(),
    prisma.keyConflict.findMany(),
    prisma.auditEvent.findMany(),
    prisma.reconcilePolicy.findMany({ include: { tenant: true, provider: true, updatedBy: true } }),
    prisma.reconciliation.findMany({ include: { intent: true } }),
    prisma.providerRateBucket.findMany(),
  ])) {
    expect(rows.length).toBeGreaterThan(0);
  }

  // (tenant, intent key) is unique: a second intent under the same key is refused.
  await expect(
    prisma.effectIntent.create({
      data: {
        tenantId: tenant.id,
        intentKey: intent.intentKey,
        workflowId: "x",
        stepId: "x",
        providerId: provider.id,
        operation: "charge",
        requestDigest: intent.requestDigest,
        requestSummary: {},
      },
    }),
  ).rejects.toThrow(/Unique constraint/i);
  // One vote per approver per resolution.
  await expect(
    prisma.approval.create({
      data: {
        resolutionId: resolution.id,
        approverId: user.id,
        decision: "denied",
        reason: "again",
        proposalDigest: resolution.proposalDigest,
        intentVersion: 3,
      },
    }),
  ).rejects.toThrow(/Unique constraint/i);
}
