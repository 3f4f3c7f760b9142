import { createHash, randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { createApiToken } from '@/lib/accounts/create-api-token';
import { db } from '@/lib/db';
import { baseUrl, type TestAccount } from './api';

// A portal user for the API suite: signed up through POST /portal-api/auth/sign-up, with the session's
// cookie and CSRF token (what the portal layout publishes, read from its row) and a token per environment.

export interface Shipper extends TestAccount {
  cookie: string;
  csrf: string;
}

/** A random address in 198.18.0.0/15, so that no sign-up limit per address is reached by a suite. */
export const address = () => `198.18.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 254) + 1}`;

export async function signUp(label: string): Promise<Shipper> {
  const id = randomUUID().slice(0, 8);
  const response = await fetch(`${baseUrl}/portal-api/auth/sign-up`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address() },
    body: JSON.stringify({ company: `${label} ${id}`, email: `${label.toLowerCase()}-${id}@example.com`, password: `pw-${id}-correct-horse` }),
  });
  expect(response.status, await response.clone().text()).toBe(201);
  const cookie = /carrier_session=[^;]+/.exec(response.headers.get('set-cookie') ?? '')?.[0] ?? '';
  const secret = decodeURIComponent(cookie.split('=')[1] ?? '');
  const row = await db.session.findUniqueOrThrow({
    where: { id: createHash('sha256').update(secret).digest('hex') },
    select: { csrfToken: true, user: { select: { accountId: true, account: { select: { name: true } } } } },
  });
  const accountId = row.user.accountId;
  const test = await createApiToken({ accountId, environment: 'test' });
  const live = await createApiToken({ accountId, environment: 'live' });
  return { cookie, csrf: row.csrfToken, accountId, name: row.user.account.name, tokens: { test: test.token, live: live.token } };
}
