-- CreateTable
CREATE TABLE "pending_sign_ups" (
    "id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "company" TEXT NOT NULL,
    "password_hash" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "replaced_at" TIMESTAMPTZ(3),
    "requested_by" TEXT,

    CONSTRAINT "pending_sign_ups_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "pending_sign_ups_token_hash_key" ON "pending_sign_ups"("token_hash");

-- CreateIndex
CREATE INDEX "pending_sign_ups_email_idx" ON "pending_sign_ups"("email");
