-- The audit chain becomes keyed: new events are sealed with an HMAC whose key is held
-- outside the database, so whoever can write the table cannot re-hash an edited event.
-- Events already written keep their plain sha256 (version 1) and keep verifying; the
-- first keyed event, linking to the last of them, seals them too. Adding a column with
-- a default rewrites no row, so the append-only trigger is not involved.
ALTER TABLE "audit_events" ADD COLUMN "hash_version" SMALLINT NOT NULL DEFAULT 1;
