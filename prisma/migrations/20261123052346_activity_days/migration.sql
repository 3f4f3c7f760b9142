-- The dashboard's rollup (issue 14; docs/decisions/reads-at-scale.md): per account, environment and UTC day,
-- packages and container manifests received, kept by the writes in the same statement or transaction.

-- CreateTable
CREATE TABLE "activity_days" (
    "account_id" UUID NOT NULL,
    "environment" "Environment" NOT NULL,
    "day" DATE NOT NULL,
    "packages" INTEGER NOT NULL DEFAULT 0,
    "container_manifests" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "activity_days_pkey" PRIMARY KEY ("account_id","environment","day")
);

-- AddForeignKey
ALTER TABLE "activity_days" ADD CONSTRAINT "activity_days_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Backfill from what is stored: received days as the dashboard counts them (UTC).
INSERT INTO "activity_days" ("account_id", "environment", "day", "packages", "container_manifests")
SELECT "account_id", "environment", "day", sum("packages")::int, sum("container_manifests")::int
FROM (
  SELECT "account_id", "environment", ("created_at" AT TIME ZONE 'UTC')::date AS "day", count(*) AS "packages", 0 AS "container_manifests"
  FROM "packages" GROUP BY 1, 2, 3
  UNION ALL
  SELECT "account_id", "environment", ("created_at" AT TIME ZONE 'UTC')::date, 0, count(*)
  FROM "container_manifests" GROUP BY 1, 2, 3
) counted
GROUP BY 1, 2, 3;
