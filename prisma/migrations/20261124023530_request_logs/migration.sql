-- CreateTable
CREATE TABLE "request_logs" (
    "id" BIGSERIAL NOT NULL,
    "request_id" TEXT NOT NULL,
    "account_id" UUID NOT NULL,
    "environment" "Environment" NOT NULL,
    "source" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "query" TEXT NOT NULL DEFAULT '',
    "status" INTEGER NOT NULL,
    "duration_ms" INTEGER NOT NULL,
    "token_id" UUID,
    "user_id" UUID,
    "client_address" TEXT,
    "user_agent" TEXT,
    "request_body" TEXT,
    "request_bytes" INTEGER NOT NULL DEFAULT 0,
    "response_body" TEXT,
    "response_bytes" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "request_logs_pkey" PRIMARY KEY ("account_id","environment","created_at","id")
);

-- CreateIndex
CREATE INDEX "request_logs_request_id_idx" ON "request_logs" USING HASH ("request_id");

-- CreateIndex
CREATE INDEX "request_logs_created_brin" ON "request_logs" USING BRIN ("created_at");

-- Written by hand (Prisma cannot declare a partial index): the Logs page's "errors" filter (status 400 and up) walks
-- only the errors, newest first, however many successful requests an account makes.
CREATE INDEX "request_logs_account_env_errors_idx" ON "request_logs"("account_id", "environment", "created_at", "id") WHERE "status" >= 400;
