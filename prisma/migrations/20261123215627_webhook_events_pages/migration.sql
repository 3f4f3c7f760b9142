-- The events API (issue 16, lib/events/list-events.ts) pages an account's events newest first on (created_at, id),
-- and with ?type= on (event_type, created_at, id). The old (account_id, environment, created_at) index is the first's
-- prefix, so it goes.

-- DropIndex
DROP INDEX "webhook_events_account_id_environment_created_at_idx";

-- CreateIndex
CREATE INDEX "webhook_events_account_env_created_idx" ON "webhook_events"("account_id", "environment", "created_at", "id");

-- CreateIndex
CREATE INDEX "webhook_events_account_env_type_created_idx" ON "webhook_events"("account_id", "environment", "event_type", "created_at", "id");
