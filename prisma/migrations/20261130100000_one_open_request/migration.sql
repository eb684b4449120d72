-- One open approval request per intent, and one compensation per original effect.
-- Neither is expressible in schema.prisma (partial / nullable-unique indexes), so they
-- live here; `prisma migrate diff` will list them as extra indexes, which is expected.

-- A ledger written before this rule may hold several pending requests for one intent
-- (or several compensations of one effect). Refuse to migrate rather than pick one
-- silently: an operator must decide which to keep, on the record.
DO $$
BEGIN
  IF EXISTS (
    SELECT 1 FROM "resolutions" WHERE "status" = 'pending_approval'
    GROUP BY "intent_id" HAVING count(*) > 1
  ) THEN
    RAISE EXCEPTION 'Several pending approval requests for one intent: let all but one expire or be denied, then migrate again (SELECT intent_id FROM resolutions WHERE status = ''pending_approval'' GROUP BY 1 HAVING count(*) > 1)';
  END IF;
  IF EXISTS (
    SELECT 1 FROM "effect_intents" WHERE "compensates_id" IS NOT NULL
    GROUP BY "compensates_id" HAVING count(*) > 1
  ) THEN
    RAISE EXCEPTION 'Several compensations of one effect: reconcile them before migrating (SELECT compensates_id FROM effect_intents WHERE compensates_id IS NOT NULL GROUP BY 1 HAVING count(*) > 1)';
  END IF;
END $$;

-- CreateIndex
CREATE UNIQUE INDEX "resolutions_one_pending_per_intent" ON "resolutions"("intent_id") WHERE "status" = 'pending_approval';

-- A compensation of an effect is unique; the plain index it replaces served lookups only.
DROP INDEX "effect_intents_compensates_id_idx";
CREATE UNIQUE INDEX "effect_intents_one_compensation_per_effect" ON "effect_intents"("compensates_id");
