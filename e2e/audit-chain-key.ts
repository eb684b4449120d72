/**
 * The audit chain key scripts/e2e-server.ts seals the e2e ledger with. A spec that writes
 * the ledger from the test process (through the protocol, which appends audit events)
 * must seal with the same key, or the chain breaks for every other spec: import this
 * module first, before anything reads the environment (lib/env.ts parses it once).
 */
export const E2E_AUDIT_CHAIN_KEY = "e2e-audit-chain-key-e2e-audit-chain-key";

process.env.AUDIT_CHAIN_KEY ??= E2E_AUDIT_CHAIN_KEY;
