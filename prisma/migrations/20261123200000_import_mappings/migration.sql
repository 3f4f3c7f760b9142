-- The manifest builder remembers each account's last column mapping (issue 17): a spreadsheet exported the same way
-- every day is mapped once.

-- CreateTable
CREATE TABLE "import_mappings" (
    "account_id" UUID NOT NULL,
    "columns" JSONB NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "import_mappings_pkey" PRIMARY KEY ("account_id")
);

-- AddForeignKey
ALTER TABLE "import_mappings" ADD CONSTRAINT "import_mappings_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
