import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { cookies } from 'next/headers';
import { cache } from 'react';
import { db } from '@/lib/db';
import { secureCookies } from '@/lib/auth/cookies';
import { AppError } from '@/lib/errors/app-error';
import type { MemberRole } from '@/lib/generated/prisma/enums';

// The cookie carries 32 random bytes and the database only their SHA-256, so a leaked sessions table cannot be replayed.
// Each session has its own CSRF token, which lib/portal/fetcher.ts sends back as `x-csrf-token`.
export const SESSION_COOKIE = 'carrier_session';
const SESSION_DAYS = 30;

export interface PortalSession {
  id: string;
  publicId: string;
  csrfToken: string;
  user: { id: string; email: string };
  account: { id: string; name: string };
  role: MemberRole;
}

function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export interface SessionClient {
  address: string;
  userAgent: string | null;
}

// Written at most this often, so a busy page costs no write per request.
const LAST_SEEN_EVERY_MS = 5 * 60_000;

// Acts for `accountId` when given (the user must be a member), else for the account the user joined first.
export async function createSession(options: {
  userId: string;
  accountId?: string;
  client?: SessionClient;
}): Promise<{ accountId: string }> {
  const membership = await db.membership.findFirst({
    where: { userId: options.userId, ...(options.accountId ? { accountId: options.accountId } : {}) },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: { accountId: true },
  });
  if (!membership) {
    throw new AppError('forbidden', 'This user is not a member of any account. Ask an owner or admin for an invitation.');
  }
  const secret = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + SESSION_DAYS * 24 * 3600 * 1000);
  // Expired sessions are never read again; a sign-in is a cheap moment to drop this user's.
  await db.session.deleteMany({ where: { userId: options.userId, expiresAt: { lt: new Date() } } });
  await db.session.create({
    data: {
      id: hashSecret(secret),
      userId: options.userId,
      accountId: membership.accountId,
      csrfToken: randomBytes(32).toString('base64url'),
      expiresAt,
      lastSeenAt: new Date(),
      userAgent: options.client?.userAgent?.slice(0, 300) ?? null,
      address: options.client?.address ?? null,
    },
  });
  (await cookies()).set(SESSION_COOKIE, secret, {
    httpOnly: true,
    sameSite: 'lax',
    secure: secureCookies(),
    path: '/',
    expires: expiresAt,
  });
  return { accountId: membership.accountId };
}

export const getSession = cache(async (): Promise<PortalSession | null> => {
  const secret = (await cookies()).get(SESSION_COOKIE)?.value;
  if (!secret || secret.length > 100) return null;
  const row = await db.session.findUnique({
    where: { id: hashSecret(secret) },
    select: {
      id: true,
      publicId: true,
      csrfToken: true,
      expiresAt: true,
      lastSeenAt: true,
      user: { select: { id: true, email: true } },
      account: { select: { id: true, name: true } },
    },
  });
  if (!row || row.expiresAt.getTime() <= Date.now()) return null;
  // Read on every request, so a role change or a removal takes effect at once.
  const membership = await db.membership.findUnique({
    where: { accountId_userId: { accountId: row.account.id, userId: row.user.id } },
    select: { role: true },
  });
  if (!membership) return null;
  if (!row.lastSeenAt || Date.now() - row.lastSeenAt.getTime() > LAST_SEEN_EVERY_MS) {
    await db.session.updateMany({ where: { id: row.id }, data: { lastSeenAt: new Date() } }).catch(() => undefined);
  }
  return {
    id: row.id,
    publicId: row.publicId,
    csrfToken: row.csrfToken,
    user: { id: row.user.id, email: row.user.email },
    account: row.account,
    role: membership.role,
  };
});

export async function destroySession(): Promise<void> {
  const store = await cookies();
  const secret = store.get(SESSION_COOKIE)?.value;
  if (secret) await db.session.deleteMany({ where: { id: hashSecret(secret) } });
  store.delete(SESSION_COOKIE);
}

export async function listSessions(options: { userId: string; currentId: string }) {
  const rows = await db.session.findMany({
    where: { userId: options.userId, expiresAt: { gt: new Date() } },
    orderBy: { createdAt: 'desc' },
    select: { id: true, publicId: true, createdAt: true, lastSeenAt: true, expiresAt: true, userAgent: true, address: true },
  });
  return rows.map(({ id, ...row }) => ({ ...row, current: id === options.currentId }));
}

export async function clearSessionCookie(): Promise<void> {
  (await cookies()).delete(SESSION_COOKIE);
}

// Null when the user is not a member of `accountId`: the caller answers 404, as for any other account's id.
export async function switchSessionAccount(options: {
  sessionId: string;
  userId: string;
  accountId: string;
}): Promise<{ account: { id: string; name: string }; role: MemberRole } | null> {
  const membership = await db.membership.findUnique({
    where: { accountId_userId: { accountId: options.accountId, userId: options.userId } },
    select: { role: true, account: { select: { id: true, name: true } } },
  });
  if (!membership) return null;
  await db.session.update({ where: { id: options.sessionId }, data: { accountId: options.accountId } });
  return { account: membership.account, role: membership.role };
}

export async function listUserAccounts(options: { userId: string; currentAccountId: string }) {
  const rows = await db.membership.findMany({
    where: { userId: options.userId },
    select: { role: true, account: { select: { id: true, name: true } } },
    orderBy: { account: { name: 'asc' } },
  });
  return rows.map((row) => ({
    id: row.account.id,
    name: row.account.name,
    role: row.role,
    current: row.account.id === options.currentAccountId,
  }));
}
