/**
 * The Idempotency-Key sent to a provider for an intent. Providers scope keys per
 * account, not per tenant, so the tenant is part of it; it is the same on every
 * attempt, so a retry is never a new action.
 */
export function providerIdempotencyKey(tenantId: string, intentKey: string): string {
  return `${tenantId}:${intentKey}`;
}
