-- CreateTable
CREATE TABLE "document_cache" (
    "manifest_id" TEXT NOT NULL,
    "document" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "paper" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "part" INTEGER NOT NULL,
    "parts" INTEGER NOT NULL,
    "bytes" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "document_cache_pkey" PRIMARY KEY ("manifest_id","document","format","paper","version","part")
);

-- CreateIndex
CREATE INDEX "document_cache_created_at_idx" ON "document_cache"("created_at");

-- AddForeignKey
ALTER TABLE "document_cache" ADD CONSTRAINT "document_cache_manifest_id_fkey" FOREIGN KEY ("manifest_id") REFERENCES "daily_manifests"("id") ON DELETE CASCADE ON UPDATE CASCADE;
