-- CreateIndex
CREATE INDEX "effect_intents_intent_key_idx" ON "effect_intents"("intent_key");
