-- A shipper's branding on the public tracking page (docs/decisions/public-tracking.md "Branding"): an accent colour
-- and a small logo, one row per account, apart from the main tables (a logo's bytes are never read with a package).
-- The checks repeat lib/branding/logo.ts's limits, so that no writer can store more.
CREATE TABLE "account_branding" (
    "account_id" UUID NOT NULL,
    "accent_color" TEXT,
    "logo" BYTEA,
    "logo_type" TEXT,
    "logo_name" TEXT,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "account_branding_pkey" PRIMARY KEY ("account_id"),
    CONSTRAINT "account_branding_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE,
    CONSTRAINT "account_branding_accent_check" CHECK ("accent_color" ~ '^#[0-9a-f]{6}$'),
    CONSTRAINT "account_branding_logo_check" CHECK (
        ("logo" IS NULL AND "logo_type" IS NULL AND "logo_name" IS NULL)
        OR ("logo" IS NOT NULL AND octet_length("logo") BETWEEN 1 AND 262144
            AND "logo_type" IN ('image/png', 'image/jpeg') AND "logo_name" IS NOT NULL AND length("logo_name") <= 100))
);
