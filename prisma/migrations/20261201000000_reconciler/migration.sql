-- Automatic reconciliation (lib/reconcile): the reconciler's work queue, the policy
-- admins set per tenant and provider, what an intent's request needs to be sent again
-- beyond its redacted summary (provider references such as a payment-method token, never
-- card data or recipients; never shown or exported), the auto-resolve limit beside the
-- approval thresholds, system actors that cannot sign in, and when an intent became
-- unknown and who settled it (for time-to-resolution figures).

-- CreateEnum
CREATE TYPE "reconcile_mode" AS ENUM ('off', 'dry_run', 'on');

-- CreateEnum
CREATE TYPE "reconcile_state" AS ENUM ('active', 'escalated', 'settled', 'dropped');

-- AlterTable
ALTER TABLE "users" ADD COLUMN "system" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "approval_thresholds" ADD COLUMN "auto_resolve_below_minor" BIGINT;

-- AlterTable
ALTER TABLE "effect_intents" ADD COLUMN "replay_params" JSONB,
ADD COLUMN "unknown_since" TIMESTAMPTZ(3),
ADD COLUMN "settled_at" TIMESTAMPTZ(3),
ADD COLUMN "settled_by" TEXT;

-- CreateTable
CREATE TABLE "reconcile_policies" (
    "tenant_id" VARCHAR(64) NOT NULL,
    "provider_id" VARCHAR(64) NOT NULL,
    "mode" "reconcile_mode" NOT NULL DEFAULT 'off',
    "redispatch" BOOLEAN NOT NULL DEFAULT true,
    "max_redispatches" INTEGER NOT NULL DEFAULT 2,
    "updated_by_id" UUID,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "reconcile_policies_pkey" PRIMARY KEY ("tenant_id","provider_id")
);

-- CreateTable
CREATE TABLE "reconciliations" (
    "intent_id" UUID NOT NULL,
    "tenant_id" VARCHAR(64) NOT NULL,
    "provider_id" VARCHAR(64) NOT NULL,
    "state" "reconcile_state" NOT NULL DEFAULT 'active',
    "deadline" TIMESTAMPTZ(3),
    "next_at" TIMESTAMPTZ(3) NOT NULL,
    "tries" INTEGER NOT NULL DEFAULT 0,
    "redispatches" INTEGER NOT NULL DEFAULT 0,
    "last_outcome" "lookup_outcome",
    "last_action" TEXT,
    "last_reason" TEXT,
    "last_lookup_id" UUID,
    "last_tried_at" TIMESTAMPTZ(3),
    "leased_by" TEXT,
    "lease_until" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "reconciliations_pkey" PRIMARY KEY ("intent_id")
);

-- CreateIndex
CREATE INDEX "reconciliations_state_deadline_next_at_idx" ON "reconciliations"("state", "deadline", "next_at");

-- CreateIndex
CREATE INDEX "effect_intents_settled_at_idx" ON "effect_intents"("settled_at");

-- AddForeignKey
ALTER TABLE "reconcile_policies" ADD CONSTRAINT "reconcile_policies_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reconcile_policies" ADD CONSTRAINT "reconcile_policies_provider_id_fkey" FOREIGN KEY ("provider_id") REFERENCES "provider_profiles"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reconcile_policies" ADD CONSTRAINT "reconcile_policies_updated_by_id_fkey" FOREIGN KEY ("updated_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reconciliations" ADD CONSTRAINT "reconciliations_intent_id_fkey" FOREIGN KEY ("intent_id") REFERENCES "effect_intents"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Backfill: when existing unknown intents became unknown (their last attempt that ended
-- unknown), and who settled those that people resolved already.
UPDATE "effect_intents" i
   SET "unknown_since" = a.finished
  FROM (SELECT "intent_id", max(coalesce("finished_at", "started_at")) AS finished
          FROM "effect_attempts" WHERE "outcome" = 'unknown' GROUP BY "intent_id") a
 WHERE a."intent_id" = i."id";

UPDATE "effect_intents" i
   SET "settled_at" = r.decided, "settled_by" = 'person'
  FROM (SELECT "intent_id", min("decided_at") AS decided
          FROM "resolutions"
         WHERE "status" = 'applied' AND "kind" IN ('accept_receipt', 'mark_rejected', 'start_compensation')
         GROUP BY "intent_id") r
 WHERE r."intent_id" = i."id";

-- CreateTable: one token bucket per provider, shared by every console instance and
-- reconciler, so together they stay within the provider's rate limit.
CREATE TABLE "provider_rate_buckets" (
    "provider_id" VARCHAR(64) NOT NULL,
    "tokens" DOUBLE PRECISION NOT NULL,
    "refilled_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "provider_rate_buckets_pkey" PRIMARY KEY ("provider_id")
);
