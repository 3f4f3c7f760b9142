-- The dashboard's webhook success rate from the activity_days rollup (issue 14: every read's cost follows the page,
-- not the account). Counting the last 30 days of webhook_attempts read every attempt of the window (139,000 for the
-- scale bench's big account: 70 ms); the delivery worker now adds each attempt to its account's day, in the
-- statement that records it (lib/webhooks/record-attempt.ts), in one of the day's shards.

-- AlterTable
ALTER TABLE "activity_days" ADD COLUMN     "webhook_attempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "webhook_successes" INTEGER NOT NULL DEFAULT 0;

-- Hand-written: the attempts already logged, into shard 0 of their day.
INSERT INTO "activity_days" ("account_id", "environment", "day", "shard", "webhook_attempts", "webhook_successes")
SELECT e."account_id", e."environment", (a."attempted_at" AT TIME ZONE 'UTC')::date, 0, count(*)::int, count(*) FILTER (WHERE a."success")::int
FROM "webhook_attempts" a JOIN "webhook_endpoints" e ON e."id" = a."endpoint_id"
GROUP BY 1, 2, 3
ON CONFLICT ("account_id", "environment", "day", "shard") DO UPDATE
SET "webhook_attempts" = "activity_days"."webhook_attempts" + excluded."webhook_attempts",
    "webhook_successes" = "activity_days"."webhook_successes" + excluded."webhook_successes";
