-- Idempotency-Key on any POST (Stripe's semantics): the first answer to a key is kept for 24 hours and given again
-- to the same request; the same key with another request is refused. One row per account, environment and key;
-- status NULL while the first request is still running.
CREATE TABLE "idempotency_keys" (
    "account_id" UUID NOT NULL,
    "environment" "Environment" NOT NULL,
    "key" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "status" INTEGER,
    "response_body" TEXT,
    "response_headers" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("account_id", "environment", "key"),
    CONSTRAINT "idempotency_keys_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE
);

CREATE INDEX "idempotency_keys_created_at_idx" ON "idempotency_keys"("created_at");
