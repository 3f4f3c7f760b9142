-- Issue 13, the lifecycle (lib/lifecycle, docs/decisions/lifecycle.md): a status on every container manifest,
-- container package, daily manifest and daily package; their history (lifecycle_events); carrier operations
-- tokens and the scans they sent (idempotency by scan_id). Existing rows start as `manifested`, since their
-- creation; nothing stored changes otherwise.
-- AlterTable
ALTER TABLE "container_manifests" ADD COLUMN     "status" TEXT NOT NULL DEFAULT 'manifested',
ADD COLUMN     "status_updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- AlterTable
ALTER TABLE "container_packages" ADD COLUMN     "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "manifest_date" TIMESTAMPTZ(3),
ADD COLUMN     "service_name" TEXT,
ADD COLUMN     "status" TEXT NOT NULL DEFAULT 'manifested',
ADD COLUMN     "status_updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "to_postal_code" TEXT;

-- AlterTable
ALTER TABLE "daily_manifests" ADD COLUMN     "status" TEXT NOT NULL DEFAULT 'manifested',
ADD COLUMN     "status_updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- AlterTable
ALTER TABLE "packages" ADD COLUMN     "status" TEXT NOT NULL DEFAULT 'manifested',
ADD COLUMN     "status_updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- CreateTable
CREATE TABLE "lifecycle_events" (
    "id" BIGSERIAL NOT NULL,
    "account_id" UUID NOT NULL,
    "environment" "Environment" NOT NULL,
    "subject_type" TEXT NOT NULL,
    "manifest_id" TEXT NOT NULL,
    "tracking_number" TEXT,
    "container_id" TEXT,
    "type" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "previous_status" TEXT,
    "applied" BOOLEAN NOT NULL DEFAULT true,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "location" TEXT,
    "source" TEXT NOT NULL,
    "scan_id" TEXT,
    "parent_id" BIGINT,
    "exception_code" TEXT,
    "exception_text" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "lifecycle_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ops_tokens" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "display_prefix" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "ops_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ops_scans" (
    "environment" "Environment" NOT NULL,
    "scan_id" TEXT NOT NULL,
    "event_id" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ops_scans_pkey" PRIMARY KEY ("environment","scan_id")
);

-- CreateIndex
CREATE INDEX "lifecycle_events_account_id_environment_tracking_number_occ_idx" ON "lifecycle_events"("account_id", "environment", "tracking_number", "occurred_at", "id");

-- CreateIndex
CREATE INDEX "lifecycle_events_account_id_environment_manifest_id_occurre_idx" ON "lifecycle_events"("account_id", "environment", "manifest_id", "occurred_at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "ops_tokens_token_hash_key" ON "ops_tokens"("token_hash");

-- CreateIndex
CREATE INDEX "container_manifests_account_id_environment_created_at_id_idx" ON "container_manifests"("account_id", "environment", "created_at", "id");

-- CreateIndex
CREATE INDEX "container_manifests_account_id_environment_status_created_a_idx" ON "container_manifests"("account_id", "environment", "status", "created_at", "id");

-- CreateIndex
CREATE INDEX "container_manifests_account_id_environment_service_name_cre_idx" ON "container_manifests"("account_id", "environment", "service_name", "created_at", "id");

-- CreateIndex
CREATE INDEX "container_packages_account_id_environment_created_at_id_idx" ON "container_packages"("account_id", "environment", "created_at", "id");

-- CreateIndex
CREATE INDEX "container_packages_account_id_environment_status_created_at_idx" ON "container_packages"("account_id", "environment", "status", "created_at", "id");

-- CreateIndex
CREATE INDEX "container_packages_account_id_environment_service_name_crea_idx" ON "container_packages"("account_id", "environment", "service_name", "created_at", "id");

-- CreateIndex
CREATE INDEX "container_packages_account_id_environment_to_postal_code_cr_idx" ON "container_packages"("account_id", "environment", "to_postal_code", "created_at", "id");

-- CreateIndex
CREATE INDEX "container_packages_account_id_environment_manifest_date_idx" ON "container_packages"("account_id", "environment", "manifest_date");

-- CreateIndex
CREATE INDEX "daily_manifests_account_id_environment_created_at_id_idx" ON "daily_manifests"("account_id", "environment", "created_at", "id");

-- CreateIndex
CREATE INDEX "daily_manifests_account_id_environment_status_created_at_id_idx" ON "daily_manifests"("account_id", "environment", "status", "created_at", "id");

-- CreateIndex
CREATE INDEX "packages_daily_manifest_id_created_at_id_idx" ON "packages"("daily_manifest_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "packages_account_id_environment_created_at_id_idx" ON "packages"("account_id", "environment", "created_at", "id");

-- CreateIndex
CREATE INDEX "packages_account_id_environment_status_created_at_id_idx" ON "packages"("account_id", "environment", "status", "created_at", "id");

-- CreateIndex
CREATE INDEX "packages_account_id_environment_service_name_created_at_id_idx" ON "packages"("account_id", "environment", "service_name", "created_at", "id");

-- CreateIndex
CREATE INDEX "packages_account_id_environment_to_postal_code_created_at_i_idx" ON "packages"("account_id", "environment", "to_postal_code", "created_at", "id");

-- CreateIndex
CREATE INDEX "packages_account_id_environment_manifest_date_idx" ON "packages"("account_id", "environment", "manifest_date");

-- AddForeignKey
ALTER TABLE "lifecycle_events" ADD CONSTRAINT "lifecycle_events_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written from here (Prisma models neither backfills, triggers, expression indexes nor CHECKs).

-- Existing rows: manifested since they were created.
UPDATE "container_manifests" SET "status_updated_at" = "created_at";
UPDATE "daily_manifests" SET "status_updated_at" = "created_at";
UPDATE "packages" SET "status_updated_at" = "created_at";
UPDATE "container_packages" cp
SET "created_at" = m."created_at", "status_updated_at" = m."created_at", "service_name" = m."service_name",
    "manifest_date" = m."manifest_date", "to_postal_code" = NULLIF(cp."detail"->>'ToPostalCode', '')
FROM "container_manifests" m WHERE m."id" = cp."manifest_id";

-- A container package's list columns come from its manifest and its detail, whoever inserts it.
CREATE FUNCTION "container_packages_fill_list_columns"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW."service_name" IS NULL OR NEW."manifest_date" IS NULL THEN
        SELECT m."service_name", m."manifest_date" INTO NEW."service_name", NEW."manifest_date"
        FROM "container_manifests" m WHERE m."id" = NEW."manifest_id";
    END IF;
    IF NEW."to_postal_code" IS NULL THEN
        NEW."to_postal_code" := NULLIF(NEW."detail"->>'ToPostalCode', '');
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER "container_packages_fill_list_columns"
    BEFORE INSERT ON "container_packages"
    FOR EACH ROW EXECUTE FUNCTION "container_packages_fill_list_columns"();

-- Case-insensitive tracking-number prefix search (GET /packages?tracking_number=…): lower(…) LIKE 'abc%'.
CREATE INDEX "packages_tracking_number_lower_idx"
    ON "packages" ("account_id", "environment", lower("tracking_number") text_pattern_ops);
CREATE INDEX "container_packages_tracking_number_lower_idx"
    ON "container_packages" ("account_id", "environment", lower("tracking_number") text_pattern_ops);
-- Case-insensitive prefix search on ManifestID / ContainerID (GET /manifests?q=…). Expression indexes, so that
-- Prisma's differ leaves them alone (it would drop plain text_pattern_ops indexes it cannot model).
CREATE INDEX "container_manifests_container_id_lower_idx"
    ON "container_manifests" ("account_id", "environment", lower("container_id") text_pattern_ops);
CREATE INDEX "container_manifests_id_lower_idx"
    ON "container_manifests" ("account_id", "environment", lower("id") text_pattern_ops);
CREATE INDEX "daily_manifests_id_lower_idx"
    ON "daily_manifests" ("account_id", "environment", lower("id") text_pattern_ops);

-- No CHECK constraints on the statuses: the WebAssembly schema engine behind `npm run db:diff` panics on them.
-- Only lib/lifecycle writes a status, from its one transition table.
