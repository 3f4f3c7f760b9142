-- Close-out (issue 15): a daily manifest is closed by its shipper or at the account's cut-off hour; a closed one
-- takes no more packages, and the next package for that ManifestDate opens a new daily manifest. So the one-per-day
-- key becomes one OPEN manifest per account, environment and day (a partial unique index, which Prisma's schema
-- cannot declare: see the DailyManifest model). The package hot path's insert conflicts on it and checks, under a
-- row lock, that the manifest it writes to is still open (lib/packages/create-package-manifest.ts).

-- CreateIndex (before the old key goes, so that no moment is without one)
CREATE UNIQUE INDEX "daily_manifests_open_day" ON "daily_manifests"("account_id", "environment", "manifest_date") WHERE "status" = 'manifested';

-- DropIndex
DROP INDEX "daily_manifests_account_id_environment_manifest_date_key";

-- CreateTable
CREATE TABLE "close_out_settings" (
    "account_id" UUID NOT NULL,
    "environment" "Environment" NOT NULL,
    "cutoff_hour" INTEGER,
    "time_zone" TEXT NOT NULL DEFAULT 'UTC',
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "close_out_settings_pkey" PRIMARY KEY ("account_id","environment")
);

-- AddForeignKey
ALTER TABLE "close_out_settings" ADD CONSTRAINT "close_out_settings_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
