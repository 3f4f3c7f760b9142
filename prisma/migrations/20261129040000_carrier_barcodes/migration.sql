-- Carrier barcodes: every package, daily or container, gets one from us, unique across the carrier and both
-- environments and never reused, so that a scan by it is never ambiguous whatever tracking numbers shippers send.
--
-- Unique by construction, not by luck: the number is a keyed permutation (a balanced Feistel network over
-- 10^6 x 10^6) of one shared, never-reset sequence, so two packages can never draw the same one and no insert ever
-- retries. Keyed with a secret drawn here, so one barcode says nothing about the next. Format: CB, 12 digits, and
-- a Luhn check digit (lib/schemas/carrier-barcode.ts checks it before any lookup).

CREATE SEQUENCE "carrier_barcode_seq" AS BIGINT MINVALUE 0 MAXVALUE 999999999999 START 0 NO CYCLE;

CREATE TABLE "carrier_barcode_key" (
    "only_row" BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK ("only_row"),
    "secret" TEXT NOT NULL
);
INSERT INTO "carrier_barcode_key" ("secret") VALUES (md5(gen_random_uuid()::text) || md5(gen_random_uuid()::text));

CREATE FUNCTION "carrier_barcode_for"(n BIGINT, secret TEXT) RETURNS TEXT
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
    l INT := (n / 1000000)::INT;
    r INT := (n % 1000000)::INT;
    t INT;
    digits TEXT;
    total INT := 0;
    d INT;
BEGIN
    FOR round IN 1..4 LOOP
        t := r;
        r := (l + (('x' || substr(md5(secret || round || ':' || r), 1, 7))::BIT(28)::INT % 1000000)) % 1000000;
        l := t;
    END LOOP;
    digits := lpad(l::TEXT, 6, '0') || lpad(r::TEXT, 6, '0');
    -- Luhn over the 12 digits: from the right, every second digit of the payload doubled (the check digit's place is odd).
    FOR i IN 1..12 LOOP
        d := substr(digits, 13 - i, 1)::INT;
        IF i % 2 = 1 THEN
            d := d * 2;
            IF d > 9 THEN d := d - 9; END IF;
        END IF;
        total := total + d;
    END LOOP;
    RETURN 'CB' || digits || ((10 - total % 10) % 10)::TEXT;
END;
$$;

CREATE FUNCTION "next_carrier_barcode"() RETURNS TEXT
LANGUAGE sql VOLATILE AS $$
    SELECT "carrier_barcode_for"(nextval('carrier_barcode_seq'), (SELECT "secret" FROM "carrier_barcode_key"))
$$;

ALTER TABLE "packages" ADD COLUMN "carrier_barcode" TEXT NOT NULL DEFAULT "next_carrier_barcode"();
ALTER TABLE "container_packages" ADD COLUMN "carrier_barcode" TEXT NOT NULL DEFAULT "next_carrier_barcode"();

CREATE UNIQUE INDEX "packages_carrier_barcode_key" ON "packages"("carrier_barcode");
CREATE UNIQUE INDEX "container_packages_carrier_barcode_key" ON "container_packages"("carrier_barcode");

-- A package event names its package by barcode too: a container package may have no tracking number, and two
-- shippers' packages may share one.
ALTER TABLE "lifecycle_events" ADD COLUMN "carrier_barcode" TEXT;
