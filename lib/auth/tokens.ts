import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Environment } from '@/lib/generated/prisma/enums';

// Only a token's SHA-256 is stored: 256 random bits need no slow hash, and SHA-256 can be looked up by index.

export const TOKEN_PREFIX: Record<Environment, string> = { test: 'ck_test_', live: 'ck_live_' };
const TOKEN_FORMAT = /^ck_(test|live)_[A-Za-z0-9_-]{43}$/;

export function generateToken(environment: Environment): { token: string; hash: string; displayPrefix: string } {
  const token = TOKEN_PREFIX[environment] + randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token), displayPrefix: token.slice(0, TOKEN_PREFIX[environment].length + 4) };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function looksLikeToken(token: string): boolean {
  return TOKEN_FORMAT.test(token);
}

export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

// `Token <token>` as published; `Bearer <token>` too.
export function parseAuthorization(header: string | null): string | undefined {
  const match = header ? /^\s*(?:Token|Bearer)\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}
