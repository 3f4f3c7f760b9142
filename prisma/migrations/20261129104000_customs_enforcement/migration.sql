-- Customs readiness enforced before a live departure (docs/decisions/customs.md): off unless the shipper turns it on.
-- Per account: only the live path is enforced (the test path shows readiness and never holds a container).
CREATE TABLE "customs_settings" (
    "account_id" UUID NOT NULL,
    "enforce_readiness" BOOLEAN NOT NULL DEFAULT false,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "customs_settings_pkey" PRIMARY KEY ("account_id"),
    CONSTRAINT "customs_settings_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE
);
