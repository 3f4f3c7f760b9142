import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { freshClientAddress } from './support/api';
import { startMailServer, type MailServer, type Received } from './support/mail-server';
import type { AppProcess } from './support/spawn';

// Sign-up with e-mail verification, through a server of this file's own whose SMTP_URL points at a real
// SMTP receiver (smtp-server) started here, as e2e/api/mail-reset.test.ts does: the tests read the mail it receives
// and follow its links. docs/decisions/portal-auth.md, "Sign-up verification".

let mail: MailServer;
let inbox: Received[];
let app: AppProcess;
let appUrl: string;
const PER_EMAIL = 4;
const PER_ADDRESS = 6;
const LINK_MAIL = /Confirm your e-mail to create your Carrier account/;
const KNOWN_MAIL = /Someone tried to sign up with your Carrier address/;

let addressCounter = 0;
/** A client address of its own for each request (the server trusts 127.0.0.1 as the proxy that names it). */
const freshAddress = () => `198.51.${100 + Math.floor(addressCounter / 250)}.${(addressCounter++ % 250) + 1}`;

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(appUrl + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': freshAddress(), ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: text ? JSON.parse(text) : undefined };
}

async function page(pathAndQuery: string) {
  const response = await fetch(appUrl + pathAndQuery);
  return { status: response.status, text: await response.text() };
}

const mailTo = (to: string, subject: RegExp, after = 0) => mail.mailTo(to, subject, after);

const verifyLink = (received: Received) => mail.linkIn(received, '/verify-email');

const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
const pathOf = (link: string) => new URL(link).pathname + new URL(link).search;
const cookieOf = (headers: Headers) => /carrier_session=[^;]+/.exec(headers.get('set-cookie') ?? '')?.[0] ?? '';

function newUser(label: string) {
  const id = randomUUID().slice(0, 8);
  return { company: `${label} ${id}`, email: `${label.toLowerCase()}-${id}@example.com`, password: `pw-${id}-correct-horse` };
}

/** Signs up and returns the link mailed for it. */
async function signUpForLink(user: { company: string; email: string; password: string }): Promise<string> {
  const before = inbox.length;
  const asked = await post('/portal-api/auth/sign-up', user);
  expect(asked.status, asked.text).toBe(202);
  return verifyLink(await mailTo(user.email, LINK_MAIL, before));
}

/** Signs up and follows the link: an account of this e-mail exists afterwards. */
async function signUpAndVerify(user: { company: string; email: string; password: string }) {
  const verified = await post('/portal-api/auth/verify-email', { token: tokenOf(await signUpForLink(user)) });
  expect(verified.status, verified.text).toBe(201);
  return cookieOf(verified.headers);
}

async function session(cookie: string) {
  const response = await fetch(`${appUrl}/portal-api/session`, { headers: { cookie, 'x-carrier-environment': 'test' } });
  const text = await response.text();
  return { status: response.status, json: response.status === 200 ? JSON.parse(text) : undefined };
}

const usersOf = (email: string) => db.user.count({ where: { email: { equals: email, mode: 'insensitive' } } });
const accountsNamed = (name: string) => db.account.count({ where: { name: { equals: name, mode: 'insensitive' } } });

beforeAll(async () => {
  mail = await startMailServer({
    name: 'sign-up mail server',
    env: {
      MAIL_REQUESTS_PER_EMAIL_PER_HOUR: String(PER_EMAIL),
      MAIL_REQUESTS_PER_ADDRESS_PER_HOUR: String(PER_ADDRESS),
    },
  });
  ({ app, appUrl, inbox } = mail);
});

afterAll(async () => {
  await mail?.stop();
  expect(app?.unexpected ?? []).toEqual([]);
});

describe('sign-up with e-mail verification', () => {
  it('a new e-mail: "check your inbox", a mail with a link; opening it creates nothing; confirming signs in as owner', async () => {
    const user = newUser('Fresh');
    const before = inbox.length;
    const asked = await post('/portal-api/auth/sign-up', user);
    expect(asked.status, asked.text).toBe(202);
    expect(asked.json).toEqual({ ok: true, message: expect.stringContaining('Check your inbox') });
    expect(asked.headers.get('set-cookie')).toBeNull();
    // Nothing exists yet.
    expect(await usersOf(user.email)).toBe(0);
    expect(await accountsNamed(user.company)).toBe(0);

    const mail = await mailTo(user.email, LINK_MAIL, before);
    expect(mail.raw).toMatch(/^From: Carrier <no-reply@carrier\.test>/m);
    expect(mail.raw).toMatch(/Content-Type: text\/plain/);
    expect(mail.raw).toMatch(/Content-Type: text\/html/);
    expect(mail.text).toContain('within 24 hours');
    // Nothing the signer typed reaches the inbox of an address not yet proved theirs.
    expect(mail.text).not.toContain(user.company);
    const link = verifyLink(mail);
    expect(link.startsWith(`${appUrl}/verify-email?token=`)).toBe(true);
    // Only the token's hash is stored, with the rest of the sign-up, for 24 hours.
    expect(await db.pendingSignUp.count({ where: { tokenHash: tokenOf(link) } })).toBe(0);
    const row = await db.pendingSignUp.findFirstOrThrow({ where: { email: user.email } });
    expect(row).toMatchObject({ company: user.company, usedAt: null, replacedAt: null });
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(24 * 3_600_000);

    // Opening the link (as a mail scanner would) shows what it will create, and creates nothing.
    const opened = await fetch(link);
    expect(opened.status).toBe(200);
    const html = await opened.text();
    expect(html).toContain('Create your account');
    expect(html).toContain(user.email);
    expect(html).toContain(user.company);
    expect(html).toContain('no-referrer');
    expect(await usersOf(user.email)).toBe(0);

    const verified = await post('/portal-api/auth/verify-email', { token: tokenOf(link) });
    expect(verified.status, verified.text).toBe(201);
    expect(verified.json).toEqual({ ok: true });
    const cookie = cookieOf(verified.headers);
    expect(cookie).not.toBe('');
    const who = await session(cookie);
    expect(who.status).toBe(200);
    expect(who.json).toMatchObject({ user: { email: user.email }, account: { name: user.company } });
    const membership = await db.membership.findFirstOrThrow({ where: { user: { email: user.email } }, select: { role: true } });
    expect(membership.role).toBe('owner');
    // The password chosen at sign-up signs in.
    expect((await post('/portal-api/auth/sign-in', { email: user.email, password: user.password })).status).toBe(200);
  });

  it('a known e-mail gets the same answer, and a mail saying what happened; nothing is created', async () => {
    const owner = newUser('Known');
    await signUpAndVerify(owner);
    const attempt = { ...newUser('Intruder'), email: owner.email };
    const fresh = newUser('Stranger');
    const before = inbox.length;
    const known = await post('/portal-api/auth/sign-up', attempt);
    const unknown = await post('/portal-api/auth/sign-up', fresh);
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    // The same body, byte for byte, and the same headers but for the values that differ on every answer.
    expect(known.text).toBe(unknown.text);
    const shape = (headers: Headers) => [...headers.keys()].filter((k) => !['date'].includes(k)).sort();
    expect(shape(known.headers)).toEqual(shape(unknown.headers));
    for (const name of ['content-type', 'cache-control', 'content-length'])
      expect(known.headers.get(name)).toBe(unknown.headers.get(name));
    expect(known.headers.get('set-cookie')).toBeNull();

    const notice = await mailTo(owner.email, KNOWN_MAIL, before);
    expect(notice.text).toContain('You already have an account, so nothing was created');
    expect(notice.text).toContain(`${appUrl}/sign-in`);
    expect(notice.text).toContain(`${appUrl}/forgot-password`);
    expect(notice.text).not.toMatch(/verify-email/);
    expect(notice.text).not.toContain(attempt.company);
    await mailTo(fresh.email, LINK_MAIL, before);
    expect(await accountsNamed(attempt.company)).toBe(0);
    expect(await usersOf(owner.email)).toBe(1);
    // No pending sign-up that could ever create an account for it.
    expect(await db.pendingSignUp.count({ where: { email: owner.email, usedAt: null, replacedAt: null } })).toBe(0);
    // The owner's password is unchanged.
    expect((await post('/portal-api/auth/sign-in', { email: owner.email, password: owner.password })).status).toBe(200);
  });

  it('a case variant of a known e-mail counts as known', async () => {
    const owner = newUser('Cased');
    await signUpAndVerify(owner);
    const variant = `  ${owner.email.toUpperCase().replace('@EXAMPLE.COM', '@Example.Com')} `;
    const before = inbox.length;
    const answer = await post('/portal-api/auth/sign-up', { ...newUser('Variant'), email: variant });
    expect(answer.status, answer.text).toBe(202);
    await mailTo(owner.email, KNOWN_MAIL, before);
    expect(inbox.slice(before).some((m) => LINK_MAIL.test(m.text))).toBe(false);
    expect(await usersOf(owner.email)).toBe(1);
  });

  it('takes about as long for a known e-mail as for a new one', async () => {
    const owner = newUser('Timing');
    await signUpAndVerify(owner);
    const timed = async (email: string) => {
      const started = performance.now();
      const answer = await post('/portal-api/auth/sign-up', { ...newUser('Timed'), email });
      expect(answer.status, answer.text).toBe(202);
      return performance.now() - started;
    };
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const knownTimes: number[] = [];
    const newTimes: number[] = [];
    // The owner's e-mail has PER_EMAIL mails an hour; its sign-up above spent one.
    for (let i = 0; i < PER_EMAIL - 1; i++) {
      knownTimes.push(await timed(owner.email));
      newTimes.push(await timed(`timing-${i}-${randomBytes(4).toString('hex')}@example.com`));
    }
    // Both hash the password and make the same writes; the mail leaves after the answer.
    expect(Math.abs(median(knownTimes) - median(newTimes))).toBeLessThan(100);
  });

  it('a link works once: again, the endpoint refuses it and the page says so', async () => {
    const user = newUser('Reuse');
    const link = await signUpForLink(user);
    expect((await post('/portal-api/auth/verify-email', { token: tokenOf(link) })).status).toBe(201);
    const again = await post('/portal-api/auth/verify-email', { token: tokenOf(link) });
    expect(again.status, again.text).toBe(422);
    expect(again.json.error.code).toBe('validation_failed');
    expect(again.json.error.details).toEqual([{ path: 'token', message: expect.stringContaining('already been used') }]);
    expect(again.headers.get('set-cookie')).toBeNull();
    const reopened = await page(pathOf(link));
    expect(reopened.status).toBe(200);
    expect(reopened.text).toContain('already been used');
    expect(reopened.text).not.toContain('Confirm and create account');
    expect(await usersOf(user.email)).toBe(1);
  });

  it('an expired link: a clear page, a 422 on token, and no account', async () => {
    const user = newUser('Expired');
    const link = await signUpForLink(user);
    await db.pendingSignUp.updateMany({ where: { email: user.email }, data: { expiresAt: new Date(Date.now() - 60_000) } });
    const opened = await page(pathOf(link));
    expect(opened.status).toBe(200);
    expect(opened.text).toContain('This link cannot be used');
    expect(opened.text).toContain('has expired');
    const used = await post('/portal-api/auth/verify-email', { token: tokenOf(link) });
    expect(used.status, used.text).toBe(422);
    expect(used.json.error.details).toEqual([{ path: 'token', message: expect.stringContaining('has expired') }]);
    expect(await usersOf(user.email)).toBe(0);
    expect(await accountsNamed(user.company)).toBe(0);
  });

  it('the latest link wins: signing up again voids the older link', async () => {
    const user = newUser('Twice');
    const first = await signUpForLink(user);
    const second = await signUpForLink({ ...user, company: `${user.company} B` });
    expect(tokenOf(first)).not.toBe(tokenOf(second));
    const old = await post('/portal-api/auth/verify-email', { token: tokenOf(first) });
    expect(old.status, old.text).toBe(422);
    expect(old.json.error.details[0].message).toContain('replaced by a newer one');
    expect((await page(pathOf(first))).text).toContain('replaced by a newer one');
    const latest = await post('/portal-api/auth/verify-email', { token: tokenOf(second) });
    expect(latest.status, latest.text).toBe(201);
    expect((await session(cookieOf(latest.headers))).json.account.name).toBe(`${user.company} B`);
    expect(await accountsNamed(user.company)).toBe(0);
  });

  it('two requests racing with one link make one account', async () => {
    const user = newUser('Race');
    const token = tokenOf(await signUpForLink(user));
    const answers = await Promise.all(Array.from({ length: 6 }, () => post('/portal-api/auth/verify-email', { token })));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses, answers.map((a) => a.text).join('\n')).toEqual([201, 422, 422, 422, 422, 422]);
    expect(answers.filter((a) => cookieOf(a.headers) !== '')).toHaveLength(1);
    expect(await usersOf(user.email)).toBe(1);
    expect(await accountsNamed(user.company)).toBe(1);
    expect(await db.membership.count({ where: { user: { email: user.email } } })).toBe(1);
  });

  it('a company name taken meanwhile: the page asks for another, and the link still works', async () => {
    const slow = newUser('Meanwhile');
    const fast = { ...newUser('Quick'), company: slow.company.toUpperCase() };
    const slowLink = await signUpForLink(slow);
    // Not yet taken when the second signs up: both are pending; the first to confirm gets the name.
    await signUpAndVerify(fast);
    const opened = await page(pathOf(slowLink));
    expect(opened.status).toBe(200);
    expect(opened.text).toContain('Choose another name: your link');
    const refused = await post('/portal-api/auth/verify-email', { token: tokenOf(slowLink) });
    expect(refused.status, refused.text).toBe(409);
    expect(refused.json.error.details).toEqual([
      { path: 'company', message: expect.stringContaining('company name already exists') },
    ]);
    expect(await usersOf(slow.email)).toBe(0);
    // Another name that is taken too, then a free one: the same link.
    const stillTaken = await post('/portal-api/auth/verify-email', {
      token: tokenOf(slowLink),
      company: fast.company.toLowerCase(),
    });
    expect(stillTaken.status).toBe(409);
    const renamed = await post('/portal-api/auth/verify-email', { token: tokenOf(slowLink), company: `${slow.company} Two` });
    expect(renamed.status, renamed.text).toBe(201);
    expect((await session(cookieOf(renamed.headers))).json).toMatchObject({
      user: { email: slow.email },
      account: { name: `${slow.company} Two` },
    });
  });

  it('an e-mail that got an account meanwhile (an invitation, say): 409 on email, and the link is spent', async () => {
    const user = newUser('Invited');
    const link = await signUpForLink(user);
    await db.user.create({ data: { email: user.email, passwordHash: 'x' } });
    expect((await page(pathOf(link))).text).toContain('An account for this e-mail already exists');
    const answer = await post('/portal-api/auth/verify-email', { token: tokenOf(link) });
    expect(answer.status, answer.text).toBe(409);
    expect(answer.json.error.details[0].path).toBe('email');
    expect(await accountsNamed(user.company)).toBe(0);
    expect((await post('/portal-api/auth/verify-email', { token: tokenOf(link) })).status).toBe(422);
  });

  it('builds links from APP_URL, never from the Host a client sends', async () => {
    const user = newUser('Poison');
    const before = inbox.length;
    const asked = await post('/portal-api/auth/sign-up', user, {
      'x-forwarded-host': 'evil.example',
      'x-forwarded-proto': 'https',
    });
    expect(asked.status).toBe(202);
    const mail = await mailTo(user.email, LINK_MAIL, before);
    expect(mail.text).not.toContain('evil.example');
    expect(verifyLink(mail).startsWith(appUrl)).toBe(true);
  });

  const NUL = 'a\u0000b';
  const LONE = 'a\ud800b';
  const LONG = 'x'.repeat(5_000);
  it.each(
    (['company', 'email', 'password'] as const).flatMap((field) => [
      [`sign-up, NUL in ${field}`, field, NUL] as const,
      [`sign-up, a lone surrogate in ${field}`, field, LONE] as const,
      [`sign-up, 5,000 characters of ${field}`, field, LONG] as const,
    ]),
  )('%s: 422 naming the field, and no mail', async (_name, field, bad) => {
    const user = newUser('Bad');
    const before = inbox.length;
    const value = field === 'email' && bad === LONG ? `${LONG}@example.com` : `${user[field]}${bad}`;
    const answer = await post('/portal-api/auth/sign-up', { ...user, [field]: value });
    expect(answer.status, answer.text).toBe(422);
    expect(answer.json.error.code).toBe('validation_failed');
    expect(answer.json.error.details.map((d: { path: string }) => d.path)).toEqual([field]);
    await new Promise((r) => setTimeout(r, 300));
    expect(inbox.slice(before).filter((m) => m.to.includes(user.email))).toEqual([]);
  });

  it.each([
    ['no token', {}, 'token'],
    ['a malformed token', { token: 'abc' }, 'token'],
    ['NUL in the token', { token: `${'A'.repeat(42)}\u0000` }, 'token'],
    ['a 5,000-character token', { token: LONG }, 'token'],
    ['a lone surrogate in the company', { token: 'A'.repeat(43), company: LONE }, 'company'],
    ['NUL in the company', { token: 'A'.repeat(43), company: NUL }, 'company'],
    ['a 5,000-character company', { token: 'A'.repeat(43), company: LONG }, 'company'],
  ])('verify-email refuses %s with a 422 naming the field', async (_name, body, path) => {
    const answer = await post('/portal-api/auth/verify-email', body);
    expect(answer.status, answer.text).toBe(422);
    expect(answer.json.error.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('a token nobody issued: 422 on token; the page says the link is not valid (never a 5xx)', async () => {
    const answer = await post('/portal-api/auth/verify-email', { token: randomBytes(32).toString('base64url') });
    expect(answer.status).toBe(422);
    expect(answer.json.error.details[0]).toEqual({ path: 'token', message: expect.stringContaining('not a valid sign-up link') });
    for (const query of [
      '',
      '?token=abc',
      `?token=${randomBytes(32).toString('base64url')}`,
      `?token=${'A'.repeat(10_000)}`,
      '?token=%00',
      '?token=a&token=b',
    ]) {
      const opened = await page(`/verify-email${query}`);
      expect(opened.status, query).toBe(200);
      expect(opened.text).toContain('not a valid sign-up link');
    }
  });

  it('refuses a cross-site request and a non-JSON body', async () => {
    for (const path of ['/portal-api/auth/sign-up', '/portal-api/auth/verify-email']) {
      const foreign = await post(path, { ...newUser('Csrf'), token: 'A'.repeat(43) }, { origin: 'https://evil.example' });
      expect(foreign.status).toBe(403);
      const form = await fetch(appUrl + path, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': freshAddress() },
        body: 'token=x',
      });
      expect(form.status).toBe(415);
    }
  });
});

describe('sign-up rate limits', () => {
  it('per e-mail: a new and a known e-mail alike, then 429 with Retry-After', async () => {
    const fresh = newUser('Bombed');
    for (let i = 0; i < PER_EMAIL; i++)
      expect((await post('/portal-api/auth/sign-up', { ...newUser('Bomb'), email: fresh.email })).status).toBe(202);
    const refused = await post('/portal-api/auth/sign-up', { ...newUser('Bomb'), email: fresh.email });
    expect(refused.status, refused.text).toBe(429);
    expect(refused.json.error.code).toBe('rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);

    const owner = newUser('KnownBombed');
    await signUpAndVerify(owner);
    for (let i = 1; i < PER_EMAIL; i++)
      expect((await post('/portal-api/auth/sign-up', { ...newUser('Bomb'), email: owner.email })).status).toBe(202);
    const knownRefused = await post('/portal-api/auth/sign-up', { ...newUser('Bomb'), email: owner.email });
    expect(knownRefused.status).toBe(429);
    // The same refusal as for a new e-mail (a 429 must not tell which e-mails have accounts), but for its id.
    const strip = (json: { error: { request_id?: string } }) => ({ ...json.error, request_id: undefined });
    expect(strip(knownRefused.json)).toEqual(strip(refused.json));
  });

  it('per e-mail, shared with the forgotten-password form: one inbox, one budget', async () => {
    const owner = newUser('Shared');
    await signUpAndVerify(owner);
    for (let i = 1; i < PER_EMAIL; i++)
      expect((await post('/portal-api/auth/forgot-password', { email: owner.email })).status).toBe(202);
    expect((await post('/portal-api/auth/sign-up', { ...newUser('Shared'), email: owner.email })).status).toBe(429);
  });

  it('per address, whatever the e-mails: 429 with Retry-After', async () => {
    const address = freshClientAddress();
    for (let i = 0; i < PER_ADDRESS; i++) {
      const answer = await post('/portal-api/auth/sign-up', newUser(`Spray${i}`), { 'x-forwarded-for': address });
      expect(answer.status, answer.text).toBe(202);
    }
    const sprayed = await post('/portal-api/auth/sign-up', newUser('SprayX'), { 'x-forwarded-for': address });
    expect(sprayed.status).toBe(429);
    expect(Number(sprayed.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
