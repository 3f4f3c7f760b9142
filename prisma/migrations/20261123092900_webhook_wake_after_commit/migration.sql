-- Hand-written. A NOTIFY costs every notifying commit of the whole PostgreSQL cluster a turn on one lock, held from
-- before the commit record is written until it is flushed (bench/RESULTS.md, 2026-11-23 "Counters without a hot
-- row": the package statement went from ~90-200 to ~430-790 commits a second without it). The package hot path
-- therefore wakes the delivery workers after its commit instead (lib/webhooks/wake-workers.ts: one pg_notify in a
-- transaction of its own, which writes no commit record, coalesced per process), and says so for its transaction
-- with the setting carrier.webhook_wake_after_commit = 'on'. Every other writer of deliveries keeps the trigger.
CREATE OR REPLACE FUNCTION "notify_webhook_messages_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM inserted)
       AND current_setting('carrier.webhook_wake_after_commit', true) IS DISTINCT FROM 'on' THEN
        PERFORM pg_notify('webhook_messages', '');
    END IF;
    RETURN NULL;
END;
$$;
