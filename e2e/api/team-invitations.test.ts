import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { call, freshClientAddress, tracking } from './support/api';
import { signUp, type Shipper } from './support/portal';
import { containerSample } from './support/samples';
import { startMailServer, type MailServer, type Received } from './support/mail-server';
import type { AppProcess } from './support/spawn';

// Invitations and switching accounts (docs/decisions/teams.md "Invitations and switching accounts"),
// through a server of this file's own whose SMTP_URL points at a real SMTP receiver (smtp-server) started here: the
// tests read the invitation mails and follow their links. Users sign up through the suite's server; both servers
// share the run's database, so a session made by one works on the other.

let mail: MailServer;
let inbox: Received[];
let app: AppProcess;
let appUrl: string;
const PER_EMAIL = 3;
const PER_ADDRESS = 6;
const PER_ACCOUNT = 5;

let addressCounter = 0;
/** A client address of its own for each request (the servers trust 127.0.0.1 as the proxy that names it). */
const freshAddress = () => `198.51.${100 + Math.floor(addressCounter / 250)}.${(addressCounter++ % 250) + 1}`;

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- assertions read arbitrary fields
  cookie: string;
}

async function answerOf(response: Response): Promise<Answer> {
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  const cookie = /carrier_session=[^;]+/.exec(response.headers.get('set-cookie') ?? '')?.[0] ?? '';
  return { status: response.status, headers: response.headers, text, json, cookie };
}

async function csrfOf(cookie: string): Promise<string> {
  const secret = decodeURIComponent(cookie.split('=')[1] ?? '');
  const row = await db.session.findUnique({
    where: { id: createHash('sha256').update(secret).digest('hex') },
    select: { csrfToken: true },
  });
  return row?.csrfToken ?? '';
}

/** A portal-api request as the portal's fetcher sends it, with the session `cookie` (and its CSRF token). */
async function portal(
  cookie: string | null,
  method: string,
  path: string,
  body?: unknown,
  options: { headers?: Record<string, string>; raw?: string } = {},
): Promise<Answer> {
  const response = await fetch(appUrl + path, {
    method,
    headers: {
      'content-type': 'application/json',
      'x-carrier-environment': 'test',
      'x-forwarded-for': freshAddress(),
      ...(cookie ? { cookie, 'x-csrf-token': await csrfOf(cookie) } : {}),
      ...options.headers,
    },
    body: options.raw ?? (body === undefined ? (method === 'GET' ? undefined : '{}') : JSON.stringify(body)),
  });
  return answerOf(response);
}

const invite = (who: Shipper | string, email: string, role = 'viewer', headers: Record<string, string> = {}) =>
  portal(typeof who === 'string' ? who : who.cookie, 'POST', '/portal-api/invitations', { email, role }, { headers });

/** POST /portal-api/auth/accept-invitation, signed out unless `cookie` is given. */
const accept = (body: unknown, cookie: string | null = null) =>
  cookie
    ? portal(cookie, 'POST', '/portal-api/auth/accept-invitation', body)
    : portal(null, 'POST', '/portal-api/auth/accept-invitation', body);

async function page(pathAndQuery: string, cookie?: string) {
  const response = await fetch(appUrl + pathAndQuery, { headers: cookie ? { cookie } : {} });
  return { status: response.status, text: await response.text(), headers: response.headers };
}

/** Waits for an invitation to `to` among the mails after the first `after` of the inbox. */
const mailTo = (to: string, after = 0) => mail.mailTo(to, /invited you to join/, after);

const linkIn = (received: Received) => mail.linkIn(received, '/invitations/accept');

/** Invites `email` and returns the link from the mail it receives. */
async function invitedLink(who: Shipper | string, email: string, role = 'viewer') {
  const before = inbox.length;
  const sent = await invite(who, email, role);
  expect(sent.status, sent.text).toBe(201);
  const link = linkIn(await mailTo(email.toLowerCase(), before));
  return { link, token: new URL(link).searchParams.get('token')!, id: sent.json.invitation.id as string, answer: sent };
}

const pathOf = (link: string) => new URL(link).pathname + new URL(link).search;
const newEmail = (label: string) => `${label}-${randomUUID().slice(0, 8)}@example.com`;
const emailOf = async (who: Shipper) =>
  (
    await db.user.findFirstOrThrow({
      where: { memberships: { some: { accountId: who.accountId, role: 'owner' } } },
      select: { email: true },
    })
  ).email;
const PASSWORD = (who: Shipper) => `pw-${who.name.split(' ').at(-1)}-correct-horse`;

beforeAll(async () => {
  mail = await startMailServer({
    name: 'invitations server',
    env: {
      MAIL_REQUESTS_PER_EMAIL_PER_HOUR: String(PER_EMAIL),
      MAIL_REQUESTS_PER_ADDRESS_PER_HOUR: String(PER_ADDRESS),
      INVITATIONS_PER_ACCOUNT_PER_HOUR: String(PER_ACCOUNT),
    },
  });
  ({ app, appUrl, inbox } = mail);
});

afterAll(async () => {
  await mail?.stop();
  expect(app?.unexpected ?? []).toEqual([]);
});

describe('inviting a new user', () => {
  it('mails a link; the new user sets a password, is signed in to the account with the role, and the link is used up', async () => {
    const owner = await signUp('Inviter');
    const email = newEmail('newcomer');
    const { link, token, id, answer } = await invitedLink(owner, email, 'admin');
    expect(answer.json).toMatchObject({
      replaced: false,
      invitation: { id, email, role: 'admin', invitedBy: await emailOf(owner) },
    });
    expect(link.startsWith(`${appUrl}/invitations/accept?token=`)).toBe(true);
    // Only the token's hash is stored; the row expires 72 hours after it was made.
    const row = await db.invitation.findUniqueOrThrow({ where: { id } });
    expect(row.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(72 * 3_600_000);
    // Listed as open.
    const listed = await portal(owner.cookie, 'GET', '/portal-api/invitations');
    expect(listed.status, listed.text).toBe(200);
    expect(listed.json.invitations.map((i: { id: string }) => i.id)).toEqual([id]);

    // The page names the account and the role and asks a new user for a password; opening it uses nothing.
    const opened = await page(pathOf(link));
    expect(opened.status).toBe(200);
    expect(opened.text).toContain(owner.name);
    expect(opened.text).toContain('admin');
    expect(opened.text).toContain('Create user and join');
    expect(opened.text).toContain('no-referrer');
    expect((await db.invitation.findUniqueOrThrow({ where: { id } })).acceptedAt).toBeNull();

    // Too short a password: refused, nothing used.
    const short = await accept({ token, password: 'short' });
    expect(short.status, short.text).toBe(422);
    expect(short.json.error.details).toEqual([{ path: 'password', message: 'must be at least 10 characters' }]);

    const joined = await accept({ token, password: 'newcomer-password-1' });
    expect(joined.status, joined.text).toBe(200);
    expect(joined.json).toMatchObject({
      ok: true,
      account: { id: owner.accountId, name: owner.name },
      role: 'admin',
      alreadyMember: false,
    });
    expect(joined.cookie).not.toBe('');
    const session = await portal(joined.cookie, 'GET', '/portal-api/session');
    expect(session.json).toMatchObject({ user: { email }, account: { id: owner.accountId } });
    const accounts = await portal(joined.cookie, 'GET', '/portal-api/session/accounts');
    expect(accounts.json).toEqual({ accounts: [{ id: owner.accountId, name: owner.name, role: 'admin', current: true }] });
    // The new admin can sign in with that password, and invite (but not as owner: that needs owners:manage).
    const signIn = await portal(null, 'POST', '/portal-api/auth/sign-in', { email, password: 'newcomer-password-1' });
    expect(signIn.status).toBe(200);
    const asOwner = await invite(joined.cookie, newEmail('would-be-owner'), 'owner');
    expect(asOwner.status, asOwner.text).toBe(403);
    expect(asOwner.json.error.message).toContain('owners:manage');
    expect((await invite(joined.cookie, newEmail('by-admin'), 'viewer')).status).toBe(201);
    // The owner may invite an owner.
    expect((await invite(owner, newEmail('co-owner'), 'owner')).status).toBe(201);

    // Used: the endpoint says 410 gone (which), and the page says so.
    expect(
      (await portal(owner.cookie, 'GET', '/portal-api/invitations')).json.invitations.map((i: { id: string }) => i.id),
    ).not.toContain(id);
    const again = await accept({ token, password: 'another-password-2' });
    expect(again.status, again.text).toBe(410);
    expect(again.json.error).toMatchObject({
      code: 'gone',
      state: 'used',
      message: expect.stringContaining('already been accepted'),
    });
    const reopened = await page(pathOf(link));
    expect(reopened.status).toBe(200);
    expect(reopened.text).toContain('already been accepted');
    expect(reopened.text).not.toContain('Create user and join');
    expect(await db.membership.count({ where: { accountId: owner.accountId } })).toBe(2);
  });

  it('of two accepts of one link racing, exactly one creates the user and the membership', async () => {
    const owner = await signUp('Race');
    const email = newEmail('racer');
    const { token } = await invitedLink(owner, email, 'operator');
    const answers = await Promise.all([
      accept({ token, password: 'racer-password-one' }),
      accept({ token, password: 'racer-password-two' }),
      accept({ token, password: 'racer-password-three' }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 410, 410]);
    for (const loser of answers.filter((a) => a.status === 410)) expect(loser.json.error.state).toBe('used');
    expect(await db.user.count({ where: { email } })).toBe(1);
    expect(await db.membership.count({ where: { accountId: owner.accountId, user: { email } } })).toBe(1);
  });

  it('a revoke racing the accept of the same invitation: exactly one wins, and the loser says why', async () => {
    for (let race = 0; race < 4; race++) {
      // An account of its own each time: invitations an account may send in an hour are limited.
      const owner = await signUp(`RevokeRace${race}`);
      const email = newEmail(`revoke-race-${race}`);
      const { token, id } = await invitedLink(owner, email, 'operator');
      const [accepted, revoked] = await Promise.all([
        accept({ token, password: `race-password-${race}-long` }),
        portal(owner.cookie, 'DELETE', `/portal-api/invitations/${id}`),
      ]);
      const member = await db.membership.count({ where: { accountId: owner.accountId, user: { email } } });
      if (accepted.status === 200) {
        // The accept won: the revoke is refused (409, what a stale tab shows), and the member stays.
        expect(revoked.status, revoked.text).toBe(409);
        expect(revoked.json.error).toMatchObject({ code: 'conflict', message: expect.stringContaining('already accepted') });
        expect(member).toBe(1);
      } else {
        // The revoke won: the accept is refused as revoked, and nobody joined.
        expect(revoked.status, revoked.text).toBe(200);
        expect(accepted.status, accepted.text).toBe(410);
        expect(accepted.json.error.state).toBe('revoked');
        expect(member).toBe(0);
      }
    }
  });
});

describe('an existing user accepts, switches between the two accounts, and sees each one’s data only', () => {
  it('signs in on the accept page, joins, and switches', async () => {
    const alpha = await signUp('Alpha');
    const beta = await signUp('Beta');
    const betaEmail = await emailOf(beta);
    // Each account's own manifest, by its own API token.
    const manifestOf = async (who: Shipper) => {
      const made = await call('/wf/manifest', {
        token: who.tokens.test,
        body: containerSample(`ULD-${tracking('INV')}`, [tracking('INV')]),
      });
      expect(made.status, made.text).toBe(200);
      return (made.json as { ManifestID: string }).ManifestID;
    };
    const [alphaManifest, betaManifest] = [await manifestOf(alpha), await manifestOf(beta)];

    // Invited in another case than the user signed up with: the same person.
    const { link, token } = await invitedLink(alpha, betaEmail.toUpperCase(), 'operator');
    const opened = await page(pathOf(link));
    expect(opened.text).toContain('Sign in and join');
    expect(opened.text).toContain(betaEmail);

    const noPassword = await accept({ token });
    expect(noPassword.status, noPassword.text).toBe(422);
    expect(noPassword.json.error.details[0].path).toBe('password');
    const wrong = await accept({ token, password: 'not-the-password' });
    expect(wrong.status, wrong.text).toBe(401);
    const joined = await accept({ token, password: PASSWORD(beta) });
    expect(joined.status, joined.text).toBe(200);
    expect(joined.json).toMatchObject({ account: { id: alpha.accountId }, role: 'operator', alreadyMember: false });
    const cookie = joined.cookie;

    const accounts = await portal(cookie, 'GET', '/portal-api/session/accounts');
    expect(accounts.json.accounts).toEqual(
      expect.arrayContaining([
        { id: alpha.accountId, name: alpha.name, role: 'operator', current: true },
        { id: beta.accountId, name: beta.name, role: 'owner', current: false },
      ]),
    );
    expect(accounts.json.accounts).toHaveLength(2);
    const manifests = async () =>
      (await portal(cookie, 'GET', '/portal-api/manifests')).json.data.map((m: { ManifestID: string }) => m.ManifestID);
    expect(await manifests()).toEqual([alphaManifest]);

    // Switch to Beta: Beta's data only.
    const switched = await portal(cookie, 'POST', '/portal-api/session/account', { accountId: beta.accountId });
    expect(switched.status, switched.text).toBe(200);
    expect(switched.json).toEqual({ account: { id: beta.accountId, name: beta.name }, role: 'owner' });
    expect(await manifests()).toEqual([betaManifest]);
    expect((await portal(cookie, 'GET', '/portal-api/session')).json.account.id).toBe(beta.accountId);
    // Beta's other session (made at sign-up) stays where it was.
    expect((await portal(beta.cookie, 'GET', '/portal-api/session')).json.account.id).toBe(beta.accountId);
    // And back.
    expect((await portal(cookie, 'POST', '/portal-api/session/account', { accountId: alpha.accountId })).status).toBe(200);
    expect(await manifests()).toEqual([alphaManifest]);

    // Another account's id, an unknown id: 404; no id or a malformed one: 422 naming accountId.
    const stranger = await signUp('Stranger');
    const foreign = await portal(cookie, 'POST', '/portal-api/session/account', { accountId: stranger.accountId });
    expect(foreign.status, foreign.text).toBe(404);
    expect((await portal(cookie, 'POST', '/portal-api/session/account', { accountId: randomUUID() })).status).toBe(404);
    for (const accountId of [undefined, 'x', '\u0000', 'a'.repeat(5000), 42, null]) {
      const bad = await portal(cookie, 'POST', '/portal-api/session/account', { accountId });
      expect(bad.status, `${JSON.stringify(accountId)?.slice(0, 20)}: ${bad.text}`).toBe(422);
      expect(bad.json.error.details[0].path).toBe('accountId');
    }
    expect((await portal(cookie, 'GET', '/portal-api/session')).json.account.id).toBe(alpha.accountId);
  });

  it('a tab still showing the account switched away from gets 409 account_changed and writes nothing', async () => {
    const alpha = await signUp('Tabs');
    const beta = await signUp('Other');
    const { token } = await invitedLink(alpha, await emailOf(beta), 'developer');
    expect((await accept({ token }, beta.cookie)).status).toBe(200);
    // beta.cookie's session now acts for Alpha (accepting signed in switches it); the "Alpha tab" sends Alpha's id.
    const alphaTab = { 'x-carrier-account': alpha.accountId };
    expect((await portal(beta.cookie, 'GET', '/portal-api/session', undefined, { headers: alphaTab })).status).toBe(200);
    // Another tab switches to Beta.
    expect(
      (await portal(beta.cookie, 'POST', '/portal-api/session/account', { accountId: beta.accountId }, { headers: alphaTab }))
        .status,
    ).toBe(200);
    const tokensBefore = await db.apiToken.count({ where: { accountId: { in: [alpha.accountId, beta.accountId] } } });
    const stale = await portal(beta.cookie, 'POST', '/portal-api/tokens', { name: 'from a stale tab' }, { headers: alphaTab });
    expect(stale.status, stale.text).toBe(409);
    expect(stale.json.error).toMatchObject({ code: 'account_changed', current_account: { id: beta.accountId, name: beta.name } });
    expect(stale.json.error.message).toContain('Reload the page');
    expect(stale.json.error.message).toContain(beta.name);
    expect(await db.apiToken.count({ where: { accountId: { in: [alpha.accountId, beta.accountId] } } })).toBe(tokensBefore);
    // Reads too: the stale tab must not show Beta's data under Alpha's name.
    expect((await portal(beta.cookie, 'GET', '/portal-api/manifests', undefined, { headers: alphaTab })).status).toBe(409);
    // The reloaded tab (Beta's id) works; signing out works from any tab.
    const fresh = await portal(
      beta.cookie,
      'POST',
      '/portal-api/tokens',
      { name: 'from the reloaded tab' },
      { headers: { 'x-carrier-account': beta.accountId } },
    );
    expect(fresh.status, fresh.text).toBe(201);
    expect((await portal(beta.cookie, 'DELETE', '/portal-api/session', undefined, { headers: alphaTab })).status).toBe(200);
  });
});

describe('links that cannot be used', () => {
  it('an expired link (72 h): the page and the endpoint say it expired; nothing is created', async () => {
    const owner = await signUp('Expiry');
    const email = newEmail('late');
    const { link, token, id } = await invitedLink(owner, email);
    await db.invitation.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    expect((await page(pathOf(link))).text).toContain('has expired');
    const late = await accept({ token, password: 'late-comer-password' });
    expect(late.status, late.text).toBe(410);
    expect(late.json.error).toMatchObject({ code: 'gone', state: 'expired' });
    expect(await db.user.count({ where: { email } })).toBe(0);
    expect((await portal(owner.cookie, 'GET', '/portal-api/invitations')).json.invitations).toEqual([]);
    // A new invitation to the same e-mail is not a "replacement" of an expired one, and works.
    const again = await invitedLink(owner, email);
    expect(again.answer.json.replaced).toBe(false);
    expect((await accept({ token: again.token, password: 'late-comer-password' })).status).toBe(200);
  });

  it('a revoked link: revoked by id (another account’s revoke is a 404), then refused with 410 revoked', async () => {
    const owner = await signUp('Revoker');
    const other = await signUp('Outsider');
    const email = newEmail('revoked');
    const { link, token, id } = await invitedLink(owner, email);
    expect((await portal(other.cookie, 'DELETE', `/portal-api/invitations/${id}`)).status).toBe(404);
    for (const bad of ['not-a-uuid', randomUUID(), '%00', 'x'.repeat(120)]) {
      expect((await portal(owner.cookie, 'DELETE', `/portal-api/invitations/${bad}`)).status, bad).toBe(404);
    }
    expect((await page(pathOf(link))).text).toContain('Create user and join');
    const revoked = await portal(owner.cookie, 'DELETE', `/portal-api/invitations/${id}`);
    expect(revoked.status, revoked.text).toBe(200);
    expect((await portal(owner.cookie, 'DELETE', `/portal-api/invitations/${id}`)).status).toBe(200);
    expect((await portal(owner.cookie, 'GET', '/portal-api/invitations')).json.invitations).toEqual([]);
    const opened = await page(pathOf(link));
    expect(opened.text).toContain('was withdrawn');
    const used = await accept({ token, password: 'revoked-user-password' });
    expect(used.status, used.text).toBe(410);
    expect(used.json.error.state).toBe('revoked');
    expect(await db.user.count({ where: { email } })).toBe(0);
  });

  it('inviting the same e-mail again (in any case) revokes the open link and sends a new one', async () => {
    const owner = await signUp('Resend');
    const email = newEmail('twice');
    const first = await invitedLink(owner, email.toUpperCase(), 'viewer');
    const second = await invitedLink(owner, email, 'developer');
    expect(second.answer.json.replaced).toBe(true);
    expect(second.answer.json.message).toContain('earlier one');
    expect((await portal(owner.cookie, 'GET', '/portal-api/invitations')).json.invitations).toEqual([
      expect.objectContaining({ id: second.id, email, role: 'developer' }),
    ]);
    expect((await accept({ token: first.token, password: 'twice-invited-password' })).json.error.state).toBe('revoked');
    const joined = await accept({ token: second.token, password: 'twice-invited-password' });
    expect(joined.status, joined.text).toBe(200);
    expect(joined.json.role).toBe('developer');
  });

  it.each([
    ['no token', ''],
    ['a short token', '?token=abc'],
    ['a token nobody issued', `?token=${randomBytes(32).toString('base64url')}`],
    ['two tokens', `?token=${randomBytes(32).toString('base64url')}&token=x`],
    ['a hostile token', `?token=${encodeURIComponent("' OR 1=1; --\u0000<script>")}`],
    ['a very long token', `?token=${'A'.repeat(10_000)}`],
  ])('the page says the link is not valid for %s (never a 5xx)', async (_name, query) => {
    const opened = await page(`/invitations/accept${query}`);
    expect(opened.status).toBe(200);
    expect(opened.text).toContain('not a valid invitation link');
  });

  it.each([
    ['a token nobody issued', { token: randomBytes(32).toString('base64url'), password: 'long-enough-password' }, 404, null],
    ['a malformed token', { token: 'abc', password: 'long-enough-password' }, 422, 'token'],
    ['a NUL in the token', { token: `${'A'.repeat(42)}\u0000`, password: 'long-enough-password' }, 422, 'token'],
    ['no token', { password: 'long-enough-password' }, 422, 'token'],
    ['a huge password', { token: randomBytes(32).toString('base64url'), password: 'p'.repeat(5_000) }, 422, 'password'],
    [
      'a NUL in the password',
      { token: randomBytes(32).toString('base64url'), password: 'long-enough\u0000password' },
      422,
      'password',
    ],
    [
      'a lone surrogate in the password',
      { token: randomBytes(32).toString('base64url'), password: 'long-enough\ud800password' },
      422,
      'password',
    ],
  ])('POST accept-invitation refuses %s', async (_name, body, status, path) => {
    const answer = await accept(body);
    expect(answer.status, answer.text).toBe(status);
    if (path) expect(answer.json.error.details.map((d: { path: string }) => d.path)).toContain(path);
    else
      expect(answer.json.error).toMatchObject({
        code: 'not_found',
        message: expect.stringContaining('not a valid invitation link'),
      });
  });
});

describe('who accepts', () => {
  it('signed in as another user: 409 saying who, the page offers to sign out, and the link still works', async () => {
    const owner = await signUp('Host');
    const someoneElse = await signUp('Wrong');
    const email = newEmail('right');
    const { link, token } = await invitedLink(owner, email);
    const refused = await accept({ token, password: 'right-user-password' }, someoneElse.cookie);
    expect(refused.status, refused.text).toBe(409);
    expect(refused.json.error.message).toContain(`signed in as ${await emailOf(someoneElse)}`);
    expect(refused.json.error.message).toContain(email);
    const opened = await page(pathOf(link), someoneElse.cookie);
    expect(opened.text).toContain('You are signed in as');
    expect(opened.text).toContain('Sign out of');
    // Signed in, the accept needs the session's CSRF token.
    const forged = await fetch(`${appUrl}/portal-api/auth/accept-invitation`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: someoneElse.cookie, 'x-forwarded-for': freshAddress() },
      body: JSON.stringify({ token }),
    });
    expect(forged.status).toBe(403);
    expect((await accept({ token, password: 'right-user-password' })).status).toBe(200);
  });

  it('signed in as the invited user: one click joins, and the session switches to the account', async () => {
    const owner = await signUp('Direct');
    const member = await signUp('Joiner');
    const { link, token } = await invitedLink(owner, await emailOf(member), 'developer');
    const opened = await page(pathOf(link), member.cookie);
    expect(opened.text).toContain(`Join ${owner.name}`);
    const joined = await accept({ token }, member.cookie);
    expect(joined.status, joined.text).toBe(200);
    expect((await portal(member.cookie, 'GET', '/portal-api/session')).json.account.id).toBe(owner.accountId);
  });

  it('a user who became a member meanwhile: told so, not duplicated, role kept', async () => {
    const owner = await signUp('Meanwhile');
    const member = await signUp('Already');
    const { token } = await invitedLink(owner, await emailOf(member), 'viewer');
    const user = await db.user.findFirstOrThrow({ where: { email: await emailOf(member) }, select: { id: true } });
    await db.membership.create({ data: { accountId: owner.accountId, userId: user.id, role: 'developer' } });
    const joined = await accept({ token, password: PASSWORD(member) });
    expect(joined.status, joined.text).toBe(200);
    expect(joined.json).toMatchObject({
      alreadyMember: true,
      role: 'developer',
      message: expect.stringContaining('already a member'),
    });
    expect(await db.membership.count({ where: { accountId: owner.accountId, userId: user.id } })).toBe(1);
  });
});

describe('sending invitations: refusals and limits', () => {
  it('refuses an existing member with 409 naming email, in any case', async () => {
    const owner = await signUp('Members');
    const mine = await emailOf(owner);
    for (const email of [mine, mine.toUpperCase(), `  ${mine.replace(/^./, (c) => c.toUpperCase())}  `]) {
      const answer = await invite(owner, email);
      expect(answer.status, answer.text).toBe(409);
      expect(answer.json.error.details).toEqual([{ path: 'email', message: expect.stringContaining('already a member') }]);
    }
  });

  it.each([
    ['a bad e-mail', { email: 'not-an-email', role: 'viewer' }, 'email'],
    ['a 5,000-character e-mail', { email: `${'a'.repeat(5_000)}@example.com`, role: 'viewer' }, 'email'],
    ['a NUL in the e-mail', { email: 'a\u0000b@example.com', role: 'viewer' }, 'email'],
    ['a lone surrogate in the e-mail', { email: 'a\ud800b@example.com', role: 'viewer' }, 'email'],
    ['no e-mail', { role: 'viewer' }, 'email'],
    ['an unknown role', { email: 'someone@example.com', role: 'superuser' }, 'role'],
    ['a role of another type', { email: 'someone@example.com', role: ['owner'] }, 'role'],
    ['no role', { email: 'someone@example.com' }, 'role'],
  ])('refuses %s with a 422 naming the field', async (_name, body, path) => {
    const owner = await signUp('Bad');
    const answer = await portal(owner.cookie, 'POST', '/portal-api/invitations', body);
    expect(answer.status, answer.text).toBe(422);
    expect(answer.json.error.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('refuses non-JSON and a missing CSRF token; a viewer may neither list nor invite', async () => {
    const owner = await signUp('Guard');
    expect((await portal(owner.cookie, 'POST', '/portal-api/invitations', undefined, { raw: '{"email":' })).status).toBe(400);
    const noCsrf = await fetch(`${appUrl}/portal-api/invitations`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: owner.cookie,
        'x-carrier-environment': 'test',
        'x-forwarded-for': freshAddress(),
      },
      body: JSON.stringify({ email: newEmail('csrf'), role: 'viewer' }),
    });
    expect(noCsrf.status).toBe(403);
    const { token } = await invitedLink(owner, newEmail('viewer'), 'viewer');
    const viewer = (await accept({ token, password: 'viewer-password-1' })).cookie;
    expect((await portal(viewer, 'GET', '/portal-api/invitations')).status).toBe(403);
    expect((await invite(viewer, newEmail('by-viewer'))).status).toBe(403);
  });

  it('builds links from APP_URL, never from the Host a client sends', async () => {
    const owner = await signUp('Poison');
    const email = newEmail('poisoned');
    const before = inbox.length;
    expect(
      (await invite(owner, email, 'viewer', { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' })).status,
    ).toBe(201);
    const mail = await mailTo(email, before);
    expect(mail.text).not.toContain('evil.example');
    expect(linkIn(mail).startsWith(appUrl)).toBe(true);
  });

  it('limits invitations per e-mail, per account and per address with a 429 and Retry-After', async () => {
    // Per invited e-mail (re-sending to one inbox).
    const owner = await signUp('Limited');
    const email = newEmail('spammed');
    for (let i = 0; i < PER_EMAIL; i++) expect((await invite(owner, email)).status).toBe(201);
    const perEmail = await invite(owner, email);
    expect(perEmail.status, perEmail.text).toBe(429);
    expect(perEmail.json.error.code).toBe('rate_limited');
    expect(Number(perEmail.headers.get('retry-after'))).toBeGreaterThan(0);

    // Per account, whatever the e-mails and addresses.
    const busy = await signUp('Busy');
    for (let i = 0; i < PER_ACCOUNT; i++) expect((await invite(busy, newEmail(`many${i}`))).status).toBe(201);
    const perAccount = await invite(busy, newEmail('one-more'));
    expect(perAccount.status, perAccount.text).toBe(429);
    expect(perAccount.json.error.message).toContain('This account has sent too many invitations');
    expect(Number(perAccount.headers.get('retry-after'))).toBeGreaterThan(0);

    // Per sender's address, across accounts.
    const address = freshClientAddress();
    const senders = [await signUp('AddrOne'), await signUp('AddrTwo')];
    for (let i = 0; i < PER_ADDRESS; i++) {
      const sent = await invite(senders[i % 2], newEmail(`addr${i}`), 'viewer', { 'x-forwarded-for': address });
      expect(sent.status, sent.text).toBe(201);
    }
    const perAddress = await invite(senders[0], newEmail('addr-x'), 'viewer', { 'x-forwarded-for': address });
    expect(perAddress.status).toBe(429);
    expect(Number(perAddress.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
