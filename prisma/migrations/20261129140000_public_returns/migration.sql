-- Returns started from the public tracking page (docs/decisions/returns.md "From the public tracking page").

-- What a recipient who proved they hold a parcel (its destination postal code) gets: a random token, kept here only as
-- its SHA-256, that lets that browser (a cookie) or that client (the JSON's label_url) download the return's label
-- for an hour. Whoever only knows the tracking number never gets one.
CREATE TABLE "public_return_grants" (
    "token_hash" BYTEA NOT NULL,
    "account_id" UUID NOT NULL,
    "original_barcode" TEXT NOT NULL,
    "return_tracking_number" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "public_return_grants_pkey" PRIMARY KEY ("token_hash"),
    CONSTRAINT "public_return_grants_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE
);
CREATE INDEX "public_return_grants_expires_idx" ON "public_return_grants"("expires_at");
