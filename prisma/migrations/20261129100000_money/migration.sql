-- Money (docs/decisions/money.md): rate card versions, what each package costs, the billing ledger and invoices.

-- A service's card has versions: a package is priced by the version in force on its ManifestDate (the greatest
-- effective_from at or before it). Existing cards become version 1, in force since ever.
ALTER TABLE "rate_cards" DROP CONSTRAINT IF EXISTS "rate_cards_service_key";
DROP INDEX IF EXISTS "rate_cards_service_key";
ALTER TABLE "rate_cards" ADD COLUMN "version" INTEGER NOT NULL DEFAULT 1;
ALTER TABLE "rate_cards" ADD COLUMN "effective_from" TIMESTAMPTZ(3) NOT NULL DEFAULT '2000-01-01T00:00:00Z';
CREATE UNIQUE INDEX "rate_cards_service_version_key" ON "rate_cards" ("service", "version");
CREATE UNIQUE INDEX "rate_cards_service_effective_from_key" ON "rate_cards" ("service", "effective_from");

-- The package's current price as its reads show it (priced, unpriced with the reason, or voided), written by the
-- package's own insert so that reads need no join. The ledger below is what is billed.
ALTER TABLE "packages" ADD COLUMN "charge" JSONB;
ALTER TABLE "container_packages" ADD COLUMN "charge" JSONB;

-- The billing ledger: one row per charge (a package priced at acceptance), adjustment (re-rated on what the hub
-- measured) or void (a credit for a charge already invoiced when its package was cancelled). Amounts are signed and
-- exact. A charge voided before it was invoiced gets voided_at and is never invoiced. invoice_id is set once, by the
-- invoice that bills the row, and never again (a trigger refuses changes to an invoiced row).
CREATE TABLE "billing_entries" (
    "id" BIGSERIAL NOT NULL,
    "account_id" UUID NOT NULL,
    "environment" "Environment" NOT NULL,
    "kind" TEXT NOT NULL,
    "package_id" BIGINT,
    "container_package_id" BIGINT,
    "manifest_id" TEXT NOT NULL,
    "tracking_number" TEXT,
    "carrier_barcode" TEXT NOT NULL,
    "service" TEXT NOT NULL,
    "amount" DECIMAL(14,2) NOT NULL,
    "currency" TEXT NOT NULL DEFAULT 'USD',
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "detail" JSONB NOT NULL DEFAULT '{}',
    "scan_id" TEXT,
    "voided_at" TIMESTAMPTZ(3),
    "invoice_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "billing_entries_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "billing_entries_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE,
    CONSTRAINT "billing_entries_kind_check" CHECK ("kind" IN ('charge', 'adjustment', 'void')),
    CONSTRAINT "billing_entries_one_package_check" CHECK (("package_id" IS NULL) <> ("container_package_id" IS NULL))
);
-- What an invoice close takes: the account's un-invoiced rows before the period's end.
CREATE INDEX "billing_entries_open_idx" ON "billing_entries" ("account_id", "environment", "occurred_at")
    WHERE "invoice_id" IS NULL AND "voided_at" IS NULL;
-- An invoice's lines, streamed in order.
CREATE INDEX "billing_entries_invoice_idx" ON "billing_entries" ("invoice_id", "id") WHERE "invoice_id" IS NOT NULL;
-- A package's entries (its charge to void, its adjustments).
CREATE INDEX "billing_entries_package_idx" ON "billing_entries" ("package_id") WHERE "package_id" IS NOT NULL;
CREATE INDEX "billing_entries_container_package_idx" ON "billing_entries" ("container_package_id") WHERE "container_package_id" IS NOT NULL;
-- One charge per package; one adjustment per scan (a resent scan adjusts nothing twice).
CREATE UNIQUE INDEX "billing_entries_package_charge_key" ON "billing_entries" ("package_id") WHERE "kind" = 'charge' AND "package_id" IS NOT NULL;
CREATE UNIQUE INDEX "billing_entries_container_package_charge_key" ON "billing_entries" ("container_package_id") WHERE "kind" = 'charge' AND "container_package_id" IS NOT NULL;
CREATE UNIQUE INDEX "billing_entries_scan_key" ON "billing_entries" ("environment", "scan_id") WHERE "scan_id" IS NOT NULL;

CREATE FUNCTION billing_entries_invoiced_are_final() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.invoice_id IS NOT NULL THEN
    RAISE EXCEPTION 'billing entry % is on invoice % and cannot change', OLD.id, OLD.invoice_id;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER "billing_entries_invoiced_are_final" BEFORE UPDATE ON "billing_entries"
    FOR EACH ROW EXECUTE FUNCTION billing_entries_invoiced_are_final();

-- How often an account is invoiced (one setting for both environments): monthly by default, or weekly. Periods are
-- read in the account's close-out time zone (close_out_settings, UTC without one).
CREATE TABLE "billing_settings" (
    "account_id" UUID NOT NULL,
    "period" TEXT NOT NULL DEFAULT 'month',
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "billing_settings_pkey" PRIMARY KEY ("account_id"),
    CONSTRAINT "billing_settings_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE,
    CONSTRAINT "billing_settings_period_check" CHECK ("period" IN ('month', 'week'))
);

-- Invoices: issued once per account, environment and period, numbered without gaps per account and environment
-- (invoice_counters, taken in the issuing transaction, so a rolled-back issue leaves no hole), never changed after.
CREATE TABLE "invoices" (
    "id" TEXT NOT NULL,
    "account_id" UUID NOT NULL,
    "environment" "Environment" NOT NULL,
    "number" INTEGER NOT NULL,
    "period_kind" TEXT NOT NULL,
    "period_start" TIMESTAMPTZ(3) NOT NULL,
    "period_end" TIMESTAMPTZ(3) NOT NULL,
    "time_zone" TEXT NOT NULL,
    "currency" TEXT NOT NULL DEFAULT 'USD',
    "total" DECIMAL(16,2) NOT NULL,
    "line_count" INTEGER NOT NULL,
    -- { "by_service": [{ service, lines, amount }], "by_manifest": [...], "charges", "adjustments", "voids" }
    "totals" JSONB NOT NULL,
    "issued_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "invoices_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "invoices_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE
);
CREATE UNIQUE INDEX "invoices_period_key" ON "invoices" ("account_id", "environment", "period_start");
CREATE UNIQUE INDEX "invoices_number_key" ON "invoices" ("account_id", "environment", "number");
CREATE INDEX "invoices_list_idx" ON "invoices" ("account_id", "environment", "issued_at", "id");

CREATE FUNCTION invoices_are_final() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'invoice % is issued and cannot change', OLD.id;
END $$;
CREATE TRIGGER "invoices_are_final" BEFORE UPDATE ON "invoices" FOR EACH ROW EXECUTE FUNCTION invoices_are_final();

CREATE TABLE "invoice_counters" (
    "account_id" UUID NOT NULL,
    "environment" "Environment" NOT NULL,
    "last_number" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "invoice_counters_pkey" PRIMARY KEY ("account_id", "environment"),
    CONSTRAINT "invoice_counters_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE
);
