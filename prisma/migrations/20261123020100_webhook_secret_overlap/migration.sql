-- Rotation with overlap: after a rotation the previous signing secret keeps signing (a second `v1,`
-- signature) until previous_secret_expires_at. Both columns hold secrets encrypted like "secret"
-- (lib/webhooks/secret-box.ts). Existing plain `whsec_…` values are encrypted by the data step that
-- `npm start` runs after the migrations (lib/webhooks/encrypt-stored-secrets.ts): SQL has no
-- access to the application's key. Until then they are read as they are.
-- AlterTable
ALTER TABLE "webhook_endpoints" ADD COLUMN     "previous_secret" TEXT,
ADD COLUMN     "previous_secret_expires_at" TIMESTAMPTZ(3);
