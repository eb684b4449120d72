-- The inbox's default order, "act before" (the provider's key-retention deadline):
-- per provider that deadline is last_attempt_at + one constant, so an ordered range
-- scan on (status, provider_id, last_attempt_at, id) walks one provider's intents in
-- deadline order; the inbox merges one such scan per provider (lib/inbox/order.ts).
-- No stored deadline column: it would go stale whenever an admin changes a provider's
-- retention, and would need every writer of the ledger to maintain it.
CREATE INDEX "effect_intents_status_provider_id_last_attempt_at_id_idx" ON "effect_intents"("status", "provider_id", "last_attempt_at", "id");

-- Prefix search (lib/inbox/search.ts): `col COLLATE "C" >= $q AND col COLLATE "C" < $q || U+FFFF`.
-- In byte order every string with a prefix lies in that one range, whatever the
-- database's own collation, and a range on a bound parameter uses the index (LIKE on a
-- parameter does not in a generic plan).
CREATE INDEX "effect_intents_intent_key_prefix_idx" ON "effect_intents"(("intent_key" COLLATE "C"));
CREATE INDEX "effect_intents_workflow_id_prefix_idx" ON "effect_intents"(("workflow_id" COLLATE "C"));
CREATE INDEX "effect_intents_customer_ref_prefix_idx" ON "effect_intents"(("customer_ref" COLLATE "C"));
CREATE INDEX "effect_intents_provider_result_id_prefix_idx" ON "effect_intents"(("provider_result_id" COLLATE "C"));
-- The business object of a key (`invoice:inv_42:collect:v1` → `inv_42`): what an operator
-- most often has in hand, from a ticket or a customer.
CREATE INDEX "effect_intents_key_object_prefix_idx" ON "effect_intents"((split_part("intent_key", ':', 2) COLLATE "C"));
