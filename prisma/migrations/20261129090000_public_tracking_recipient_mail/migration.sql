-- Public tracking and recipient e-mail (docs/decisions/public-tracking.md).

-- A public lookup by tracking number finds live packages of any shipper, in any case: one partial index per table on
-- lower(tracking_number), live rows only, so that test packages cost nothing here and the lookup stays one index probe.
-- (The unique indexes on (account_id, environment, lower(tracking_number)) lead with the account, which a recipient
-- does not know.) Prisma cannot express an expression index: schema.prisma says so beside the models.
CREATE INDEX "packages_live_tracking_number_idx" ON "packages" (lower("tracking_number")) WHERE "environment" = 'live';
CREATE INDEX "container_packages_live_tracking_number_idx" ON "container_packages" (lower("tracking_number"))
    WHERE "environment" = 'live' AND "tracking_number" IS NOT NULL;

-- Which statuses an account's recipients are e-mailed at (none: the account has not opted in). One row per account:
-- recipients are e-mailed for live packages only.
CREATE TABLE "recipient_mail_settings" (
    "account_id" UUID NOT NULL,
    "statuses" TEXT[] NOT NULL DEFAULT '{}',
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "recipient_mail_settings_pkey" PRIMARY KEY ("account_id"),
    CONSTRAINT "recipient_mail_settings_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE,
    CONSTRAINT "recipient_mail_settings_statuses_check"
        CHECK ("statuses" <@ ARRAY['out_for_delivery', 'delivered', 'exception']::TEXT[])
);

-- One e-mail per package and status, ever: written in the transaction of the status change (lib/status/engine.ts
-- persist), so that a retried or repeated change, or two instances, can only conflict on the unique index. Sent by
-- any app process (lib/recipient-mail/send-due.ts): pending rows are claimed with SKIP LOCKED.
CREATE TABLE "recipient_mails" (
    "id" BIGSERIAL NOT NULL,
    "account_id" UUID NOT NULL,
    "carrier_barcode" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    -- pending, sent, skipped (no ToEmail any more, unsubscribed, the shipper turned it off), failed (gave up)
    "state" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMPTZ(3),
    "outcome" TEXT,
    -- SHA-256 of the unsubscribe token in the mail (the token itself is only in the mail).
    "unsubscribe_hash" TEXT,
    CONSTRAINT "recipient_mails_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "recipient_mails_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE,
    CONSTRAINT "recipient_mails_state_check" CHECK ("state" IN ('pending', 'sent', 'skipped', 'failed'))
);
CREATE UNIQUE INDEX "recipient_mails_carrier_barcode_status_key" ON "recipient_mails"("carrier_barcode", "status");
CREATE UNIQUE INDEX "recipient_mails_unsubscribe_hash_key" ON "recipient_mails"("unsubscribe_hash");
CREATE INDEX "recipient_mails_due_idx" ON "recipient_mails"("next_attempt_at") WHERE "state" = 'pending';

-- A recipient who unsubscribed from one shipper's tracking e-mails: the SHA-256 of the lower-cased address, never the
-- address itself.
CREATE TABLE "recipient_unsubscribes" (
    "account_id" UUID NOT NULL,
    "email_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "recipient_unsubscribes_pkey" PRIMARY KEY ("account_id", "email_hash"),
    CONSTRAINT "recipient_unsubscribes_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE
);
