import { createHash, randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { createApiToken } from '@/lib/accounts/create-api-token';
import { hashPassword } from '@/lib/auth/password';
import { db } from '@/lib/db';
import type { MemberRole } from '@/lib/generated/prisma/enums';
import { baseUrl, type TestAccount } from './api';

// A portal user for the API suite: signed up through POST /portal-api/auth/sign-up and its e-mail confirmed
// through the link mailed for it (read from the development outbox, which the suite's server keeps:
// global-setup.ts), with the session's cookie and CSRF token (what the portal layout publishes, read from its row)
// and a token per environment.

export interface Shipper extends TestAccount {
  cookie: string;
  csrf: string;
}

/** A random address in 198.18.0.0/15, so that no sign-up limit per address is reached by a suite. */
export const address = () => `198.18.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 254) + 1}`;

/**
 * The token of the newest sign-up link mailed to `email` after `after`, from the outbox table (the mail leaves
 * after the sign-up's answer: waited for). Only for a server with no SMTP_URL and the outbox on.
 */
export async function signUpTokenFromOutbox(email: string, options: { after?: Date; timeoutMs?: number } = {}): Promise<string> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  for (;;) {
    const mail = await db.outboxMail.findFirst({
      where: {
        to: email,
        subject: 'Confirm your e-mail to create your Carrier account',
        ...(options.after ? { createdAt: { gte: options.after } } : {}),
      },
      orderBy: { createdAt: 'desc' },
      select: { links: true },
    });
    const link = mail?.links.find((l) => new URL(l).pathname === '/verify-email');
    if (link) return new URL(link).searchParams.get('token')!;
    if (Date.now() > deadline) throw new Error(`no sign-up link mailed to ${email} in the outbox`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The one way the API suite signs up and is signed in: POST sign-up (202, "check your inbox"), the link from the
 * outbox, POST verify-email with its token (201 and the session's cookie). Returns the session's cookie.
 */
export async function signUpAndVerify(
  user: { company: string; email: string; password: string },
  options: { base?: string; from?: string } = {},
): Promise<string> {
  const base = options.base ?? baseUrl;
  const headers = { 'content-type': 'application/json', 'x-forwarded-for': options.from ?? address() };
  const asked = new Date(Date.now() - 1_000);
  const response = await fetch(`${base}/portal-api/auth/sign-up`, { method: 'POST', headers, body: JSON.stringify(user) });
  expect(response.status, await response.clone().text()).toBe(202);
  expect(response.headers.get('set-cookie')).toBeNull();
  const token = await signUpTokenFromOutbox(user.email.trim().toLowerCase(), { after: asked });
  const verified = await fetch(`${base}/portal-api/auth/verify-email`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ token }),
  });
  expect(verified.status, await verified.clone().text()).toBe(201);
  const cookie = /carrier_session=[^;]+/.exec(verified.headers.get('set-cookie') ?? '')?.[0];
  if (!cookie) throw new Error(`verify-email set no session cookie: ${verified.headers.get('set-cookie')}`);
  return cookie;
}

export async function signUp(label: string): Promise<Shipper> {
  const id = randomUUID().slice(0, 8);
  const cookie = await signUpAndVerify({
    company: `${label} ${id}`,
    email: `${label.toLowerCase()}-${id}@example.com`,
    password: `pw-${id}-correct-horse`,
  });
  const secret = decodeURIComponent(cookie.split('=')[1] ?? '');
  const row = await db.session.findUniqueOrThrow({
    where: { id: createHash('sha256').update(secret).digest('hex') },
    select: { csrfToken: true, accountId: true, account: { select: { name: true } } },
  });
  const accountId = row.accountId;
  const test = await createApiToken({ accountId, environment: 'test' });
  const live = await createApiToken({ accountId, environment: 'live' });
  return { cookie, csrf: row.csrfToken, accountId, name: row.account.name, tokens: { test: test.token, live: live.token } };
}

export interface PortalAnswer {
  status: number;
  headers: Headers;
  text: string;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- assertions read arbitrary fields
}

/**
 * One portal-api request as the portal's fetcher sends it: the session cookie (none for `who: null`), the CSRF
 * token (`csrf: null` leaves it out), the environment header (`env: null` leaves it out; test by default), and a
 * JSON body ('{}' for a mutation without one, `rawBody` as it is), and any other `headers`.
 */
export async function portalCall(
  who: Shipper | null,
  method: string,
  path: string,
  options: {
    env?: 'test' | 'live' | null;
    csrf?: string | null;
    body?: unknown;
    rawBody?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<PortalAnswer> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-forwarded-for': address(),
    ...options.headers,
  };
  if (who) headers.cookie = who.cookie;
  const csrf = options.csrf === undefined ? who?.csrf : options.csrf;
  if (csrf) headers['x-csrf-token'] = csrf;
  const env = options.env === undefined ? 'test' : options.env;
  if (env) headers['x-carrier-environment'] = env;
  const response = await fetch(baseUrl + path, {
    method,
    headers,
    body: options.rawBody ?? (options.body === undefined ? (method === 'GET' ? undefined : '{}') : JSON.stringify(options.body)),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** A member added to an account (addMember): signed in as a Shipper of that account, with their user and membership ids. */
export interface Member extends Shipper {
  userId: string;
  email: string;
  membershipId: string;
  role: MemberRole;
}

/**
 * A new user made a member of `account` with `role` directly in the database (users, memberships: what accepting an
 * invitation makes), then signed in through POST /portal-api/auth/sign-in, whose session acts for that account (their
 * only one). `signIn: false` leaves them signed out (cookie and csrf empty): a member only to be changed or removed.
 */
export async function addMember(
  account: TestAccount,
  role: MemberRole,
  options: { label?: string; signIn?: boolean } = {},
): Promise<Member> {
  const id = randomUUID().slice(0, 8);
  const email = `${(options.label ?? role).toLowerCase()}-${id}@example.com`;
  const password = `pw-${id}-member-horse`;
  const user = await db.user.create({ data: { email, passwordHash: await hashPassword(password) }, select: { id: true } });
  const membership = await db.membership.create({
    data: { accountId: account.accountId, userId: user.id, role },
    select: { id: true },
  });
  const member: Member = { ...account, cookie: '', csrf: '', userId: user.id, email, membershipId: membership.id, role };
  if (options.signIn === false) return member;
  const response = await fetch(`${baseUrl}/portal-api/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address() },
    body: JSON.stringify({ email, password }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  member.cookie = /carrier_session=[^;]+/.exec(response.headers.get('set-cookie') ?? '')?.[0] ?? '';
  const secret = decodeURIComponent(member.cookie.split('=')[1] ?? '');
  const row = await db.session.findUniqueOrThrow({
    where: { id: createHash('sha256').update(secret).digest('hex') },
    select: { csrfToken: true, accountId: true },
  });
  expect(row.accountId).toBe(account.accountId);
  member.csrf = row.csrfToken;
  return member;
}
