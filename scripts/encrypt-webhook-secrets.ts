// npm run db:encrypt-secrets: the data step `npm start` runs after the migrations, alone (for
// deployments that migrate apart from starting, or right after changing WEBHOOK_SECRETS_KEY): encrypts
// plain webhook secrets and re-encrypts those under WEBHOOK_SECRETS_OLD_KEYS. Idempotent; safe while
// the service runs. Needs DATABASE_URL and WEBHOOK_SECRETS_KEY. Runs compiled (dist/, `npm run build`).
import { env, type Env } from '@/lib/env';
import { encryptSecretsAtStart } from '@/lib/webhooks/prepare-secrets-at-start';

let config: Env;
try {
  config = env();
} catch {
  process.exit(2); // env() has said what is wrong
}
if (!config.WEBHOOK_SECRETS_KEY) {
  console.error('db:encrypt-secrets needs DATABASE_URL and WEBHOOK_SECRETS_KEY');
  process.exit(2);
}
await encryptSecretsAtStart(config.DATABASE_URL);
