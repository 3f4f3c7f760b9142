-- Cache invalidation: app processes LISTEN on channel "cache_invalidation" and drop what the payload
-- names. Hand-written (Prisma does not model functions or triggers, so `diff` neither sees nor undoes it).
-- NOTIFY is transactional: listeners hear it only when the change commits, once per distinct payload.

-- rate_cards: any change (insert, update, delete, truncate) invalidates every cached rate card.
-- One notification per statement, not per row.
CREATE FUNCTION "notify_rate_cards_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('cache_invalidation', 'rate_cards');
    RETURN NULL;
END;
$$;

CREATE TRIGGER "rate_cards_cache_invalidation"
    AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "rate_cards"
    FOR EACH STATEMENT EXECUTE FUNCTION "notify_rate_cards_changed"();

-- api_tokens: an update or delete invalidates the cached token, named by its hash as it was before:
-- payload 'api_tokens:<token_hash>'. (A new token needs no message: nothing cached it yet.)
CREATE FUNCTION "notify_api_token_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('cache_invalidation', 'api_tokens:' || OLD."token_hash");
    RETURN NULL;
END;
$$;

CREATE TRIGGER "api_tokens_cache_invalidation_delete"
    AFTER DELETE ON "api_tokens"
    FOR EACH ROW EXECUTE FUNCTION "notify_api_token_changed"();

-- Updates that change nothing but last_used_at (bumped as tokens are used) are skipped: otherwise every
-- authenticated request would evict its own token from every cache.
CREATE TRIGGER "api_tokens_cache_invalidation_update"
    AFTER UPDATE ON "api_tokens"
    FOR EACH ROW
    WHEN ((to_jsonb(OLD) - 'last_used_at') IS DISTINCT FROM (to_jsonb(NEW) - 'last_used_at'))
    EXECUTE FUNCTION "notify_api_token_changed"();
