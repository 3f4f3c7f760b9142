-- CreateTable
CREATE TABLE "audit_events" (
    "id" BIGSERIAL NOT NULL,
    "account_id" UUID NOT NULL,
    "environment" "Environment",
    "occurred_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actor_kind" TEXT NOT NULL,
    "actor_user_id" UUID,
    "actor_email" TEXT,
    "actor_token_id" UUID,
    "actor_label" TEXT NOT NULL,
    "client_address" TEXT,
    "user_agent" TEXT,
    "action" TEXT NOT NULL,
    "target_type" TEXT,
    "target_id" TEXT,
    "details" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "audit_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "audit_events_account_occurred_idx" ON "audit_events"("account_id", "occurred_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "audit_events_account_action_idx" ON "audit_events"("account_id", "action", "occurred_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "audit_events_occurred_brin" ON "audit_events" USING BRIN ("occurred_at");

-- Append-only (docs/decisions/audit.md). Triggers, not CHECK constraints: the WebAssembly schema engine behind
-- `npm run db:diff` panics on CHECK (see 20261123050339_lifecycle).
--
-- UPDATE is always refused. DELETE is refused unless the transaction has set carrier.audit_retention = 'on'
-- (SET LOCAL, or set_config(…, true): it ends with the transaction), as the retention job does
-- (lib/audit/retention.ts), and even then only for a row over a year old: no setting deletes a younger row.
-- TRUNCATE, which skips row triggers, is refused by a statement trigger.
CREATE FUNCTION "audit_events_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE'
       AND current_setting('carrier.audit_retention', true) = 'on'
       AND OLD."occurred_at" < now() - interval '1 year' THEN
        RETURN OLD;
    END IF;
    RAISE EXCEPTION 'audit_events is append-only: % refused (only the retention job deletes, rows over a year old)', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END
$$;

CREATE TRIGGER "audit_events_append_only"
    BEFORE UPDATE OR DELETE ON "audit_events"
    FOR EACH ROW EXECUTE FUNCTION "audit_events_append_only"();

CREATE FUNCTION "audit_events_no_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'audit_events is append-only: TRUNCATE refused' USING ERRCODE = 'insufficient_privilege';
END
$$;

CREATE TRIGGER "audit_events_no_truncate"
    BEFORE TRUNCATE ON "audit_events"
    FOR EACH STATEMENT EXECUTE FUNCTION "audit_events_no_truncate"();

-- The actor is one of three kinds, with the columns its kind needs.
CREATE FUNCTION "audit_events_actor_consistent"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW."actor_kind" NOT IN ('user', 'api_token', 'system')
       OR (NEW."actor_kind" = 'api_token' AND NEW."actor_token_id" IS NULL) THEN
        RAISE EXCEPTION 'audit_events: actor_kind is user, api_token (with actor_token_id) or system' USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER "audit_events_actor_consistent"
    BEFORE INSERT ON "audit_events"
    FOR EACH ROW EXECUTE FUNCTION "audit_events_actor_consistent"();
