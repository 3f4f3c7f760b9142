import 'server-only';
import { chmodSync, linkSync, mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { env } from '@/lib/env';
import { buildKeyring, decodeKey, generateKey, keyringFromEnvironment, type Keyring } from './secret-box';

/** Where the embedded default keeps its key: beside the data directory, never in git (.data/ is ignored). */
export const LOCAL_KEY_FILE = 'webhook-secrets.key';

/**
 * The key of a machine without WEBHOOK_SECRETS_KEY, made on first start with mode 0600. Written aside and then
 * hard-linked into place, so processes starting at once all read the same key.
 */
export function ensureLocalSecretsKey(dataDir: string): string {
  const file = path.join(dataDir, LOCAL_KEY_FILE);
  const existing = readKeyFile(file);
  if (existing) return existing;
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const aside = `${file}.${process.pid}.${Date.now()}`;
  writeFileSync(aside, `${generateKey()}\n`, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(aside, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(aside);
  }
  const key = readKeyFile(file);
  if (!key) throw new Error(`${file} does not hold a webhook secrets key (base64 of 32 bytes)`);
  return key;
}

function readKeyFile(file: string): string | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  if (!decodeKey(text)) throw new Error(`${file} does not hold a webhook secrets key (base64 of 32 bytes)`);
  // Someone loosened it (a copy, an unpack): the key is as secret as the database's password.
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  return text.trim();
}

let cached: Keyring | undefined;

/** WEBHOOK_SECRETS_KEY, else (outside production) the local key file. */
export function webhookSecretsKeyring(): Keyring {
  if (cached) return cached;
  const settings = env();
  cached =
    keyringFromEnvironment(settings) ??
    buildKeyring(ensureLocalSecretsKey(path.resolve(process.cwd(), '.data')), oldKeys(settings.WEBHOOK_SECRETS_OLD_KEYS));
  return cached;
}

function oldKeys(list: string | undefined): string[] {
  return (list ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter(Boolean);
}
