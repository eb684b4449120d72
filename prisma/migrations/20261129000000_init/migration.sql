-- CreateEnum
CREATE TYPE "role" AS ENUM ('operator', 'approver', 'auditor', 'admin');

-- CreateEnum
CREATE TYPE "intent_status" AS ENUM ('prepared', 'dispatched', 'confirmed', 'rejected', 'unknown', 'compensating', 'compensated');

-- CreateEnum
CREATE TYPE "provider_kind" AS ENUM ('payments', 'mailer');

-- CreateEnum
CREATE TYPE "lookup_method" AS ENUM ('idempotency_key', 'provider_request_id', 'domain_attributes');

-- CreateEnum
CREATE TYPE "lookup_outcome" AS ENUM ('found_matching', 'found_conflicting', 'multiple_found', 'absent', 'not_visible_yet', 'inconclusive');

-- CreateEnum
CREATE TYPE "attempt_outcome" AS ENUM ('in_flight', 'succeeded', 'rejected', 'unknown');

-- CreateEnum
CREATE TYPE "resolution_kind" AS ENUM ('accept_receipt', 'mark_rejected', 'start_compensation', 'escalate');

-- CreateEnum
CREATE TYPE "resolution_status" AS ENUM ('pending_approval', 'applied', 'denied', 'expired', 'voided');

-- CreateEnum
CREATE TYPE "approval_decision" AS ENUM ('approved', 'denied');

-- CreateTable
CREATE TABLE "tenants" (
    "id" VARCHAR(64) NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tenants_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "users" (
    "id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "password_hash" TEXT,
    "roles" "role"[],
    "disabled" BOOLEAN NOT NULL DEFAULT false,
    "failed_sign_ins" INTEGER NOT NULL DEFAULT 0,
    "locked_until" TIMESTAMPTZ(3),
    "last_sign_in_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "provider_profiles" (
    "id" VARCHAR(64) NOT NULL,
    "name" TEXT NOT NULL,
    "kind" "provider_kind" NOT NULL,
    "base_url" TEXT,
    "supports_idempotency" BOOLEAN NOT NULL,
    "key_retention_seconds" INTEGER,
    "max_key_length" INTEGER,
    "parameter_matching" BOOLEAN NOT NULL DEFAULT false,
    "response_window_seconds" INTEGER NOT NULL,
    "visibility_delay_seconds" INTEGER NOT NULL,
    "rate_limit_per_second" INTEGER NOT NULL,
    "lookup_methods" "lookup_method"[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "provider_profiles_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "effect_intents" (
    "id" UUID NOT NULL,
    "tenant_id" VARCHAR(64) NOT NULL,
    "intent_key" VARCHAR(255) NOT NULL,
    "workflow_id" TEXT NOT NULL,
    "step_id" TEXT NOT NULL,
    "provider_id" VARCHAR(64) NOT NULL,
    "operation" TEXT NOT NULL,
    "request_digest" CHAR(64) NOT NULL,
    "request_summary" JSONB NOT NULL,
    "amount_minor" BIGINT,
    "currency" CHAR(3),
    "recipient" TEXT,
    "template" TEXT,
    "customer_ref" TEXT,
    "status" "intent_status" NOT NULL DEFAULT 'prepared',
    "attempt_count" INTEGER NOT NULL DEFAULT 0,
    "provider_result_id" TEXT,
    "response_digest" CHAR(64),
    "lease_owner" TEXT,
    "lease_expires_at" TIMESTAMPTZ(3),
    "version" INTEGER NOT NULL DEFAULT 0,
    "needs_operator" BOOLEAN NOT NULL DEFAULT false,
    "compensates_id" UUID,
    "claimed_by_id" UUID,
    "claim_expires_at" TIMESTAMPTZ(3),
    "last_attempt_at" TIMESTAMPTZ(3),
    "resolved_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "effect_intents_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "effect_attempts" (
    "id" UUID NOT NULL,
    "intent_id" UUID NOT NULL,
    "tenant_id" VARCHAR(64) NOT NULL,
    "attempt_no" INTEGER NOT NULL,
    "lease_owner" TEXT NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),
    "outcome" "attempt_outcome" NOT NULL DEFAULT 'in_flight',
    "error_class" TEXT,
    "provider_request_id" TEXT,

    CONSTRAINT "effect_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "lookups" (
    "id" UUID NOT NULL,
    "intent_id" UUID NOT NULL,
    "tenant_id" VARCHAR(64) NOT NULL,
    "provider_id" VARCHAR(64) NOT NULL,
    "method" "lookup_method" NOT NULL,
    "outcome" "lookup_outcome" NOT NULL,
    "actor_id" UUID,
    "provider_result_id" TEXT,
    "response_digest" CHAR(64),
    "evidence" JSONB NOT NULL,
    "error_class" TEXT,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "lookups_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "resolutions" (
    "id" UUID NOT NULL,
    "intent_id" UUID NOT NULL,
    "tenant_id" VARCHAR(64) NOT NULL,
    "kind" "resolution_kind" NOT NULL,
    "status" "resolution_status" NOT NULL,
    "proposed_by_id" UUID NOT NULL,
    "reason" TEXT NOT NULL,
    "lookup_id" UUID,
    "external_evidence_ref" TEXT,
    "provider_result_id" TEXT,
    "proposal_digest" CHAR(64) NOT NULL,
    "intent_version" INTEGER NOT NULL,
    "required_approvals" INTEGER NOT NULL DEFAULT 0,
    "submission_key" TEXT NOT NULL,
    "compensation_intent_id" UUID,
    "expires_at" TIMESTAMPTZ(3),
    "decided_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "resolutions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "approvals" (
    "id" UUID NOT NULL,
    "resolution_id" UUID NOT NULL,
    "approver_id" UUID NOT NULL,
    "decision" "approval_decision" NOT NULL,
    "reason" TEXT NOT NULL,
    "proposal_digest" CHAR(64) NOT NULL,
    "intent_version" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "approvals_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "approval_thresholds" (
    "id" UUID NOT NULL,
    "tenant_id" VARCHAR(64) NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "threshold_minor" BIGINT NOT NULL,
    "dual_threshold_minor" BIGINT,
    "updated_by_id" UUID,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "approval_thresholds_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "key_conflicts" (
    "id" UUID NOT NULL,
    "tenant_id" VARCHAR(64) NOT NULL,
    "intent_key" VARCHAR(255) NOT NULL,
    "existing_digest" CHAR(64) NOT NULL,
    "attempted_digest" CHAR(64) NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "key_conflicts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit_events" (
    "seq" BIGSERIAL NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actor_id" UUID,
    "actor_email" TEXT,
    "actor_roles" "role"[],
    "action" TEXT NOT NULL,
    "tenant_id" VARCHAR(64),
    "target_type" TEXT,
    "target_id" TEXT,
    "reason" TEXT,
    "evidence_ref" TEXT,
    "before_status" TEXT,
    "after_status" TEXT,
    "request_id" TEXT,
    "details" JSONB,
    "prev_hash" CHAR(64) NOT NULL,
    "hash" CHAR(64) NOT NULL,

    CONSTRAINT "audit_events_pkey" PRIMARY KEY ("seq")
);

-- CreateIndex
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");

-- CreateIndex
CREATE INDEX "effect_intents_tenant_id_status_created_at_id_idx" ON "effect_intents"("tenant_id", "status", "created_at", "id");

-- CreateIndex
CREATE INDEX "effect_intents_status_created_at_id_idx" ON "effect_intents"("status", "created_at", "id");

-- CreateIndex
CREATE INDEX "effect_intents_status_lease_expires_at_idx" ON "effect_intents"("status", "lease_expires_at");

-- CreateIndex
CREATE INDEX "effect_intents_workflow_id_idx" ON "effect_intents"("workflow_id");

-- CreateIndex
CREATE INDEX "effect_intents_customer_ref_idx" ON "effect_intents"("customer_ref");

-- CreateIndex
CREATE INDEX "effect_intents_provider_result_id_idx" ON "effect_intents"("provider_result_id");

-- CreateIndex
CREATE INDEX "effect_intents_compensates_id_idx" ON "effect_intents"("compensates_id");

-- CreateIndex
CREATE UNIQUE INDEX "effect_intents_tenant_id_intent_key_key" ON "effect_intents"("tenant_id", "intent_key");

-- CreateIndex
CREATE INDEX "effect_attempts_provider_request_id_idx" ON "effect_attempts"("provider_request_id");

-- CreateIndex
CREATE UNIQUE INDEX "effect_attempts_intent_id_attempt_no_key" ON "effect_attempts"("intent_id", "attempt_no");

-- CreateIndex
CREATE INDEX "lookups_intent_id_started_at_idx" ON "lookups"("intent_id", "started_at");

-- CreateIndex
CREATE UNIQUE INDEX "resolutions_submission_key_key" ON "resolutions"("submission_key");

-- CreateIndex
CREATE INDEX "resolutions_intent_id_created_at_idx" ON "resolutions"("intent_id", "created_at");

-- CreateIndex
CREATE INDEX "resolutions_status_created_at_idx" ON "resolutions"("status", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "approvals_resolution_id_approver_id_key" ON "approvals"("resolution_id", "approver_id");

-- CreateIndex
CREATE UNIQUE INDEX "approval_thresholds_tenant_id_currency_key" ON "approval_thresholds"("tenant_id", "currency");

-- CreateIndex
CREATE INDEX "key_conflicts_tenant_id_occurred_at_idx" ON "key_conflicts"("tenant_id", "occurred_at");

-- CreateIndex
CREATE UNIQUE INDEX "audit_events_hash_key" ON "audit_events"("hash");

-- CreateIndex
CREATE INDEX "audit_events_tenant_id_occurred_at_idx" ON "audit_events"("tenant_id", "occurred_at");

-- CreateIndex
CREATE INDEX "audit_events_target_type_target_id_idx" ON "audit_events"("target_type", "target_id");

-- CreateIndex
CREATE INDEX "audit_events_actor_id_occurred_at_idx" ON "audit_events"("actor_id", "occurred_at");

-- CreateIndex
CREATE INDEX "audit_events_action_occurred_at_idx" ON "audit_events"("action", "occurred_at");

-- AddForeignKey
ALTER TABLE "effect_intents" ADD CONSTRAINT "effect_intents_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "effect_intents" ADD CONSTRAINT "effect_intents_provider_id_fkey" FOREIGN KEY ("provider_id") REFERENCES "provider_profiles"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "effect_intents" ADD CONSTRAINT "effect_intents_compensates_id_fkey" FOREIGN KEY ("compensates_id") REFERENCES "effect_intents"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "effect_intents" ADD CONSTRAINT "effect_intents_claimed_by_id_fkey" FOREIGN KEY ("claimed_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "effect_attempts" ADD CONSTRAINT "effect_attempts_intent_id_fkey" FOREIGN KEY ("intent_id") REFERENCES "effect_intents"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "lookups" ADD CONSTRAINT "lookups_intent_id_fkey" FOREIGN KEY ("intent_id") REFERENCES "effect_intents"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "lookups" ADD CONSTRAINT "lookups_provider_id_fkey" FOREIGN KEY ("provider_id") REFERENCES "provider_profiles"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "lookups" ADD CONSTRAINT "lookups_actor_id_fkey" FOREIGN KEY ("actor_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "resolutions" ADD CONSTRAINT "resolutions_intent_id_fkey" FOREIGN KEY ("intent_id") REFERENCES "effect_intents"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "resolutions" ADD CONSTRAINT "resolutions_proposed_by_id_fkey" FOREIGN KEY ("proposed_by_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "resolutions" ADD CONSTRAINT "resolutions_lookup_id_fkey" FOREIGN KEY ("lookup_id") REFERENCES "lookups"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_resolution_id_fkey" FOREIGN KEY ("resolution_id") REFERENCES "resolutions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_approver_id_fkey" FOREIGN KEY ("approver_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "approval_thresholds" ADD CONSTRAINT "approval_thresholds_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "approval_thresholds" ADD CONSTRAINT "approval_thresholds_updated_by_id_fkey" FOREIGN KEY ("updated_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "key_conflicts" ADD CONSTRAINT "key_conflicts_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;


-- Audit history is append-only: nothing may rewrite or remove an event.
-- (A superuser can still disable the trigger; the hash chain is what makes
-- that detectable.)
CREATE FUNCTION "audit_events_append_only"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_events is append-only: % is not allowed', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE TRIGGER "audit_events_no_update_delete"
  BEFORE UPDATE OR DELETE ON "audit_events"
  FOR EACH ROW EXECUTE FUNCTION "audit_events_append_only"();

CREATE TRIGGER "audit_events_no_truncate"
  BEFORE TRUNCATE ON "audit_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_events_append_only"();
