/** The inbox as the browser gets it (JSON: amounts as strings, times as ISO text). */
export type InboxRowJson = {
  id: string;
  tenantId: string;
  intentKey: string;
  status: string;
  operation: string;
  amountMinor: string | null;
  currency: string | null;
  recipient: string | null;
  template: string | null;
  attemptCount: number;
  needsOperator: boolean;
  claimExpiresAt: string | null;
  createdAt: string;
  lastAttemptAt: string | null;
  leaseExpiresAt: string | null;
  version: number;
  workflowId: string;
  customerRef: string | null;
  provider: {
    id: string;
    name: string;
    responseWindowSeconds: number;
    keyRetentionSeconds: number | null;
    supportsIdempotency: boolean;
  };
  claimedBy: { id: string; name: string } | null;
  /** Set when the reconciler works on it: when it looks next. */
  reconciler: { nextAt: string } | null;
  /** When the provider forgets the key; null when it has none. */
  actBefore: string | null;
  /** An approval request waiting on it: approvals so far of those required. */
  awaiting: { approved: number; required: number } | null;
};

export type InboxData = {
  rows: InboxRowJson[];
  nextCursor: string | null;
  /** Intents under the filter left out because the reconciler works on them. */
  autoHidden: number;
  /** Intents the filter shows, over every page. */
  total: number | null;
  now: string;
};
