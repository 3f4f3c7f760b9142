-- Each house's customs readiness, stored, for GET /packages?customs_not_ready=<regime> across an account
-- (lib/customs/readiness-flags.ts; docs/decisions/customs.md): `customs_not_ready` holds a bit per regime the house is
-- not ready for (lib/customs/readiness.ts regimeBit). A daily package's is 0 when ready and null until computed; a
-- container's house is null unless it is not ready (its container's versions say whether its houses are computed), so
-- a refresh writes only the houses not ready.
--
-- The rules are TypeScript, so the database only says when a stored mask may be stale, and the read side recomputes
-- before it filters:
-- - a container's houses depend on its header (destination, origin, description, consignor) and on each other (a
--   house waybill two share), so the container carries a version, bumped by any change of its header or of a house's
--   data, house waybill or offload; its houses are current when `customs_checked_version` equals it;
-- - a daily package depends on its own data only: a change of it clears its mask.
-- Houses are inserted with their container only (one statement, in its transaction), and a new container starts
-- stale (version 1, checked 0), so no insert trigger is needed.

ALTER TABLE "container_manifests"
    ADD COLUMN "customs_version" BIGINT NOT NULL DEFAULT 1,
    ADD COLUMN "customs_checked_version" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "container_packages" ADD COLUMN "customs_not_ready" SMALLINT;
ALTER TABLE "packages" ADD COLUMN "customs_not_ready" SMALLINT;

-- What a read recomputes first: small, as only changed containers and packages are in them.
CREATE INDEX "container_manifests_customs_stale_idx" ON "container_manifests" ("account_id", "environment")
    WHERE "customs_checked_version" <> "customs_version";
CREATE INDEX "packages_customs_unchecked_idx" ON "packages" ("account_id", "environment", "id") WHERE "customs_not_ready" IS NULL;

-- The filter's keyset, newest first, over the houses not ready for some regime only.
CREATE INDEX "container_packages_customs_not_ready_idx" ON "container_packages" ("account_id", "environment", "created_at", "id")
    WHERE "customs_not_ready" <> 0;
CREATE INDEX "packages_customs_not_ready_idx" ON "packages" ("account_id", "environment", "created_at", "id")
    WHERE "customs_not_ready" <> 0;

CREATE FUNCTION "container_customs_header_changed"() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
    NEW."customs_version" := OLD."customs_version" + 1;
    RETURN NEW;
END $$;

CREATE TRIGGER "container_manifests_customs_version" BEFORE UPDATE OF "header", "awb" ON "container_manifests"
    FOR EACH ROW WHEN (OLD."header" IS DISTINCT FROM NEW."header" OR OLD."awb" IS DISTINCT FROM NEW."awb")
    EXECUTE FUNCTION "container_customs_header_changed"();

-- A house's change makes its container's masks stale (a house waybill changed may free or take another's).
-- Amendments and offloads lock the container row first, so this update takes no lock they do not hold.
CREATE FUNCTION "container_customs_house_changed"() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
    UPDATE "container_manifests" SET "customs_version" = "customs_version" + 1 WHERE "id" = NEW."manifest_id";
    RETURN NULL;
END $$;

CREATE TRIGGER "container_packages_customs_version" AFTER UPDATE OF "detail", "house_waybill", "offloaded_at" ON "container_packages"
    FOR EACH ROW WHEN (OLD."detail" IS DISTINCT FROM NEW."detail" OR OLD."house_waybill" IS DISTINCT FROM NEW."house_waybill"
        OR OLD."offloaded_at" IS DISTINCT FROM NEW."offloaded_at")
    EXECUTE FUNCTION "container_customs_house_changed"();

CREATE FUNCTION "package_customs_data_changed"() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
    NEW."customs_not_ready" := NULL;
    RETURN NEW;
END $$;

CREATE TRIGGER "packages_customs_not_ready" BEFORE UPDATE OF "data" ON "packages"
    FOR EACH ROW WHEN (OLD."data" IS DISTINCT FROM NEW."data")
    EXECUTE FUNCTION "package_customs_data_changed"();
