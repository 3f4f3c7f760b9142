import { randomBytes } from 'node:crypto';

// Crockford base32: no I, L, O or U, so an id read aloud or retyped from paper survives.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

// Drawn from the CSPRNG a few kilobytes at a time, each byte handed out once (as randomUUID caches its entropy): a
// randomBytes() call per id cost microseconds on every accepted package.
const POOL_BYTES = 4096;
let pool: Buffer = Buffer.alloc(0);
let offset = 0;

function randomPart(length: number): Buffer {
  if (offset + length > pool.length) {
    pool = randomBytes(POOL_BYTES);
    offset = 0;
  }
  offset += length;
  return pool.subarray(offset - length, offset);
}

function base32(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

export function newManifestId(): string {
  return `MAN-${base32(randomPart(10))}`;
}

export function newId(prefix: 'we' | 'msg' | 'evt'): string {
  return `${prefix}_${base32(randomPart(15)).toLowerCase()}`;
}
