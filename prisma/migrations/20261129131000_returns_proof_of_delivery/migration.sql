-- Returns and proof of delivery (docs/decisions/returns.md, docs/decisions/proof-of-delivery.md).

-- A return package (a daily-manifest package, created by POST /packages/{TrackingNumber}/return) and the package it
-- returns, by carrier barcode (both tables' packages have one, never reused). One live return per original is held by
-- the writer under an advisory lock (a cancelled return frees it), so this is a plain link, read both ways.
CREATE TABLE "package_returns" (
    "return_barcode" TEXT NOT NULL,
    "account_id" UUID NOT NULL,
    "environment" "Environment" NOT NULL,
    "original_barcode" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "package_returns_pkey" PRIMARY KEY ("return_barcode"),
    CONSTRAINT "package_returns_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE
);
CREATE INDEX "package_returns_original_idx" ON "package_returns"("account_id", "environment", "original_barcode", "created_at");

-- Whether the public tracking page offers a return label for a delivered package: off unless the shipper allows it.
CREATE TABLE "return_settings" (
    "account_id" UUID NOT NULL,
    "public_returns" BOOLEAN NOT NULL DEFAULT false,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "return_settings_pkey" PRIMARY KEY ("account_id"),
    CONSTRAINT "return_settings_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE
);

-- What a delivered scan carried (recipient name, signature, photo): kept out of packages and lifecycle_events, whose
-- rows every list reads. One row per applied scan (environment, scan_id, as ops_scans); images as checked bytes.
CREATE TABLE "proofs_of_delivery" (
    "environment" "Environment" NOT NULL,
    "scan_id" TEXT NOT NULL,
    "account_id" UUID NOT NULL,
    "carrier_barcode" TEXT NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "location" TEXT,
    "recipient_name" TEXT,
    "signature" BYTEA,
    "signature_type" TEXT,
    "photo" BYTEA,
    "photo_type" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "proofs_of_delivery_pkey" PRIMARY KEY ("environment", "scan_id"),
    CONSTRAINT "proofs_of_delivery_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE
);
CREATE INDEX "proofs_of_delivery_package_idx" ON "proofs_of_delivery"("account_id", "environment", "carrier_barcode", "occurred_at");
