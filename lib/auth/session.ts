import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { cookies } from 'next/headers';
import { cache } from 'react';
import { db } from '@/lib/db';
import { secureCookies } from '@/lib/auth/cookies';

// Server-side sessions. The cookie carries 32 random bytes; the database stores only their SHA-256,
// so a leaked sessions table cannot be replayed. Each session has its own CSRF token, which the portal
// layout hands to the page and lib/portal/fetcher.ts sends back as `x-csrf-token` on every mutation.
export const SESSION_COOKIE = 'carrier_session';
const SESSION_DAYS = 30;

export interface PortalSession {
  id: string;
  csrfToken: string;
  user: { id: string; email: string };
  account: { id: string; name: string };
}

function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Creates a session for a user and sets its cookie (route handlers and server actions only). */
export async function createSession(options: { userId: string }): Promise<void> {
  const secret = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + SESSION_DAYS * 24 * 3600 * 1000);
  // Expired sessions are never read again; a sign-in is a cheap moment to drop this user's.
  await db.session.deleteMany({ where: { userId: options.userId, expiresAt: { lt: new Date() } } });
  await db.session.create({
    data: { id: hashSecret(secret), userId: options.userId, csrfToken: randomBytes(32).toString('base64url'), expiresAt },
  });
  (await cookies()).set(SESSION_COOKIE, secret, {
    httpOnly: true,
    sameSite: 'lax',
    secure: secureCookies(),
    path: '/',
    expires: expiresAt,
  });
}

/** The signed-in user's session, or null. Cached per request. */
export const getSession = cache(async (): Promise<PortalSession | null> => {
  const secret = (await cookies()).get(SESSION_COOKIE)?.value;
  if (!secret || secret.length > 100) return null;
  const row = await db.session.findUnique({
    where: { id: hashSecret(secret) },
    select: {
      id: true,
      csrfToken: true,
      expiresAt: true,
      user: { select: { id: true, email: true, account: { select: { id: true, name: true } } } },
    },
  });
  if (!row || row.expiresAt.getTime() <= Date.now()) return null;
  return { id: row.id, csrfToken: row.csrfToken, user: { id: row.user.id, email: row.user.email }, account: row.user.account };
});

/** Deletes the current session row and its cookie. */
export async function destroySession(): Promise<void> {
  const store = await cookies();
  const secret = store.get(SESSION_COOKIE)?.value;
  if (secret) await db.session.deleteMany({ where: { id: hashSecret(secret) } });
  store.delete(SESSION_COOKIE);
}
