-- Pickups (docs/decisions/pickups.md): the carrier collects a manifest's packages, or a set of them, from an address
-- within a window. A package is on at most one scheduled pickup at a time: the scheduling transaction takes an
-- advisory lock per account and environment and checks the overlap (carrier_barcodes &&) before it inserts.
CREATE TABLE "pickups" (
    "id" TEXT NOT NULL,
    "account_id" UUID NOT NULL,
    "environment" "Environment" NOT NULL,
    -- scheduled → completed, or cancelled (before the window opens)
    "status" TEXT NOT NULL DEFAULT 'scheduled',
    "manifest_id" TEXT,
    "carrier_barcodes" TEXT[] NOT NULL,
    "tracking_numbers" TEXT[] NOT NULL,
    "address" JSONB NOT NULL,
    "ready_at" TIMESTAMPTZ(3) NOT NULL,
    "close_at" TIMESTAMPTZ(3) NOT NULL,
    "instructions" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "status_updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "pickups_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "pickups_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE,
    CONSTRAINT "pickups_status_check" CHECK ("status" IN ('scheduled', 'completed', 'cancelled')),
    CONSTRAINT "pickups_window_check" CHECK ("close_at" > "ready_at")
);
CREATE INDEX "pickups_list_idx" ON "pickups" ("account_id", "environment", "created_at", "id");
CREATE INDEX "pickups_manifest_idx" ON "pickups" ("manifest_id") WHERE "manifest_id" IS NOT NULL;
