-- Deliveries in order (issue 13: the simulator fires each event's webhook in order; scans move a package through
-- its states one after another). Messages that carry an ordering key (the lifecycle events: one key per package,
-- one per manifest) are delivered to their endpoint one at a time, in the order they were written: a message is
-- not claimed while an earlier one with the same endpoint and key is still pending or being delivered
-- (lib/webhooks/claim-messages.ts). `seq` is that order, taken from a sequence when the message is inserted, inside
-- the transaction that holds the subject's row lock. Messages without a key (package.sorting, test events, the
-- rows already stored) are claimed as before. Nullable columns without defaults: no table rewrite.

-- AlterTable
ALTER TABLE "webhook_messages" ADD COLUMN "ordering_key" TEXT,
ADD COLUMN "seq" BIGINT;

-- Hand-written: the order's sequence, and the index the claim's "earlier open message" check reads (open
-- messages with a key only: its size follows the queue's depth, not the table's).
CREATE SEQUENCE "webhook_message_seq" AS BIGINT;

CREATE INDEX "webhook_messages_open_ordering_idx" ON "webhook_messages" ("endpoint_id", "ordering_key", "seq")
WHERE "ordering_key" IS NOT NULL AND "status" IN ('pending', 'delivering');
