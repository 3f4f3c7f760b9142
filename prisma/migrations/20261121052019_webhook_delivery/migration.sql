-- AlterTable
ALTER TABLE "webhook_attempts" ADD COLUMN     "attempt_number" INTEGER NOT NULL,
ADD COLUMN     "endpoint_id" TEXT NOT NULL;

-- AlterTable
ALTER TABLE "webhook_endpoints" ADD COLUMN     "failing_since" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "webhook_messages" ADD COLUMN     "redelivery" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "webhook_attempts_endpoint_id_id_idx" ON "webhook_attempts"("endpoint_id", "id");

-- AddForeignKey
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written (Prisma does not model triggers): new deliveries wake the webhook workers at once
-- instead of at their next poll. Workers LISTEN on "webhook_messages"; NOTIFY is transactional, so
-- they hear it only when the package's transaction commits. One notification per statement.
CREATE FUNCTION "notify_webhook_messages_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('webhook_messages', '');
    RETURN NULL;
END;
$$;

CREATE TRIGGER "webhook_messages_notify"
    AFTER INSERT ON "webhook_messages"
    FOR EACH STATEMENT EXECUTE FUNCTION "notify_webhook_messages_inserted"();
