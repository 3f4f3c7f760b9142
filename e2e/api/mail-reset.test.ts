import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { baseUrl as suiteBaseUrl, freshClientAddress } from './support/api';
import { signUp, type Shipper } from './support/portal';
import { startMailServer, type MailServer, type Received } from './support/mail-server';
import type { AppProcess } from './support/spawn';

// E-mail, password reset, change password and sessions, through a server of this file's own whose
// SMTP_URL points at a real SMTP receiver (smtp-server) started here: the tests read the mail it receives and
// follow its links. Users are signed up through the suite's server; both servers share the run's database.

let mail: MailServer;
let inbox: Received[];
let app: AppProcess;
let appUrl: string;
const PER_EMAIL = 4;
// A user's sign-up mailed its link, and the mail limit per e-mail is one budget for every route that sends mail
// (counted in PostgreSQL, so across servers): a user signed up here has this many reset requests left this hour.
const LEFT_AFTER_SIGN_UP = PER_EMAIL - 1;
const PER_ADDRESS = 6;

let addressCounter = 0;
/** A client address of its own for each request (the servers trust 127.0.0.1 as the proxy that names it). */
const freshAddress = () => `198.51.100.${(addressCounter++ % 250) + 1}`;

async function post(path: string, body: unknown, headers: Record<string, string> = {}, base = appUrl) {
  const response = await fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': freshAddress(), ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: text ? JSON.parse(text) : undefined };
}

async function page(path: string) {
  const response = await fetch(appUrl + path);
  return { status: response.status, text: await response.text() };
}

const mailTo = (to: string, subject: RegExp, after = 0) => mail.mailTo(to, subject, after);

const resetLink = (received: Received) => mail.linkIn(received, '/reset-password');

const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
const emailOf = async (who: Shipper) =>
  (await db.user.findFirstOrThrow({ where: { memberships: { some: { accountId: who.accountId } } }, select: { email: true } }))
    .email;

async function sessionStatus(cookie: string, base = suiteBaseUrl): Promise<number> {
  const response = await fetch(`${base}/portal-api/session`, { headers: { cookie, 'x-carrier-environment': 'test' } });
  await response.arrayBuffer();
  return response.status;
}

async function signIn(email: string, password: string, base = suiteBaseUrl) {
  const answer = await post('/portal-api/auth/sign-in', { email, password }, {}, base);
  const cookie = /carrier_session=[^;]+/.exec(answer.headers.get('set-cookie') ?? '')?.[0] ?? '';
  return { status: answer.status, cookie };
}

async function csrfOf(cookie: string): Promise<string> {
  const { createHash } = await import('node:crypto');
  const secret = decodeURIComponent(cookie.split('=')[1] ?? '');
  return (
    await db.session.findUniqueOrThrow({
      where: { id: createHash('sha256').update(secret).digest('hex') },
      select: { csrfToken: true },
    })
  ).csrfToken;
}

async function portal(cookie: string, method: string, path: string, body?: unknown, options: { csrf?: string | null } = {}) {
  const csrf = options.csrf === undefined ? await csrfOf(cookie) : options.csrf;
  const response = await fetch(appUrl + path, {
    method,
    headers: {
      cookie,
      'content-type': 'application/json',
      'x-carrier-environment': 'test',
      'x-forwarded-for': freshAddress(),
      ...(csrf ? { 'x-csrf-token': csrf } : {}),
    },
    body: body === undefined ? (method === 'GET' ? undefined : '{}') : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: text ? JSON.parse(text) : undefined, text };
}

const PASSWORD = (who: Shipper) => `pw-${who.name.split(' ').at(-1)}-correct-horse`;

beforeAll(async () => {
  mail = await startMailServer({
    name: 'mail server',
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

describe('password reset by e-mail', () => {
  it('mails a link; following it sets a new password, ends every session, and signs in afresh', async () => {
    const who = await signUp('Reset');
    const email = await emailOf(who);
    const second = await signIn(email, PASSWORD(who));
    expect(second.status).toBe(200);
    expect(await sessionStatus(who.cookie)).toBe(200);

    const before = inbox.length;
    const asked = await post('/portal-api/auth/forgot-password', { email });
    expect(asked.status, asked.text).toBe(202);
    expect(asked.json).toEqual({ ok: true, message: expect.stringContaining('If an account exists') });
    const mail = await mailTo(email, /Reset your Carrier password/, before);
    expect(mail.raw).toMatch(/^From: Carrier <no-reply@carrier\.test>/m);
    expect(mail.raw).toMatch(/Content-Type: text\/plain/);
    expect(mail.raw).toMatch(/Content-Type: text\/html/);
    const link = resetLink(mail);
    expect(link.startsWith(`${appUrl}/reset-password?token=`)).toBe(true);
    // Only the token's hash is stored.
    expect(await db.passwordReset.count({ where: { tokenHash: tokenOf(link) } })).toBe(0);

    // Following the link shows the form; opening it uses nothing.
    const opened = await fetch(link);
    expect(opened.status).toBe(200);
    const html = await opened.text();
    expect(html).toContain('Choose a new password');
    expect(html).toContain('no-referrer');
    expect((await page(new URL(link).pathname + new URL(link).search)).text).toContain('Choose a new password');

    const newPassword = `new-${randomBytes(6).toString('hex')}-battery`;
    const reset = await post('/portal-api/auth/reset-password', { token: tokenOf(link), password: newPassword });
    expect(reset.status, reset.text).toBe(200);
    expect(reset.json).toEqual({ ok: true, sessionsEnded: 2 });
    const fresh = /carrier_session=[^;]+/.exec(reset.headers.get('set-cookie') ?? '')?.[0] ?? '';
    expect(fresh).not.toBe('');

    // Every earlier session is gone; the fresh one works; the old password fails, the new one works.
    expect(await sessionStatus(who.cookie)).toBe(401);
    expect(await sessionStatus(second.cookie)).toBe(401);
    expect(await sessionStatus(fresh)).toBe(200);
    expect((await signIn(email, PASSWORD(who))).status).toBe(401);
    expect((await signIn(email, newPassword)).status).toBe(200);
    // And the owner is told.
    const notice = await mailTo(email, /Your Carrier password was changed/, before);
    expect(notice.text).toContain('reset through a link');

    // The link works once: again, it is refused, on the page and by the endpoint.
    const again = await post('/portal-api/auth/reset-password', { token: tokenOf(link), password: 'another-password-123' });
    expect(again.status, again.text).toBe(422);
    expect(again.json.error.code).toBe('validation_failed');
    expect(again.json.error.details).toEqual([{ path: 'token', message: expect.stringContaining('already been used') }]);
    const reopened = await page(new URL(link).pathname + new URL(link).search);
    expect(reopened.status).toBe(200);
    expect(reopened.text).toContain('already been used');
    expect(reopened.text).not.toContain('Set new password');
    expect((await signIn(email, 'another-password-123')).status).toBe(401);
  });

  it('refuses an expired link, on the page and by the endpoint, and leaves the password as it was', async () => {
    const who = await signUp('Expired');
    const email = await emailOf(who);
    const before = inbox.length;
    expect((await post('/portal-api/auth/forgot-password', { email })).status).toBe(202);
    const link = resetLink(await mailTo(email, /Reset your Carrier password/, before));
    const user = await db.user.findUniqueOrThrow({ where: { email }, select: { id: true } });
    // 31 minutes later, as far as the link knows.
    await db.passwordReset.updateMany({ where: { userId: user.id }, data: { expiresAt: new Date(Date.now() - 60_000) } });
    const opened = await page(new URL(link).pathname + new URL(link).search);
    expect(opened.status).toBe(200);
    expect(opened.text).toContain('has expired');
    const used = await post('/portal-api/auth/reset-password', { token: tokenOf(link), password: 'expired-link-password' });
    expect(used.status, used.text).toBe(422);
    expect(used.json.error.details[0]).toEqual({ path: 'token', message: expect.stringContaining('has expired') });
    expect(await sessionStatus(who.cookie)).toBe(200);
    expect((await signIn(email, PASSWORD(who))).status).toBe(200);
  });

  it('a link expires 30 minutes after it was asked for', async () => {
    const who = await signUp('Window');
    const email = await emailOf(who);
    const started = Date.now();
    expect((await post('/portal-api/auth/forgot-password', { email })).status).toBe(202);
    const row = await db.passwordReset.findFirstOrThrow({
      where: { user: { email } },
      select: { expiresAt: true, createdAt: true },
    });
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(30 * 60_000);
    expect(row.createdAt.getTime()).toBeGreaterThanOrEqual(started - 5_000);
  });

  it.each([
    ['no token', ''],
    ['a short token', '?token=abc'],
    ['a well-formed token nobody issued', `?token=${randomBytes(32).toString('base64url')}`],
    ['two tokens', `?token=${randomBytes(32).toString('base64url')}&token=x`],
    ['a hostile token', `?token=${encodeURIComponent("' OR 1=1; --\u0000<script>")}`],
    ['a very long token', `?token=${'A'.repeat(10_000)}`],
  ])('the page says a link is not valid for %s (never a 5xx)', async (_name, query) => {
    const opened = await page(`/reset-password${query}`);
    expect(opened.status).toBe(200);
    expect(opened.text).toContain('not a valid password-reset link');
  });

  it.each([
    ['a malformed token', { token: 'abc', password: 'long-enough-password' }, 'token'],
    ['a token nobody issued', { token: randomBytes(32).toString('base64url'), password: 'long-enough-password' }, 'token'],
    ['a short password', { token: randomBytes(32).toString('base64url'), password: 'short' }, 'password'],
    ['no token', { password: 'long-enough-password' }, 'token'],
  ])('POST reset-password refuses %s with a 422 naming the field', async (_name, body, path) => {
    const answer = await post('/portal-api/auth/reset-password', body);
    expect(answer.status, answer.text).toBe(422);
    expect(answer.json.error.code).toBe('validation_failed');
    expect(answer.json.error.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('answers an unknown e-mail exactly as a known one, and sends it nothing', async () => {
    const who = await signUp('Known');
    const known = await post('/portal-api/auth/forgot-password', { email: await emailOf(who) });
    const stranger = `nobody-${randomBytes(4).toString('hex')}@example.com`;
    const before = inbox.length;
    const unknown = await post('/portal-api/auth/forgot-password', { email: stranger });
    expect(unknown.status).toBe(known.status);
    expect(unknown.json).toEqual(known.json);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(inbox.slice(before).filter((m) => m.to.includes(stranger))).toEqual([]);
  });

  it('takes about as long for an unknown e-mail as for a known one', async () => {
    const who = await signUp('Timing');
    const email = await emailOf(who);
    const timed = async (address: string) => {
      const started = performance.now();
      expect((await post('/portal-api/auth/forgot-password', { email: address })).status).toBe(202);
      return performance.now() - started;
    };
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const knownTimes: number[] = [];
    const unknownTimes: number[] = [];
    for (let i = 0; i < LEFT_AFTER_SIGN_UP; i++) {
      knownTimes.push(await timed(email));
      unknownTimes.push(await timed(`nobody-${i}-${randomBytes(4).toString('hex')}@example.com`));
    }
    // The mail leaves after the answer: no SMTP round trip in the known case's time.
    expect(Math.abs(median(knownTimes) - median(unknownTimes))).toBeLessThan(100);
  });

  it('builds links from APP_URL, never from the Host a client sends', async () => {
    const who = await signUp('Poison');
    const email = await emailOf(who);
    const before = inbox.length;
    const asked = await post(
      '/portal-api/auth/forgot-password',
      { email },
      { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
    );
    expect(asked.status).toBe(202);
    const mail = await mailTo(email, /Reset your Carrier password/, before);
    expect(mail.text).not.toContain('evil.example');
    expect(resetLink(mail).startsWith(appUrl)).toBe(true);
  });

  it('limits requests per e-mail and per address with a 429 and Retry-After', async () => {
    const who = await signUp('Limited');
    const email = await emailOf(who);
    // Per e-mail, from ever-changing addresses (a stranger bombing one inbox).
    for (let i = 0; i < LEFT_AFTER_SIGN_UP; i++)
      expect((await post('/portal-api/auth/forgot-password', { email })).status).toBe(202);
    const refused = await post('/portal-api/auth/forgot-password', { email });
    expect(refused.status, refused.text).toBe(429);
    expect(refused.json.error.code).toBe('rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // An unknown e-mail is counted alike (a 429 must not tell which e-mails have accounts).
    const stranger = `nobody-${randomBytes(4).toString('hex')}@example.com`;
    for (let i = 0; i < PER_EMAIL; i++)
      expect((await post('/portal-api/auth/forgot-password', { email: stranger })).status).toBe(202);
    expect((await post('/portal-api/auth/forgot-password', { email: stranger })).status).toBe(429);

    // Per address, whatever the e-mails.
    const address = freshClientAddress();
    for (let i = 0; i < PER_ADDRESS; i++) {
      const answer = await post(
        '/portal-api/auth/forgot-password',
        { email: `spray-${i}-${randomBytes(3).toString('hex')}@example.com` },
        { 'x-forwarded-for': address },
      );
      expect(answer.status, answer.text).toBe(202);
    }
    const sprayed = await post(
      '/portal-api/auth/forgot-password',
      { email: `spray-x@example.com` },
      { 'x-forwarded-for': address },
    );
    expect(sprayed.status).toBe(429);
    expect(Number(sprayed.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('refuses a cross-site request and a non-JSON body', async () => {
    const foreign = await post(
      '/portal-api/auth/forgot-password',
      { email: 'a@example.com' },
      { origin: 'https://evil.example' },
    );
    expect(foreign.status).toBe(403);
    const form = await fetch(`${appUrl}/portal-api/auth/forgot-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': freshAddress() },
      body: 'email=a%40example.com',
    });
    expect(form.status).toBe(415);
  });
});

describe('change password', () => {
  it('needs the current password, ends the other sessions and keeps this one', async () => {
    const who = await signUp('Change');
    const email = await emailOf(who);
    const other = await signIn(email, PASSWORD(who));
    expect(other.status).toBe(200);

    const wrong = await portal(who.cookie, 'POST', '/portal-api/account/password', {
      currentPassword: 'not-my-password',
      newPassword: 'brand-new-password-1',
    });
    expect(wrong.status, wrong.text).toBe(422);
    expect(wrong.json.error.details).toEqual([{ path: 'currentPassword', message: 'is not your current password' }]);
    const short = await portal(who.cookie, 'POST', '/portal-api/account/password', {
      currentPassword: PASSWORD(who),
      newPassword: 'short',
    });
    expect(short.status).toBe(422);
    expect(short.json.error.details.map((d: { path: string }) => d.path)).toEqual(['newPassword']);
    const noCsrf = await portal(
      who.cookie,
      'POST',
      '/portal-api/account/password',
      { currentPassword: PASSWORD(who), newPassword: 'brand-new-password-1' },
      { csrf: null },
    );
    expect(noCsrf.status).toBe(403);
    expect(await sessionStatus(other.cookie)).toBe(200);

    const before = inbox.length;
    const changed = await portal(who.cookie, 'POST', '/portal-api/account/password', {
      currentPassword: PASSWORD(who),
      newPassword: 'brand-new-password-1',
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.json).toEqual({ ok: true, sessionsEnded: 1 });
    expect(await sessionStatus(who.cookie)).toBe(200);
    expect(await sessionStatus(other.cookie)).toBe(401);
    expect((await signIn(email, PASSWORD(who))).status).toBe(401);
    expect((await signIn(email, 'brand-new-password-1')).status).toBe(200);
    const notice = await mailTo(email, /Your Carrier password was changed/, before);
    expect(notice.text).toContain('changed from the account page');
  });

  it('voids reset links asked for before the change', async () => {
    const who = await signUp('Voided');
    const email = await emailOf(who);
    const before = inbox.length;
    expect((await post('/portal-api/auth/forgot-password', { email })).status).toBe(202);
    const link = resetLink(await mailTo(email, /Reset your Carrier password/, before));
    expect(
      (
        await portal(who.cookie, 'POST', '/portal-api/account/password', {
          currentPassword: PASSWORD(who),
          newPassword: 'changed-password-22',
        })
      ).status,
    ).toBe(200);
    const used = await post('/portal-api/auth/reset-password', { token: tokenOf(link), password: 'attacker-password-1' });
    expect(used.status).toBe(422);
  });
});

describe('the other routes that send mail are limited too', () => {
  it('change password: per e-mail (the notice), shared with the sign-up that spent one; 429 with Retry-After', async () => {
    const who = await signUp('ChangeLimit');
    const passwords = [PASSWORD(who), 'second-password-22', 'third-password-333', 'fourth-password-4444', 'fifth-password-55555'];
    for (let i = 0; i < LEFT_AFTER_SIGN_UP; i++) {
      const changed = await portal(who.cookie, 'POST', '/portal-api/account/password', {
        currentPassword: passwords[i],
        newPassword: passwords[i + 1],
      });
      expect(changed.status, changed.text).toBe(200);
    }
    const refused = await portal(who.cookie, 'POST', '/portal-api/account/password', {
      currentPassword: passwords[LEFT_AFTER_SIGN_UP],
      newPassword: passwords[LEFT_AFTER_SIGN_UP + 1],
    });
    expect(refused.status, refused.text).toBe(429);
    expect(refused.json.error.code).toBe('rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Refused before anything changed: the password is the last one set.
    expect((await signIn(await emailOf(who), passwords[LEFT_AFTER_SIGN_UP])).status).toBe(200);
  });

  it('reset-password: per address, whatever the link (each use of a real link may mail a notice); 429 with Retry-After', async () => {
    const who = await signUp('ResetLimit');
    const email = await emailOf(who);
    const before = inbox.length;
    expect((await post('/portal-api/auth/forgot-password', { email })).status).toBe(202);
    const token = tokenOf(resetLink(await mailTo(email, /Reset your Carrier password/, before)));
    // An address of its own (100.64.0.0/10 is used nowhere else in this file).
    const address = `100.64.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;
    const statuses: number[] = [];
    for (let i = 0; i <= PER_ADDRESS; i++) {
      const answer = await post(
        '/portal-api/auth/reset-password',
        { token, password: `reset-limit-${i}-password` },
        { 'x-forwarded-for': address },
      );
      statuses.push(answer.status);
      if (answer.status === 429) expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // The first use wins; the link is spent after it (422), until the address's count is: then 429.
    expect(statuses).toEqual([200, ...Array.from({ length: PER_ADDRESS - 1 }, () => 422), 429]);
  });
});

describe('sessions', () => {
  it('lists the user’s sessions, marks this one, revokes one, and signs out everywhere', async () => {
    const who = await signUp('Sessions');
    const email = await emailOf(who);
    const laptop = await fetch(`${appUrl}/portal-api/auth/sign-in`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': '192.0.2.77',
        'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0',
      },
      body: JSON.stringify({ email, password: PASSWORD(who) }),
    });
    expect(laptop.status).toBe(200);
    const laptopCookie = /carrier_session=[^;]+/.exec(laptop.headers.get('set-cookie') ?? '')![0];
    const phone = await signIn(email, PASSWORD(who));

    const listed = await portal(who.cookie, 'GET', '/portal-api/account/sessions');
    expect(listed.status, listed.text).toBe(200);
    expect(listed.json.sessions).toHaveLength(3);
    expect(listed.json.sessions.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    const laptopRow = listed.json.sessions.find((s: { address: string }) => s.address === '192.0.2.77');
    expect(laptopRow).toMatchObject({
      userAgent: expect.stringContaining('Firefox'),
      current: false,
      lastSeenAt: expect.any(String),
    });
    expect(laptopRow.id).toMatch(/^[0-9a-f-]{36}$/);
    // Nothing of the session's key is in the answer.
    expect(listed.text).not.toMatch(/[0-9a-f]{64}/);

    // Another user cannot see or end these.
    const stranger = await signUp('Stranger');
    expect((await portal(stranger.cookie, 'GET', '/portal-api/account/sessions')).json.sessions).toHaveLength(1);
    const foreign = await portal(stranger.cookie, 'DELETE', `/portal-api/account/sessions/${laptopRow.id}`);
    expect(foreign.status).toBe(404);
    expect(await sessionStatus(laptopCookie)).toBe(200);
    expect((await portal(who.cookie, 'DELETE', '/portal-api/account/sessions/not-a-uuid')).status).toBe(404);
    expect(
      (await portal(who.cookie, 'DELETE', `/portal-api/account/sessions/${laptopRow.id}`, undefined, { csrf: null })).status,
    ).toBe(403);

    const revoked = await portal(who.cookie, 'DELETE', `/portal-api/account/sessions/${laptopRow.id}`);
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.json).toEqual({ ok: true, sessionsEnded: 1, signedOut: false });
    expect(await sessionStatus(laptopCookie)).toBe(401);
    expect(await sessionStatus(phone.cookie)).toBe(200);
    expect(await sessionStatus(who.cookie)).toBe(200);

    const everywhere = await portal(who.cookie, 'DELETE', '/portal-api/account/sessions');
    expect(everywhere.status, everywhere.text).toBe(200);
    expect(everywhere.json).toEqual({ ok: true, sessionsEnded: 2, signedOut: true });
    expect(everywhere.headers.get('set-cookie')).toMatch(/carrier_session=;/);
    expect(await sessionStatus(phone.cookie)).toBe(401);
    expect(await sessionStatus(who.cookie)).toBe(401);
    expect(await sessionStatus(stranger.cookie)).toBe(200);
  });

  it('refuses the session endpoints without a session', async () => {
    const answer = await fetch(`${appUrl}/portal-api/account/sessions`, { headers: { 'x-carrier-environment': 'test' } });
    expect(answer.status).toBe(401);
  });
});

describe('the development outbox', () => {
  // Not the suite's server: it turns the outbox on, to follow sign-up links (support/global-setup.ts).
  it('is a 404 on a production server (this file’s, NODE_ENV=production, MAIL_OUTBOX unset)', async () => {
    const response = await fetch(`${appUrl}/dev/outbox`);
    expect(response.status).toBe(404);
    const text = await response.text();
    expect(text).toContain('Page not found');
    expect(text).not.toContain('Outbox');
  });

  it('keeps unsent mail when no SMTP_URL is set and the outbox is on, and logs its links', async () => {
    // This process is the mailer here: NODE_ENV=test (Vitest's), no SMTP_URL, so the outbox is on by default.
    expect(process.env.SMTP_URL).toBeUndefined();
    const { sendMail } = await import('@/lib/mail/send-mail');
    const { passwordResetMail } = await import('@/lib/mail/messages');
    const to = `outbox-${randomBytes(4).toString('hex')}@example.com`;
    await sendMail(passwordResetMail({ to, link: 'http://localhost:3000/reset-password?token=x', minutes: 30 }));
    const kept = await db.outboxMail.findMany({ where: { to } });
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({
      subject: 'Reset your Carrier password',
      links: ['http://localhost:3000/reset-password?token=x'],
    });
    expect(kept[0].html).toContain('href="http://localhost:3000/reset-password?token=x"');
  });
});
