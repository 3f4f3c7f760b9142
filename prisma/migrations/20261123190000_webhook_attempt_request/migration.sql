-- The delivery log shows what each attempt sent (issue 17): its headers, kept per attempt since the signature and
-- timestamp differ on every try. Null for attempts before this and for ones that were never sent. The log can be
-- filtered by outcome, newest first, on (endpoint_id, success, id).

-- AlterTable
ALTER TABLE "webhook_attempts" ADD COLUMN "request_headers" JSONB;

-- CreateIndex
CREATE INDEX "webhook_attempts_endpoint_id_success_id_idx" ON "webhook_attempts"("endpoint_id", "success", "id");
