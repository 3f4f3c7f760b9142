-- Tracking numbers are unique per account and environment in any case: 1z999 and 1Z999 are one package (design.md,
-- Lifecycle; reads and scans already match them in any case). One unique index on lower(tracking_number) per table
-- replaces both the exact-case unique index and the lower(...) prefix-search index: text_pattern_ops serves the
-- list's `lower(tracking_number) LIKE 'abc%'`, the lookups' `lower(tracking_number) = ...` and the acceptance's
-- ON CONFLICT alike, so each insert maintains one index fewer than before. Tracking numbers are ASCII
-- (lib/schemas/fields.ts), so lower() here and toLowerCase() in the application agree.
-- Prisma's schema cannot express an expression index: schema.prisma says so where the @@unique was.

-- Numbers that already differ only in case would make the index build fail half-way with a bare unique violation:
-- name them instead, so that they can be resolved before the migration is run again.
DO $$
DECLARE
    clash TEXT;
BEGIN
    SELECT string_agg(format('%s %s/%s: %s', t, account_id, environment, numbers), '; ') INTO clash
    FROM (
        SELECT 'packages' AS t, account_id, environment, string_agg(tracking_number, ', ') AS numbers
        FROM "packages" GROUP BY account_id, environment, lower(tracking_number) HAVING count(*) > 1
        UNION ALL
        SELECT 'container_packages', account_id, environment, string_agg(tracking_number, ', ')
        FROM "container_packages" WHERE tracking_number IS NOT NULL
        GROUP BY account_id, environment, lower(tracking_number) HAVING count(*) > 1
        LIMIT 20
    ) clashes;
    IF clash IS NOT NULL THEN
        RAISE EXCEPTION 'tracking numbers that differ only in case (at most 20 shown): %', clash;
    END IF;
END;
$$;

DROP INDEX "packages_account_id_environment_tracking_number_key";
DROP INDEX "packages_tracking_number_lower_idx";
CREATE UNIQUE INDEX "packages_account_id_environment_tracking_number_lower_key"
    ON "packages" ("account_id", "environment", lower("tracking_number") text_pattern_ops);

DROP INDEX "container_packages_account_id_environment_tracking_number_key";
DROP INDEX "container_packages_tracking_number_lower_idx";
CREATE UNIQUE INDEX "container_packages_account_id_environment_tracking_number_lower_key"
    ON "container_packages" ("account_id", "environment", lower("tracking_number") text_pattern_ops);
