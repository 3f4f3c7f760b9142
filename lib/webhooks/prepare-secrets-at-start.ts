import 'server-only';
import { encryptStoredSecrets } from './encrypt-stored-secrets';
import { keyringFromEnvironment } from './secret-box';
import { ensureLocalSecretsKey } from './secrets-keyring';

// Reads process.env directly: lib/env.ts is parsed once, and the server sets NODE_ENV after this runs.

/**
 * Production on its own database must be given WEBHOOK_SECRETS_KEY: a key made up here would be lost with the
 * machine, and every stored secret with it. Returns the reason to refuse to start, or null.
 */
export function ensureWebhookSecretsKey(options: { embedded: boolean; production: boolean; dataDir: string }): string | null {
  if (process.env.WEBHOOK_SECRETS_KEY) return null;
  if (options.production && !options.embedded) {
    return 'WEBHOOK_SECRETS_KEY is not set: in production with DATABASE_URL give the key webhook secrets are encrypted under (base64 of 32 random bytes: `openssl rand -base64 32`), the same on every instance.';
  }
  process.env.WEBHOOK_SECRETS_KEY = ensureLocalSecretsKey(options.dataDir);
  return null;
}

/** The data step after the migrations: encrypt plain secrets, move old-key ones to the current key. */
export async function encryptSecretsAtStart(databaseUrl: string): Promise<void> {
  const { WEBHOOK_SECRETS_KEY, WEBHOOK_SECRETS_OLD_KEYS } = process.env;
  const keyring = keyringFromEnvironment({ WEBHOOK_SECRETS_KEY, WEBHOOK_SECRETS_OLD_KEYS });
  if (!keyring) throw new Error('WEBHOOK_SECRETS_KEY is not set');
  const { converted, unreadable } = await encryptStoredSecrets({ databaseUrl, keyring });
  if (converted > 0) console.log(`webhook secrets: ${converted} encrypted under key ${keyring.current.id}`);
  if (unreadable.length > 0) {
    console.warn(
      `webhook secrets: ${unreadable.length} cannot be opened with WEBHOOK_SECRETS_KEY or WEBHOOK_SECRETS_OLD_KEYS and were left as they are: ${unreadable.slice(0, 5).join(', ')}`,
    );
  }
}
