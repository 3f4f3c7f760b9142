-- CreateEnum
CREATE TYPE "Environment" AS ENUM ('test', 'live');

-- CreateTable
CREATE TABLE "accounts" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "users" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "password_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sessions" (
    "id_hash" TEXT NOT NULL,
    "user_id" UUID NOT NULL,
    "csrf_token" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sessions_pkey" PRIMARY KEY ("id_hash")
);

-- CreateTable
CREATE TABLE "api_tokens" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "environment" "Environment" NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "display_prefix" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "rate_cards" (
    "id" UUID NOT NULL,
    "service" TEXT NOT NULL,
    "carrier" TEXT NOT NULL DEFAULT 'Carrier',
    "active" BOOLEAN NOT NULL DEFAULT true,
    "location_kind" TEXT NOT NULL,
    "dim_divisor" DECIMAL(10,2) NOT NULL,
    "weight_step_lb" DECIMAL(10,3) NOT NULL,
    "max_weight_lb" DECIMAL(10,2) NOT NULL,
    "zones" JSONB NOT NULL,
    "weight_breaks" JSONB NOT NULL,
    "surcharges" JSONB NOT NULL,
    "delivery_days" JSONB NOT NULL,
    "sort_order" INTEGER NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "rate_cards_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "container_manifests" (
    "id" TEXT NOT NULL,
    "account_id" UUID NOT NULL,
    "environment" "Environment" NOT NULL,
    "container_id" TEXT NOT NULL,
    "manifest_date" TIMESTAMPTZ(3) NOT NULL,
    "manifest_date_defaulted" BOOLEAN NOT NULL DEFAULT false,
    "service_name" TEXT NOT NULL,
    "from_company" TEXT NOT NULL,
    "awb" TEXT,
    "shipment_description" TEXT NOT NULL,
    "package_count" INTEGER NOT NULL,
    "header" JSONB NOT NULL,
    "request_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "container_manifests_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "container_packages" (
    "id" BIGSERIAL NOT NULL,
    "manifest_id" TEXT NOT NULL,
    "account_id" UUID NOT NULL,
    "environment" "Environment" NOT NULL,
    "position" INTEGER NOT NULL,
    "tracking_number" TEXT,
    "detail" JSONB NOT NULL,

    CONSTRAINT "container_packages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "daily_manifests" (
    "id" TEXT NOT NULL,
    "account_id" UUID NOT NULL,
    "environment" "Environment" NOT NULL,
    "manifest_date" DATE NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "daily_manifests_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "packages" (
    "id" BIGSERIAL NOT NULL,
    "account_id" UUID NOT NULL,
    "environment" "Environment" NOT NULL,
    "daily_manifest_id" TEXT NOT NULL,
    "tracking_number" TEXT NOT NULL,
    "manifest_date" TIMESTAMPTZ(3) NOT NULL,
    "service_name" TEXT NOT NULL,
    "final_mile_carrier" TEXT NOT NULL,
    "to_postal_code" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "request_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "packages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_endpoints" (
    "id" TEXT NOT NULL,
    "account_id" UUID NOT NULL,
    "environment" "Environment" NOT NULL,
    "url" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "events" TEXT[],
    "secret" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "disabled_reason" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_endpoints_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_events" (
    "id" TEXT NOT NULL,
    "account_id" UUID NOT NULL,
    "environment" "Environment" NOT NULL,
    "event_type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "is_test" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_messages" (
    "id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "endpoint_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempt_count" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "locked_until" TIMESTAMPTZ(3),
    "locked_by" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_messages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_attempts" (
    "id" BIGSERIAL NOT NULL,
    "message_id" TEXT NOT NULL,
    "attempted_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "status_code" INTEGER,
    "duration_ms" INTEGER NOT NULL,
    "response_body" TEXT,
    "error" TEXT,
    "success" BOOLEAN NOT NULL,

    CONSTRAINT "webhook_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "accounts_name_key" ON "accounts"("name");

-- CreateIndex
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");

-- CreateIndex
CREATE INDEX "users_account_id_idx" ON "users"("account_id");

-- CreateIndex
CREATE INDEX "sessions_user_id_idx" ON "sessions"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "api_tokens_token_hash_key" ON "api_tokens"("token_hash");

-- CreateIndex
CREATE INDEX "api_tokens_account_id_environment_idx" ON "api_tokens"("account_id", "environment");

-- CreateIndex
CREATE UNIQUE INDEX "rate_cards_service_key" ON "rate_cards"("service");

-- CreateIndex
CREATE INDEX "container_manifests_account_id_environment_manifest_date_idx" ON "container_manifests"("account_id", "environment", "manifest_date");

-- CreateIndex
CREATE UNIQUE INDEX "container_manifests_account_id_environment_container_id_key" ON "container_manifests"("account_id", "environment", "container_id");

-- CreateIndex
CREATE INDEX "container_packages_manifest_id_position_idx" ON "container_packages"("manifest_id", "position");

-- CreateIndex
CREATE UNIQUE INDEX "container_packages_account_id_environment_tracking_number_key" ON "container_packages"("account_id", "environment", "tracking_number");

-- CreateIndex
CREATE UNIQUE INDEX "daily_manifests_account_id_environment_manifest_date_key" ON "daily_manifests"("account_id", "environment", "manifest_date");

-- CreateIndex
CREATE INDEX "packages_daily_manifest_id_idx" ON "packages"("daily_manifest_id");

-- CreateIndex
CREATE UNIQUE INDEX "packages_account_id_environment_tracking_number_key" ON "packages"("account_id", "environment", "tracking_number");

-- CreateIndex
CREATE INDEX "webhook_endpoints_account_id_environment_idx" ON "webhook_endpoints"("account_id", "environment");

-- CreateIndex
CREATE INDEX "webhook_events_account_id_environment_created_at_idx" ON "webhook_events"("account_id", "environment", "created_at");

-- CreateIndex
CREATE INDEX "webhook_messages_status_next_attempt_at_idx" ON "webhook_messages"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "webhook_messages_endpoint_id_created_at_idx" ON "webhook_messages"("endpoint_id", "created_at");

-- CreateIndex
CREATE INDEX "webhook_attempts_message_id_attempted_at_idx" ON "webhook_attempts"("message_id", "attempted_at");

-- AddForeignKey
ALTER TABLE "users" ADD CONSTRAINT "users_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "container_manifests" ADD CONSTRAINT "container_manifests_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "container_packages" ADD CONSTRAINT "container_packages_manifest_id_fkey" FOREIGN KEY ("manifest_id") REFERENCES "container_manifests"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "daily_manifests" ADD CONSTRAINT "daily_manifests_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "packages" ADD CONSTRAINT "packages_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "packages" ADD CONSTRAINT "packages_daily_manifest_id_fkey" FOREIGN KEY ("daily_manifest_id") REFERENCES "daily_manifests"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_messages" ADD CONSTRAINT "webhook_messages_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "webhook_events"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_messages" ADD CONSTRAINT "webhook_messages_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_message_id_fkey" FOREIGN KEY ("message_id") REFERENCES "webhook_messages"("id") ON DELETE CASCADE ON UPDATE CASCADE;
