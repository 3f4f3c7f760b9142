import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { baseUrl } from './support/api';
import { addMember, portalCall as portal, signUp, type PortalAnswer, type Shipper } from './support/portal';

// The teams routes (invitations, accepting one, verifying a sign-up, switching accounts, members, the audit
// log), attacked as an outsider would: NUL and lone surrogates in every text, the largest body the limit allows
// and one past it, malformed escapes and NUL in paths and queries, impossible dates, another account's ids, the other
// environment, a stale tab, and two sessions at once. Every answer is a 4xx envelope naming what is wrong, or works;
// never a 5xx, and nothing is written by a refused request.

function refused(answer: PortalAnswer, status: number, code?: string, field?: string) {
  expect(answer.status, answer.text.slice(0, 300)).toBe(status);
  expect(answer.json?.error?.message, answer.text.slice(0, 300)).toEqual(expect.any(String));
  if (code) expect(answer.json.error.code, answer.text.slice(0, 300)).toBe(code);
  if (field)
    expect(
      answer.json.error.details?.map((d: { path: string }) => d.path),
      answer.text.slice(0, 300),
    ).toContain(field);
}

/** A raw fetch of `path` with the session, for paths fetch must not normalise (escapes kept as written). */
async function rawGet(who: Shipper, path: string, method = 'GET'): Promise<number> {
  const answer = await fetch(baseUrl + path, {
    method,
    headers: {
      cookie: who.cookie,
      'x-csrf-token': who.csrf,
      'x-carrier-environment': 'test',
      'content-type': 'application/json',
    },
    body: method === 'GET' ? undefined : '{}',
  });
  await answer.arrayBuffer();
  return answer.status;
}

/** Hostile strings as raw JSON escapes, so that the server receives them as written (JSON.stringify would fix them). */
const HOSTILE = ['a\\u0000b@example.com', '\\ud800@example.com', 'x@example.com\\udc00', '\\u0000', ''];
const PAST_THE_LIMIT = 1_000_001;

/** The newest invitation link's token mailed to `email` (the suite's server keeps mail in the outbox table). */
async function invitationToken(email: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const mail = await db.outboxMail.findFirst({ where: { to: email }, orderBy: { createdAt: 'desc' }, select: { links: true } });
    const link = mail?.links.find((l) => new URL(l).pathname === '/invitations/accept');
    if (link) return new URL(link).searchParams.get('token')!;
    if (Date.now() > deadline) throw new Error(`no invitation mailed to ${email}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('teams under attack: invitations, sign-up verification, account switching, members, the audit log', () => {
  it('invitations: hostile e-mails and roles, the body limit, another account, the other environment, paths', async () => {
    const [owner, other] = await Promise.all([signUp('AttackInvite'), signUp('AttackInviteOther')]);
    for (const email of HOSTILE) {
      refused(
        await portal(owner, 'POST', '/portal-api/invitations', { rawBody: `{"email":"${email}","role":"viewer"}` }),
        422,
        'validation_failed',
        'email',
      );
    }
    for (const role of ['\\u0000', '\\ud800', 'owner\\u0000', 'OWNER', 'root', '', '1']) {
      refused(
        await portal(owner, 'POST', '/portal-api/invitations', {
          rawBody: `{"email":"ok-${randomUUID().slice(0, 6)}@example.com","role":"${role}"}`,
        }),
        422,
        'validation_failed',
        'role',
      );
    }
    for (const raw of [
      '[]',
      'null',
      '"x"',
      '{"email":["a@example.com"],"role":"viewer"}',
      '{"email":{"$ne":1},"role":"viewer"}',
      '{',
      '\u0000',
    ]) {
      const answer = await portal(owner, 'POST', '/portal-api/invitations', { rawBody: raw });
      expect(answer.status, `${raw}: ${answer.text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
    }
    // The largest body the portal reads (1 MB): an e-mail far past 254 characters, refused by name; one byte past: 413.
    const near = JSON.stringify({ email: `${'a'.repeat(999_900)}@example.com`, role: 'viewer' });
    expect(Buffer.byteLength(near)).toBeLessThanOrEqual(1_000_000);
    refused(await portal(owner, 'POST', '/portal-api/invitations', { rawBody: near }), 422, 'validation_failed', 'email');
    const past = JSON.stringify({ email: `${'a'.repeat(PAST_THE_LIMIT)}@example.com`, role: 'viewer' });
    refused(await portal(owner, 'POST', '/portal-api/invitations', { rawBody: past }), 413);
    expect(await db.invitation.count({ where: { accountId: owner.accountId } })).toBe(0);

    // One that works; the other account can neither see nor revoke it; in live it is the same (members are both).
    const email = `invited-${randomUUID().slice(0, 8)}@example.com`;
    const made = await portal(owner, 'POST', '/portal-api/invitations', { body: { email, role: 'viewer' }, env: 'live' });
    expect(made.status, made.text).toBe(201);
    const id = made.json.invitation.id as string;
    expect((await portal(other, 'GET', '/portal-api/invitations')).json.invitations).toEqual([]);
    refused(await portal(other, 'DELETE', `/portal-api/invitations/${id}`), 404, 'not_found');
    expect((await portal(owner, 'GET', '/portal-api/invitations')).json.invitations.map((i: { id: string }) => i.id)).toEqual([
      id,
    ]);
    for (const path of [
      `/portal-api/invitations/%ZZ`,
      `/portal-api/invitations/%00`,
      `/portal-api/invitations/%E0%A4%A`,
      `/portal-api/invitations/${id}%00`,
      `/portal-api/invitations/${'9'.repeat(5_000)}`,
    ]) {
      const status = await rawGet(owner, path, 'DELETE');
      expect(status, path).toBeGreaterThanOrEqual(400);
      expect(status, path).toBeLessThan(500);
    }
    for (const query of ['?x=%ZZ', '?%00=1', '?cursor=%ED%A0%80']) {
      const status = await rawGet(owner, `/portal-api/invitations${query}`);
      expect(status, query).toBeLessThan(500);
    }
    // Still open: no refused request touched it.
    expect((await db.invitation.findUniqueOrThrow({ where: { id } })).revokedAt).toBeNull();
  });

  it('accepting and verifying: hostile tokens and passwords, the body limit, a used link twice at once', async () => {
    const owner = await signUp('AttackAccept');
    for (const path of ['/portal-api/auth/accept-invitation', '/portal-api/auth/verify-email']) {
      for (const token of [
        '\\u0000'.repeat(43),
        '\\ud800'.repeat(43),
        'A'.repeat(42) + '\\u0000',
        '../../etc/passwd',
        '',
        'A'.repeat(10_000),
      ]) {
        refused(
          await portal(null, 'POST', path, { rawBody: `{"token":"${token}","password":"long-enough-password"}` }),
          422,
          'validation_failed',
          'token',
        );
      }
      // A token of the right shape that is nobody's: 404, never a 5xx.
      const unknown = await portal(null, 'POST', path, { body: { token: 'A'.repeat(43), password: 'long-enough-password' } });
      expect(unknown.status, unknown.text).toBeGreaterThanOrEqual(400);
      expect(unknown.status).toBeLessThan(500);
      refused(
        await portal(null, 'POST', path, {
          rawBody: JSON.stringify({ token: 'A'.repeat(43), password: 'p'.repeat(PAST_THE_LIMIT) }),
        }),
        413,
      );
    }
    const email = `accepting-${randomUUID().slice(0, 8)}@example.com`;
    expect((await portal(owner, 'POST', '/portal-api/invitations', { body: { email, role: 'developer' } })).status).toBe(201);
    const token = await invitationToken(email);
    for (const password of ['\\u0000long-enough-password', 'long-enough-\\ud800-password', 'long-enough-password\\udfff']) {
      refused(
        await portal(null, 'POST', '/portal-api/auth/accept-invitation', {
          rawBody: `{"token":"${token}","password":"${password}"}`,
        }),
        422,
        'validation_failed',
        'password',
      );
    }
    refused(
      await portal(null, 'POST', '/portal-api/auth/accept-invitation', { body: { token, password: 'x'.repeat(201) } }),
      422,
      'validation_failed',
      'password',
    );
    expect(await db.user.count({ where: { email } })).toBe(0);
    // The same link accepted twice at once: one user, one membership; the other answer is a 4xx.
    const both = await Promise.all(
      [0, 1].map(() =>
        portal(null, 'POST', '/portal-api/auth/accept-invitation', { body: { token, password: 'a-good-new-password' } }),
      ),
    );
    expect(both.map((b) => b.status).sort()).toEqual([200, 410]);
    expect(await db.membership.count({ where: { accountId: owner.accountId, user: { email } } })).toBe(1);
  });

  it('switching accounts: hostile and foreign account ids, a stale tab, two tabs at once', async () => {
    const [owner, stranger] = await Promise.all([signUp('AttackSwitch'), signUp('AttackSwitchStranger')]);
    const member = await addMember(owner, 'admin');
    for (const accountId of ['\\u0000', '\\ud800', `${owner.accountId}\\u0000`, 'x'.repeat(5_000), '']) {
      refused(
        await portal(member, 'POST', '/portal-api/session/account', { rawBody: `{"accountId":"${accountId}"}` }),
        422,
        'validation_failed',
        'accountId',
      );
    }
    // An account the user is not a member of (a real one, and one that does not exist): 404 naming accountId.
    refused(
      await portal(member, 'POST', '/portal-api/session/account', { body: { accountId: stranger.accountId } }),
      404,
      'not_found',
      'accountId',
    );
    refused(
      await portal(member, 'POST', '/portal-api/session/account', { body: { accountId: randomUUID() } }),
      404,
      'not_found',
      'accountId',
    );
    // A page of another account (a stale tab), and a header that is no account id at all: 409, nothing written.
    for (const page of [stranger.accountId, 'not-an-account', '%00']) {
      refused(
        await portal(member, 'POST', '/portal-api/invitations', {
          body: { email: `stale-${randomUUID().slice(0, 6)}@example.com`, role: 'viewer' },
          headers: { 'x-carrier-account': page },
        }),
        409,
        'account_changed',
      );
    }
    expect(await db.invitation.count({ where: { accountId: owner.accountId } })).toBe(0);
    // Two tabs switching at once to the same account: both succeed, one session, the account the user is in.
    const both = await Promise.all(
      [0, 1].map(() => portal(member, 'POST', '/portal-api/session/account', { body: { accountId: owner.accountId } })),
    );
    expect(both.map((b) => b.status)).toEqual([200, 200]);
    expect((await portal(member, 'GET', '/portal-api/session/accounts')).json.accounts).toHaveLength(1);
  });

  it('members: hostile roles and ids, another account, removing twice at once', async () => {
    const [owner, other] = await Promise.all([signUp('AttackMembers'), signUp('AttackMembersOther')]);
    const viewer = await addMember(owner, 'viewer', { signIn: false });
    const outsider = await addMember(other, 'viewer', { signIn: false });
    for (const role of ['\\u0000', '\\ud800', 'admin\\u0000', 'superuser', '']) {
      refused(
        await portal(owner, 'PATCH', `/portal-api/members/${viewer.membershipId}`, { rawBody: `{"role":"${role}"}` }),
        422,
        'validation_failed',
        'role',
      );
    }
    for (const tokens of ['\\u0000', 'delete', '\\ud800']) {
      refused(
        await portal(owner, 'DELETE', `/portal-api/members/${viewer.membershipId}`, { rawBody: `{"tokens":"${tokens}"}` }),
        422,
        'validation_failed',
        'tokens',
      );
    }
    refused(
      await portal(owner, 'PATCH', `/portal-api/members/${viewer.membershipId}`, {
        rawBody: JSON.stringify({ role: 'x'.repeat(PAST_THE_LIMIT) }),
      }),
      413,
    );
    // Another account's member: 404 for a change and a removal; their role and membership unchanged.
    refused(
      await portal(owner, 'PATCH', `/portal-api/members/${outsider.membershipId}`, { body: { role: 'admin' } }),
      404,
      'not_found',
    );
    refused(await portal(owner, 'DELETE', `/portal-api/members/${outsider.membershipId}`), 404, 'not_found');
    expect((await db.membership.findUniqueOrThrow({ where: { id: outsider.membershipId } })).role).toBe('viewer');
    for (const path of [
      '/portal-api/members/%ZZ',
      '/portal-api/members/%00',
      `/portal-api/members/${viewer.membershipId}%00`,
      `/portal-api/members/${'f'.repeat(5_000)}`,
    ]) {
      const status = await rawGet(owner, path, 'PATCH');
      expect(status, path).toBeGreaterThanOrEqual(400);
      expect(status, path).toBeLessThan(500);
    }
    expect((await db.membership.findUniqueOrThrow({ where: { id: viewer.membershipId } })).role).toBe('viewer');
    // Removed twice at once: one removal, the other a 404; the audit log says it once.
    const both = await Promise.all([0, 1].map(() => portal(owner, 'DELETE', `/portal-api/members/${viewer.membershipId}`)));
    expect(both.map((b) => b.status).sort()).toEqual([200, 404]);
    expect(await db.auditEvent.count({ where: { accountId: owner.accountId, action: 'member.removed' } })).toBe(1);
  });

  it('the audit log: hostile filters, impossible dates, a forged cursor, another account, the export', async () => {
    const [owner, other] = await Promise.all([signUp('AttackAudit'), signUp('AttackAuditOther')]);
    for (const path of ['/portal-api/audit', '/portal-api/audit/export']) {
      for (const query of [
        'action=%00',
        'action=%ED%A0%80',
        'action=%ZZ',
        `actor=${'a'.repeat(10_000)}`,
        'actor=%00',
        'from=0000-01-01',
        'from=2026-02-30',
        'to=2026-13-01',
        'from=2026-11-24&to=2026-11-01',
        'from=99999-01-01',
        'from=%00',
        'limit=-1',
        'limit=1e9',
        'limit=%00',
        'cursor=%00',
        'cursor=not-a-cursor',
        'cursor=eyJ0IjoiMDAwMC0wMS0wMSIsImlkIjoiLTEifQ',
        'action=a&action=b',
        'unknown=1',
      ]) {
        const answer = await portal(owner, 'GET', `${path}?${query}`);
        expect(answer.status, `${path}?${query.slice(0, 40)}: ${answer.text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
        expect(answer.status, `${path}?${query.slice(0, 40)}`).toBeLessThan(500);
        expect(answer.json?.error?.code, `${path}?${query.slice(0, 40)}`).toEqual(expect.any(String));
      }
    }
    // The other account's log never shows the owner's rows, in either environment.
    await portal(owner, 'POST', '/portal-api/invitations', {
      body: { email: `audit-${randomUUID().slice(0, 6)}@example.com`, role: 'viewer' },
    });
    const mine = await portal(owner, 'GET', '/portal-api/audit');
    expect(mine.status, mine.text).toBe(200);
    expect(JSON.stringify(mine.json)).toContain('invitation.created');
    for (const env of ['test', 'live'] as const) {
      const theirs = await portal(other, 'GET', '/portal-api/audit', { env });
      expect(JSON.stringify(theirs.json)).not.toContain('invitation.created');
    }
  });
});
