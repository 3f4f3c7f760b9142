-- Hand-written. The package hot path inserts its deliveries in the same statement as the package
-- (lib/packages/create-package-manifest.ts), and that INSERT runs even when no endpoint is
-- subscribed (it inserts no rows). A statement-level trigger fires for zero rows too, so the
-- workers were woken once per package of every account without webhooks. Notify only when the
-- statement inserted something.
DROP TRIGGER "webhook_messages_notify" ON "webhook_messages";

CREATE OR REPLACE FUNCTION "notify_webhook_messages_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM inserted) THEN
        PERFORM pg_notify('webhook_messages', '');
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER "webhook_messages_notify"
    AFTER INSERT ON "webhook_messages"
    REFERENCING NEW TABLE AS inserted
    FOR EACH STATEMENT EXECUTE FUNCTION "notify_webhook_messages_inserted"();
