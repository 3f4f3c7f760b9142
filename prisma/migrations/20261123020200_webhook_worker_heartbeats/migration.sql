-- Delivery workers register and beat every WEBHOOK_HEARTBEAT_MS (lib/webhooks/worker.ts) on a connection
-- of their own, whose backend they record. A claim whose worker's connection is gone (the process died)
-- or whose heartbeat is older than WEBHOOK_WORKER_STALE_MS (hung process, lost machine) is freed by any
-- live worker instead of waiting out the whole lease. No foreign key from webhook_messages.locked_by: a claim by a worker that
-- never registered (an older version during a rolling deploy) simply waits for its lease, as before.
CREATE TABLE "webhook_workers" (
    "id" TEXT NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "heartbeat_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "backend_pid" INTEGER,
    "backend_start" TIMESTAMPTZ(6),

    CONSTRAINT "webhook_workers_pkey" PRIMARY KEY ("id")
);
