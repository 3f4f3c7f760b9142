import 'server-only';
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

// Signing secrets are encrypted at rest (AES-256-GCM) so a database dump alone cannot forge webhooks. Stored as
// enc:v1:<key id>:<iv>:<ciphertext + tag>; the key id is the key's fingerprint, so a wrong key is recognised before
// decrypting. The endpoint id is the AAD: a ciphertext copied onto another endpoint does not open. Plain `whsec_`
// values still open until the start-up step (encrypt-stored-secrets.ts) converts them. Keys: docs/decisions/webhooks.md.

export const ENCRYPTED_PREFIX = 'enc:v1:';
const PLAIN_PREFIX = 'whsec_';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretUnavailableError';
  }
}

export interface Keyring {
  current: { id: string; key: Buffer };
  /** Every key that may decrypt, by id (the current one included). */
  byId: ReadonlyMap<string, Buffer>;
}

export function decodeKey(text: string): Buffer | null {
  const trimmed = text.trim();
  if (!/^[A-Za-z0-9+/]{43}=?$/.test(trimmed)) return null;
  const key = Buffer.from(trimmed, 'base64');
  return key.length === KEY_BYTES ? key : null;
}

export function keyId(key: Buffer): string {
  return createHash('sha256').update('carrier webhook secrets key\0').update(key).digest('hex').slice(0, 12);
}

/** A keyring from the current key and any older ones (base64 each). Throws on a malformed key. */
export function buildKeyring(currentKey: string, oldKeys: readonly string[] = []): Keyring {
  const decoded = [currentKey, ...oldKeys].map((text, index) => {
    const key = decodeKey(text);
    if (!key)
      throw new Error(`webhook secrets key ${index === 0 ? '(current)' : `#${index} of the old keys`} is not base64 of 32 bytes`);
    return key;
  });
  const byId = new Map(decoded.map((key) => [keyId(key), key] as const));
  const [current] = decoded;
  if (!current) throw new Error('webhook secrets key (current) is missing');
  return { current: { id: keyId(current), key: current }, byId };
}

/** What `openssl rand -base64 32` prints. */
export function generateKey(): string {
  return randomBytes(KEY_BYTES).toString('base64');
}

function aad(endpointId: string): Buffer {
  return Buffer.from(`webhook_endpoints:${endpointId}`, 'utf8');
}

export function sealSecret(keyring: Keyring, endpointId: string, secret: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyring.current.key, iv);
  cipher.setAAD(aad(endpointId));
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `${ENCRYPTED_PREFIX}${keyring.current.id}:${iv.toString('base64url')}:${sealed.toString('base64url')}`;
}

/** The key id a stored value is encrypted under; null for a plaintext value. */
export function storedKeyId(stored: string): string | null {
  if (!stored.startsWith(ENCRYPTED_PREFIX)) return null;
  return stored.slice(ENCRYPTED_PREFIX.length).split(':', 1)[0] ?? '';
}

/** The signing secret a stored value holds. Throws SecretUnavailableError when it cannot be opened. */
export function openSecret(keyring: Keyring, endpointId: string, stored: string): string {
  if (stored.startsWith(PLAIN_PREFIX)) return stored;
  if (!stored.startsWith(ENCRYPTED_PREFIX)) throw new SecretUnavailableError('the stored signing secret is in an unknown format');
  const [id, ivText, sealedText, ...rest] = stored.slice(ENCRYPTED_PREFIX.length).split(':');
  const key = id === undefined ? undefined : keyring.byId.get(id);
  if (!key) {
    throw new SecretUnavailableError(
      `the signing secret is encrypted under key ${id}, which is neither WEBHOOK_SECRETS_KEY nor one of WEBHOOK_SECRETS_OLD_KEYS`,
    );
  }
  const iv = Buffer.from(ivText ?? '', 'base64url');
  const sealed = Buffer.from(sealedText ?? '', 'base64url');
  if (rest.length > 0 || iv.length !== IV_BYTES || sealed.length <= TAG_BYTES) {
    throw new SecretUnavailableError('the stored signing secret is malformed');
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAAD(aad(endpointId));
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretUnavailableError(
      `the stored signing secret does not decrypt under key ${id} (altered, or another endpoint's)`,
    );
  }
}

/** The keyring of this process's environment (see webhookSecretsKeyring in secrets-keyring.ts). */
export function keyringFromEnvironment(environment: {
  WEBHOOK_SECRETS_KEY?: string;
  WEBHOOK_SECRETS_OLD_KEYS?: string;
}): Keyring | null {
  if (!environment.WEBHOOK_SECRETS_KEY) return null;
  const old = (environment.WEBHOOK_SECRETS_OLD_KEYS ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter(Boolean);
  return buildKeyring(environment.WEBHOOK_SECRETS_KEY, old);
}
