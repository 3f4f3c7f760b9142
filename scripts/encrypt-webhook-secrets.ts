// npm run db:encrypt-secrets: the data step `npm start` runs after the migrations, alone (for
// deployments that migrate apart from starting, or right after changing WEBHOOK_SECRETS_KEY): encrypts
// plain webhook secrets and re-encrypts those under WEBHOOK_SECRETS_OLD_KEYS. Idempotent; safe while
// the service runs. Needs DATABASE_URL and WEBHOOK_SECRETS_KEY.
import { encryptSecretsAtStart } from '@/lib/webhooks/prepare-secrets-at-start';

if (!process.env.DATABASE_URL || !process.env.WEBHOOK_SECRETS_KEY) {
  console.error('db:encrypt-secrets needs DATABASE_URL and WEBHOOK_SECRETS_KEY');
  process.exit(2);
}
await encryptSecretsAtStart(process.env.DATABASE_URL);
