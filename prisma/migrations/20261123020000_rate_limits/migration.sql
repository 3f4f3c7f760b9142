-- The counters of lib/auth/limiters.ts: rate-limiter-flexible's RateLimiterPostgres table, in the
-- library's own layout (key, points, expire in epoch milliseconds), shared by every limiter that
-- several instances must agree on (keys are prefixed per limiter). The library deletes rows an hour
-- after they expire.
CREATE TABLE "rate_limits" (
    "key" VARCHAR(255) NOT NULL,
    "points" INTEGER NOT NULL DEFAULT 0,
    "expire" BIGINT,

    CONSTRAINT "rate_limits_pkey" PRIMARY KEY ("key")
);

CREATE INDEX "rate_limits_expire_idx" ON "rate_limits"("expire");
