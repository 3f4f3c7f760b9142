-- Events written in one transaction share created_at; their order was then left to their random ids, so a package's
-- delivered could list before its received. seq numbers rows in the order they were written and breaks those ties.
ALTER TABLE "webhook_events" ADD COLUMN "seq" BIGSERIAL NOT NULL;

DROP INDEX "webhook_events_account_env_created_idx";
DROP INDEX "webhook_events_account_env_type_created_idx";
CREATE INDEX "webhook_events_account_env_created_idx" ON "webhook_events"("account_id", "environment", "created_at", "seq");
CREATE INDEX "webhook_events_account_env_type_created_idx" ON "webhook_events"("account_id", "environment", "event_type", "created_at", "seq");
