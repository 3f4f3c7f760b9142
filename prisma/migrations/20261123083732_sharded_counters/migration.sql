-- Counters without a hot row (issues 13/14; docs/decisions/reads-at-scale.md). Every package used to update its
-- daily manifest's row (package_count) and its day's activity_days row: one row per account and day, whose lock
-- each package held until its commit was flushed, so an account's concurrent packages went one at a time.
-- Now both are sharded: a write adds to one of 16 rows (the shard is its connection's backend pid mod 16), a read
-- sums them. The daily manifest's counts are kept per status, with the weight, so GET /manifests/{id}'s totals
-- read at most 16 rows per status instead of aggregating the manifest's packages.

-- AlterTable
ALTER TABLE "activity_days" DROP CONSTRAINT "activity_days_pkey",
ADD COLUMN     "shard" SMALLINT NOT NULL DEFAULT 0,
ADD CONSTRAINT "activity_days_pkey" PRIMARY KEY ("account_id", "environment", "day", "shard");

-- CreateTable
CREATE TABLE "daily_manifest_counts" (
    "manifest_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "shard" SMALLINT NOT NULL,
    "packages" INTEGER NOT NULL DEFAULT 0,
    "weight_lb" DECIMAL(65,30) NOT NULL DEFAULT 0,

    CONSTRAINT "daily_manifest_counts_pkey" PRIMARY KEY ("manifest_id","status","shard")
);

-- AddForeignKey
ALTER TABLE "daily_manifest_counts" ADD CONSTRAINT "daily_manifest_counts_manifest_id_fkey" FOREIGN KEY ("manifest_id") REFERENCES "daily_manifests"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written from here (Prisma models neither functions nor backfills).

-- One package's weight in pounds, as a manifest's totals add it up (lib/lifecycle/read.ts): the package insert,
-- the lifecycle engine and the container totals all use this one definition. NULL without a weight.
CREATE FUNCTION "package_weight_lb"("weight" TEXT, "unit" TEXT) RETURNS NUMERIC
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE lower(coalesce(unit, 'lb')) WHEN 'kg' THEN weight::numeric * 2.20462
              WHEN 'oz' THEN weight::numeric / 16 ELSE weight::numeric END
$$;

-- Backfill: what is stored, in shard 0, before the column it replaces goes.
INSERT INTO "daily_manifest_counts" ("manifest_id", "status", "shard", "packages", "weight_lb")
SELECT "daily_manifest_id", "status", 0, count(*)::int,
       coalesce(sum("package_weight_lb"("data"->>'PackageWeight', "data"->>'WeightUnit')), 0)
FROM "packages" GROUP BY "daily_manifest_id", "status";

-- AlterTable
ALTER TABLE "daily_manifests" DROP COLUMN "package_count";
