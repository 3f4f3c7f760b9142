-- House waybills and customs outcomes (docs/decisions/customs.md).
--
-- Every package, daily or container, has a house waybill: the shipper's Customs.HouseWaybill when it sent one, else
-- one issued here. Issued numbers are unique across the carrier and both environments and never reused, by
-- construction, as carrier barcodes are (20261129040000_carrier_barcodes): a keyed permutation (a balanced Feistel
-- network over 10^5 x 10^5) of one never-reset sequence. Format: H, 10 digits and a Luhn check digit, 12 characters
-- (the most a Cargo-IMP house waybill field holds). The shipper may not send that form (lib/schemas/customs.ts), so an
-- issued number can never equal a shipper's.

CREATE SEQUENCE "house_waybill_seq" AS BIGINT MINVALUE 0 MAXVALUE 9999999999 START 0 NO CYCLE;

CREATE TABLE "house_waybill_key" (
    "only_row" BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK ("only_row"),
    "secret" TEXT NOT NULL
);
INSERT INTO "house_waybill_key" ("secret") VALUES (md5(gen_random_uuid()::text) || md5(gen_random_uuid()::text));

CREATE FUNCTION "house_waybill_for"(n BIGINT, secret TEXT) RETURNS TEXT
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
    l INT := (n / 100000)::INT;
    r INT := (n % 100000)::INT;
    t INT;
    digits TEXT;
    total INT := 0;
    d INT;
BEGIN
    FOR round IN 1..4 LOOP
        t := r;
        r := (l + (('x' || substr(md5(secret || round || ':' || r), 1, 7))::BIT(28)::INT % 100000)) % 100000;
        l := t;
    END LOOP;
    digits := lpad(l::TEXT, 5, '0') || lpad(r::TEXT, 5, '0');
    -- Luhn over the 10 digits: from the right, every second digit of the payload doubled.
    FOR i IN 1..10 LOOP
        d := substr(digits, 11 - i, 1)::INT;
        IF i % 2 = 1 THEN
            d := d * 2;
            IF d > 9 THEN d := d - 9; END IF;
        END IF;
        total := total + d;
    END LOOP;
    RETURN 'H' || digits || ((10 - total % 10) % 10)::TEXT;
END;
$$;

CREATE FUNCTION "next_house_waybill"() RETURNS TEXT
LANGUAGE sql VOLATILE AS $$
    SELECT "house_waybill_for"(nextval('house_waybill_seq'), (SELECT "secret" FROM "house_waybill_key"))
$$;

ALTER TABLE "packages" ADD COLUMN "house_waybill" TEXT, ADD COLUMN "house_waybill_issued" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "container_packages" ADD COLUMN "house_waybill" TEXT, ADD COLUMN "house_waybill_issued" BOOLEAN NOT NULL DEFAULT false;

-- Whoever inserts a package (the API's statements, COPY, a test), its house waybill is set here: the declaration's,
-- or a new one. An amendment (lib/customs/amend-package.ts) sets the columns itself.
CREATE FUNCTION "packages_fill_house_waybill"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW."house_waybill" IS NULL THEN
        NEW."house_waybill" := NULLIF(upper(btrim(NEW."data"->'Customs'->>'HouseWaybill')), '');
        IF NEW."house_waybill" IS NULL THEN
            NEW."house_waybill" := "next_house_waybill"();
            NEW."house_waybill_issued" := true;
        END IF;
    END IF;
    RETURN NEW;
END;
$$;

CREATE FUNCTION "container_packages_fill_house_waybill"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW."house_waybill" IS NULL THEN
        NEW."house_waybill" := NULLIF(upper(btrim(NEW."detail"->'Customs'->>'HouseWaybill')), '');
        IF NEW."house_waybill" IS NULL THEN
            NEW."house_waybill" := "next_house_waybill"();
            NEW."house_waybill_issued" := true;
        END IF;
    END IF;
    RETURN NEW;
END;
$$;

-- Existing packages get theirs now, in id order.
UPDATE "packages" SET "house_waybill" = NULLIF(upper(btrim("data"->'Customs'->>'HouseWaybill')), '');
UPDATE "packages" p SET "house_waybill" = "next_house_waybill"(), "house_waybill_issued" = true
FROM (SELECT "id" FROM "packages" WHERE "house_waybill" IS NULL ORDER BY "id") o WHERE p."id" = o."id";
UPDATE "container_packages" SET "house_waybill" = NULLIF(upper(btrim("detail"->'Customs'->>'HouseWaybill')), '');
UPDATE "container_packages" p SET "house_waybill" = "next_house_waybill"(), "house_waybill_issued" = true
FROM (SELECT "id" FROM "container_packages" WHERE "house_waybill" IS NULL ORDER BY "id") o WHERE p."id" = o."id";

ALTER TABLE "packages" ALTER COLUMN "house_waybill" SET NOT NULL;
ALTER TABLE "container_packages" ALTER COLUMN "house_waybill" SET NOT NULL;

CREATE TRIGGER "packages_fill_house_waybill"
    BEFORE INSERT ON "packages"
    FOR EACH ROW EXECUTE FUNCTION "packages_fill_house_waybill"();
CREATE TRIGGER "container_packages_fill_house_waybill"
    BEFORE INSERT ON "container_packages"
    FOR EACH ROW EXECUTE FUNCTION "container_packages_fill_house_waybill"();

-- Issued numbers are unique by construction; these indexes would catch a bug. A shipper's own number is the shipper's
-- word (unique within its container: lib/schemas/container-manifest.ts), so only issued ones are indexed.
CREATE UNIQUE INDEX "packages_house_waybill_issued_key" ON "packages"("house_waybill") WHERE "house_waybill_issued";
CREATE UNIQUE INDEX "container_packages_house_waybill_issued_key" ON "container_packages"("house_waybill") WHERE "house_waybill_issued";

-- Customs outcomes (lib/status/transitions.ts CUSTOMS_TRANSITIONS): the latest applied outcome of a package or a
-- container, and when it happened. NULL: none yet.
ALTER TABLE "packages" ADD COLUMN "customs_status" TEXT, ADD COLUMN "customs_status_updated_at" TIMESTAMPTZ(3);
ALTER TABLE "container_packages" ADD COLUMN "customs_status" TEXT, ADD COLUMN "customs_status_updated_at" TIMESTAMPTZ(3);
ALTER TABLE "container_manifests" ADD COLUMN "customs_status" TEXT, ADD COLUMN "customs_status_updated_at" TIMESTAMPTZ(3);

-- What an event says beyond its status: a customs outcome's reference and text, an amendment's fields.
ALTER TABLE "lifecycle_events" ADD COLUMN "details" JSONB;
