-- Reads whose cost follows the page, not the account (issue 14; docs/decisions/reads-at-scale.md).
-- Daily manifests carry their package count and distinct services (kept by the package insert in the
-- same statement from now on). The list, filter and dashboard indexes on (account_id, environment, created_at, id)
-- and (…, service_name, …) come with 20261123050339_lifecycle; here the per-manifest keyset index and the
-- webhook success rate's.

-- DropIndex
DROP INDEX "packages_daily_manifest_id_idx";

-- AlterTable
ALTER TABLE "daily_manifests" ADD COLUMN     "package_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "services" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- Backfill from the packages already stored (one pass, grouped once).
UPDATE "daily_manifests" d SET "package_count" = agg.n, "services" = agg.services
FROM (
  SELECT "daily_manifest_id", count(*)::int AS n, array_agg(DISTINCT "service_name" ORDER BY "service_name") AS services
  FROM "packages" GROUP BY "daily_manifest_id"
) agg
WHERE agg."daily_manifest_id" = d."id";

-- CreateIndex
CREATE INDEX "packages_daily_manifest_id_id_idx" ON "packages"("daily_manifest_id", "id");

-- CreateIndex
CREATE INDEX "webhook_attempts_endpoint_id_attempted_at_success_idx" ON "webhook_attempts"("endpoint_id", "attempted_at", "success");
