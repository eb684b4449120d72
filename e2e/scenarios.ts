import { toolEnv } from "@/tools/env";
import type { EffectJob } from "@/lib/effects/types";

// Intents the e2e server makes through the real protocol before the tests run,
// each with a known truth at the sandbox provider.
const charge = (name: string, amountMinor: number, currency = "USD"): EffectJob => ({
  kind: "charge",
  tenantId: "acme-shop",
  intentKey: `invoice:inv_e2e_${name}:collect:v1`,
  workflowId: `wf_e2e_${name}`,
  stepId: "charge-card",
  amountMinor,
  currency,
  customer: `cus_e2e_${name}`,
  paymentMethod: "pm_card_visa",
  description: `E2E ${name}`,
  customerRef: `invoice/inv_e2e_${name}`,
});

export const SCENARIOS = {
  /** Charged, but the answer was lost: unknown, the provider has it. */
  charged: { job: charge("charged", 2_500), scenario: "charged_answer_lost" },
  /** The worker died before sending: unknown, the provider has nothing. */
  notCharged: { job: charge("not_charged", 1_800), scenario: "never_sent_worker_lost" },
  /** Two operators race to resolve it. */
  race: { job: charge("race", 3_300), scenario: "charged_answer_lost" },
  /** Charged and confirmed: an operator compensates it with a refund. */
  toRefund: { job: charge("to_refund", 4_200), scenario: "clean" },
  /** Charged, answer lost, above the approval threshold. */
  big: { job: charge("big", 250_000), scenario: "charged_answer_lost" },
  /** Charged and confirmed: compensated after an approver signs off. */
  refundApproved: { job: charge("refund_approved", 5_100), scenario: "clean" },
  /** Charged, answer lost, far above the dual threshold: two approvers. */
  huge: { job: charge("huge", 1_500_000), scenario: "charged_answer_lost" },
  /** Two unknowns of one customer, resolved together in bulk. */
  bulk1: {
    job: { ...charge("bulk_1", 1_200), customerRef: "customer/e2e-bulk" },
    scenario: "charged_answer_lost",
  },
  bulk2: {
    job: { ...charge("bulk_2", 1_300), customerRef: "customer/e2e-bulk" },
    scenario: "charged_answer_lost",
  },
  /** Two approvers approve one two-approval request from two browsers at once. */
  dualRace: { job: charge("dual_race", 1_600_000), scenario: "charged_answer_lost" },
  /** One approver approves while another denies, at the same moment. */
  decideRace: { job: charge("decide_race", 260_000), scenario: "charged_answer_lost" },
  /** Resolved and approved with JavaScript disabled. */
  noScript: { job: charge("no_script", 270_000), scenario: "charged_answer_lost" },
  /** For bad-input tests. */
  spare: { job: charge("spare", 999), scenario: "charged_answer_lost" },
} as const;

export const E2E_OIDC_PORT = toolEnv().E2E_OIDC_PORT;
export const E2E_SANDBOX_PORT = toolEnv().E2E_SANDBOX_PORT;
export const E2E_DATABASE = toolEnv().E2E_DATABASE;
