import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  buildKeyring,
  generateKey,
  keyId,
  openSecret,
  sealSecret,
  SecretUnavailableError,
  storedKeyId,
  decodeKey,
} from './secret-box';
import { ensureLocalSecretsKey } from './secrets-keyring';
import { defined } from '@/lib/test-support/defined';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwAbCdEfGhIjK=';

describe('sealSecret / openSecret', () => {
  it('stores no whsec_ text, names its key, and opens only with that key and for that endpoint', () => {
    const keyring = buildKeyring(generateKey());
    const stored = sealSecret(keyring, 'we_1', SECRET);
    expect(stored).not.toContain('whsec_');
    expect(stored).not.toContain(SECRET.slice(6, 20));
    expect(stored).toMatch(new RegExp(`^enc:v1:${keyring.current.id}:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]+$`));
    expect(storedKeyId(stored)).toBe(keyring.current.id);
    expect(openSecret(keyring, 'we_1', stored)).toBe(SECRET);

    // Another key: refused by id before any decryption.
    expect(() => openSecret(buildKeyring(generateKey()), 'we_1', stored)).toThrow(SecretUnavailableError);
    // The same ciphertext copied onto another endpoint does not open (the endpoint id is authenticated).
    expect(() => openSecret(keyring, 'we_2', stored)).toThrow(/does not decrypt/);
    // One flipped byte: refused.
    const parts = stored.split(':');
    const sealed = Buffer.from(defined(parts[4], 'the sealed part'), 'base64url');
    sealed[0] = defined(sealed[0], 'a byte') ^ 1;
    parts[4] = sealed.toString('base64url');
    expect(() => openSecret(keyring, 'we_1', parts.join(':'))).toThrow(/does not decrypt/);
  });

  it('encrypts the same secret differently each time (a fresh IV)', () => {
    const keyring = buildKeyring(generateKey());
    expect(sealSecret(keyring, 'we_1', SECRET)).not.toBe(sealSecret(keyring, 'we_1', SECRET));
  });

  it('opens secrets under an old key while new ones use the current key', () => {
    const oldKey = generateKey();
    const before = buildKeyring(oldKey);
    const stored = sealSecret(before, 'we_1', SECRET);
    const after = buildKeyring(generateKey(), [oldKey]);
    expect(openSecret(after, 'we_1', stored)).toBe(SECRET);
    expect(storedKeyId(sealSecret(after, 'we_1', SECRET))).toBe(after.current.id);
    expect(after.current.id).not.toBe(keyId(decodeKey(oldKey)!));
  });

  it('reads a plain whsec_ value as it is (until the data step converts it), and refuses anything else', () => {
    const keyring = buildKeyring(generateKey());
    expect(openSecret(keyring, 'we_1', SECRET)).toBe(SECRET);
    expect(() => openSecret(keyring, 'we_1', 'plaintext')).toThrow(/unknown format/);
    expect(() => openSecret(keyring, 'we_1', `enc:v1:${keyring.current.id}:x:y`)).toThrow(/malformed/);
  });

  it('accepts only base64 of exactly 32 bytes as a key', () => {
    expect(() => buildKeyring(Buffer.alloc(16).toString('base64'))).toThrow(/not base64 of 32 bytes/);
    expect(() => buildKeyring(generateKey(), ['nope'])).toThrow(/#1 of the old keys/);
    expect(decodeKey(generateKey())).toHaveLength(32);
  });
});

describe('ensureLocalSecretsKey', () => {
  it('makes a key on first start with mode 0600, and returns the same one afterwards', () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'wh-key-')), '.data');
    const first = ensureLocalSecretsKey(dir);
    expect(decodeKey(first)).toHaveLength(32);
    const file = path.join(dir, 'webhook-secrets.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(ensureLocalSecretsKey(dir)).toBe(first);
    expect(readFileSync(file, 'utf8').trim()).toBe(first);
  });

  it('refuses a key file that holds no key, rather than replacing it', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'wh-key-'));
    writeFileSync(path.join(dir, 'webhook-secrets.key'), 'garbage');
    expect(() => ensureLocalSecretsKey(dir)).toThrow(/does not hold a webhook secrets key/);
  });
});
