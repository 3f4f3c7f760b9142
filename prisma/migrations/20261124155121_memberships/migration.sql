-- Members and roles (issue 18, docs/decisions/teams.md). A user was one account's; now a user has memberships,
-- one per account, each with a role. Every existing user becomes the owner of the account they signed up with,
-- and every existing session acts for that account, so nobody is signed out and nobody loses access.

-- CreateEnum
CREATE TYPE "MemberRole" AS ENUM ('owner', 'admin', 'developer', 'operator', 'viewer');

-- CreateTable
CREATE TABLE "memberships" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "role" "MemberRole" NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "memberships_pkey" PRIMARY KEY ("id")
);

INSERT INTO "memberships" ("id", "account_id", "user_id", "role", "created_at")
SELECT gen_random_uuid(), "account_id", "id", 'owner', "created_at" FROM "users";

-- AlterTable: sessions act for the account their user had.
ALTER TABLE "sessions" ADD COLUMN "account_id" UUID;
UPDATE "sessions" SET "account_id" = "users"."account_id" FROM "users" WHERE "users"."id" = "sessions"."user_id";
ALTER TABLE "sessions" ALTER COLUMN "account_id" SET NOT NULL;

-- DropForeignKey
ALTER TABLE "users" DROP CONSTRAINT "users_account_id_fkey";

-- DropIndex
DROP INDEX "users_account_id_idx";

-- AlterTable
ALTER TABLE "users" DROP COLUMN "account_id";

-- CreateIndex
CREATE INDEX "memberships_user_id_idx" ON "memberships"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "memberships_account_id_user_id_key" ON "memberships"("account_id", "user_id");

-- CreateIndex
CREATE INDEX "sessions_account_id_user_id_idx" ON "sessions"("account_id", "user_id");

-- AddForeignKey
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
