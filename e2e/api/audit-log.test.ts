import { createHash, randomBytes, randomUUID } from 'node:crypto';
import Papa from 'papaparse';
import { beforeAll, describe, expect, it } from 'vitest';
import { pruneAuditLog } from '@/lib/audit/retention';
import { db, pgPool, pgTransaction } from '@/lib/db';
import { execute, queryRow, queryRows, sql } from '@/lib/sql';
import { baseUrl, call, tracking, type Env } from './support/api';
import { signUp, type Shipper } from './support/portal';
import { containerSample, packageSample } from './support/samples';

// The audit log (lib/audit) on the real server: each wired action writes exactly one row with its actor,
// the trusted client address and its target, never a secret; the table refuses UPDATE and DELETE (the retention
// job alone deletes, only rows over a year old); GET /portal-api/audit and its CSV export filter, page and stay
// inside the account, for owners and admins only.

interface AuditRow {
  id: string;
  account_id: string;
  environment: string | null;
  occurred_at: Date;
  actor_kind: string;
  actor_user_id: string | null;
  actor_email: string | null;
  actor_token_id: string | null;
  actor_label: string;
  client_address: string | null;
  user_agent: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  details: Record<string, unknown>;
}

const PUBLIC_URL = 'https://93.184.215.14/hooks/carrier';
let addressCounter = 0;
/** A fresh client address per request, named by the test server's trusted proxy (127.0.0.1). */
const freshAddress = () => `198.18.${200 + Math.floor(addressCounter / 250)}.${(addressCounter++ % 250) + 1}`;

interface Sent {
  status: number;
  text: string;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- assertions read arbitrary fields
  headers: Headers;
  address: string;
}

/**
 * A portal-api request from `address` (default: a fresh one). `spoofed` goes first in X-Forwarded-For, as a client
 * would forge it; the test server trusts only 127.0.0.1, so the client is the entry after it.
 */
async function portal(
  who: { cookie: string; csrf: string } | null,
  method: string,
  path: string,
  options: { body?: unknown; env?: Env; spoofed?: string; userAgent?: string } = {},
): Promise<Sent> {
  const address = freshAddress();
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-forwarded-for': options.spoofed ? `${options.spoofed}, ${address}` : address,
    'x-carrier-environment': options.env ?? 'test',
    'user-agent': options.userAgent ?? 'audit-suite/1.0',
  };
  if (who) {
    headers.cookie = who.cookie;
    headers['x-csrf-token'] = who.csrf;
  }
  const response = await fetch(baseUrl + path, {
    method,
    headers,
    body: options.body === undefined ? (method === 'GET' ? undefined : '{}') : JSON.stringify(options.body),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, text, json, headers: response.headers, address };
}

async function rows(accountId: string, action?: string): Promise<AuditRow[]> {
  return queryRows(
    pgPool(),
    sql<AuditRow>`SELECT id::text AS id, account_id::text AS account_id, environment, occurred_at, actor_kind, actor_user_id::text AS actor_user_id,
                    actor_email, actor_token_id::text AS actor_token_id, actor_label, client_address, user_agent, action, target_type, target_id, details
                  FROM audit_events WHERE account_id = ${accountId}::uuid ${action ? sql`AND action = ${action}` : sql.empty}
                  ORDER BY occurred_at, id`,
  );
}

/** The one row of `action` for `target` (fails when there are none or several). */
async function one(accountId: string, action: string, targetId?: string): Promise<AuditRow> {
  const found = (await rows(accountId, action)).filter((r) => targetId === undefined || r.target_id === targetId);
  expect(found, `${action} rows for ${targetId ?? 'any target'}`).toHaveLength(1);
  return found[0];
}

async function signIn(
  email: string,
  password: string,
  options: { spoofed?: string; userAgent?: string } = {},
): Promise<Sent & { cookie: string }> {
  const sent = await portal(null, 'POST', '/portal-api/auth/sign-in', { body: { email, password }, ...options });
  const cookie = /carrier_session=[^;]+/.exec(sent.headers.get('set-cookie') ?? '')?.[0] ?? '';
  return { ...sent, cookie };
}

/** A user of its own with a session, signed up through the portal (the owner of a new account). */
async function owner(label: string): Promise<Shipper & { email: string; userId: string; password: string }> {
  const shipper = await signUp(label);
  const member = await db.membership.findFirstOrThrow({
    where: { accountId: shipper.accountId },
    select: { user: { select: { id: true, email: true } } },
  });
  const password = `pw-${shipper.name.split(' ').at(-1)}-correct-horse`;
  return { ...shipper, email: member.user.email, userId: member.user.id, password };
}

/** A member of `accountId` with `role`, with a session acting for that account, written straight to the database. */
async function memberWithRole(accountId: string, role: 'owner' | 'admin' | 'developer' | 'operator' | 'viewer') {
  const user = await db.user.create({
    data: { email: `audit-${role}-${randomUUID().slice(0, 8)}@example.com`, passwordHash: 'x' },
  });
  await db.membership.create({ data: { accountId, userId: user.id, role } });
  const secret = randomBytes(32).toString('base64url');
  const csrf = randomBytes(32).toString('base64url');
  await db.session.create({
    data: {
      id: createHash('sha256').update(secret).digest('hex'),
      userId: user.id,
      accountId,
      csrfToken: csrf,
      expiresAt: new Date(Date.now() + 3_600_000),
      lastSeenAt: new Date(),
    },
  });
  return { cookie: `carrier_session=${secret}`, csrf, userId: user.id, email: user.email };
}

/** Every text of a row, for "no secret anywhere in it". */
const rowText = (r: AuditRow) => JSON.stringify(r);

let acme: Awaited<ReturnType<typeof owner>>;
let globex: Awaited<ReturnType<typeof owner>>;

beforeAll(async () => {
  acme = await owner('AuditAcme');
  globex = await owner('AuditGlobex');
});

describe('sign-in', () => {
  it('records a sign-in with the user, the trusted client address (not a forged X-Forwarded-For) and the user agent', async () => {
    const sent = await signIn(acme.email, acme.password, { spoofed: '6.6.6.6', userAgent: 'Mozilla/5.0 audit' });
    expect(sent.status, sent.text).toBe(200);
    const row = await one(acme.accountId, 'auth.sign_in');
    expect(row).toMatchObject({
      actor_kind: 'user',
      actor_user_id: acme.userId,
      actor_email: acme.email,
      actor_label: acme.email,
      client_address: sent.address,
      user_agent: 'Mozilla/5.0 audit',
      target_type: 'user',
      target_id: acme.userId,
      environment: null,
    });
    expect(row.client_address).not.toBe('6.6.6.6');
    expect(rowText(row)).not.toContain(acme.password);
  });

  it('records a wrong password in every account of the user, with the address; an unknown e-mail leaves no row', async () => {
    const user = await owner('AuditTwoAccounts');
    // The same user is also an operator of globex.
    await db.membership.create({ data: { accountId: globex.accountId, userId: user.userId, role: 'operator' } });
    const wrong = await signIn(user.email, 'not-the-password-at-all', { spoofed: '7.7.7.7' });
    expect(wrong.status, wrong.text).toBe(401);
    for (const accountId of [user.accountId, globex.accountId]) {
      const row = await one(accountId, 'auth.sign_in_failed', user.userId);
      expect(row).toMatchObject({ actor_kind: 'user', actor_email: user.email, client_address: wrong.address });
      expect(rowText(row)).not.toContain('not-the-password-at-all');
    }
    const unknown = `nobody-${randomUUID()}@example.com`;
    const answer = await signIn(unknown, 'whatever-password-1');
    expect(answer.status).toBe(401);
    const left = await queryRow(
      pgPool(),
      sql<{
        n: number;
      }>`SELECT count(*)::int AS n FROM audit_events WHERE actor_email = ${unknown} OR client_address = ${answer.address}`,
    );
    expect(left?.n).toBe(0);
  });
});

describe('passwords and sessions', () => {
  it('records a password change (once, no password in it) in each account of the user', async () => {
    const user = await owner('AuditPassword');
    const newPassword = `new-${randomUUID()}-battery-staple`;
    const sent = await portal(user, 'POST', '/portal-api/account/password', {
      body: { currentPassword: user.password, newPassword },
    });
    expect(sent.status, sent.text).toBe(200);
    const row = await one(user.accountId, 'auth.password_changed', user.userId);
    expect(row).toMatchObject({ actor_user_id: user.userId, client_address: sent.address, user_agent: 'audit-suite/1.0' });
    expect(rowText(row)).not.toContain(newPassword);
    expect(rowText(row)).not.toContain(user.password);
  });

  it('records a password reset by link, the link never in the row', async () => {
    const user = await owner('AuditReset');
    const token = randomBytes(32).toString('base64url');
    await db.passwordReset.create({
      data: {
        userId: user.userId,
        tokenHash: createHash('sha256').update(token).digest('hex'),
        expiresAt: new Date(Date.now() + 600_000),
      },
    });
    const password = `reset-${randomUUID()}-battery`;
    const sent = await portal(null, 'POST', '/portal-api/auth/reset-password', { body: { token, password } });
    expect(sent.status, sent.text).toBe(200);
    const row = await one(user.accountId, 'auth.password_reset', user.userId);
    expect(row).toMatchObject({ actor_user_id: user.userId, actor_email: user.email, client_address: sent.address });
    expect(rowText(row)).not.toContain(token);
    expect(rowText(row)).not.toContain(password);
  });

  it('records "sign out everywhere" once', async () => {
    const user = await owner('AuditSessions');
    const sent = await portal(user, 'DELETE', '/portal-api/account/sessions');
    expect(sent.status, sent.text).toBe(200);
    const row = await one(user.accountId, 'auth.sessions_revoked', user.userId);
    expect(row.details).toMatchObject({ all: true, sessions_ended: 1 });
    expect(row.client_address).toBe(sent.address);
  });
});

describe('tokens, webhooks, settings', () => {
  it('records a token created and revoked in the portal: name and prefix, never the token; revoking again adds nothing', async () => {
    const created = await portal(acme, 'POST', '/portal-api/tokens', { body: { name: 'Audit WMS' } });
    expect(created.status, created.text).toBe(201);
    const { id, token } = created.json as { id: string; token: string };
    const row = await one(acme.accountId, 'token.created', id);
    expect(row).toMatchObject({
      environment: 'test',
      actor_email: acme.email,
      client_address: created.address,
      target_type: 'api_token',
    });
    expect(row.details).toMatchObject({ name: 'Audit WMS', prefix: token.slice(0, 12) });
    expect(rowText(row)).not.toContain(token);
    for (let i = 0; i < 2; i++) expect((await portal(acme, 'DELETE', `/portal-api/tokens/${id}`)).status).toBe(200);
    await one(acme.accountId, 'token.revoked', id);
  });

  it('records webhook changes made with an API token: the token (name and prefix) is the actor, no secret is kept', async () => {
    const made = await portal(acme, 'POST', '/portal-api/tokens', { body: { name: 'Hooks bot' } });
    const token = (made.json as { token: string }).token;
    const headers = { 'x-forwarded-for': '5.5.5.5, 198.18.99.7', 'user-agent': 'hooks-bot/2' };
    const created = await call('/webhooks', { token, body: { url: PUBLIC_URL, events: ['package.sorting'] }, headers });
    expect(created.status, created.text).toBe(201);
    const id = created.json.id as string;
    expect((await call(`/webhooks/${id}`, { method: 'PATCH', token, body: { description: 'Hub' }, headers })).status).toBe(200);
    const rotated = await call(`/webhooks/${id}/rotate-secret`, { token, body: { grace_period_seconds: 0 }, headers });
    expect(rotated.status, rotated.text).toBe(200);
    expect((await call(`/webhooks/${id}`, { method: 'DELETE', token, headers })).status).toBe(204);
    const secrets = [created.json.secret as string, rotated.json.secret as string];
    for (const action of ['webhook.created', 'webhook.updated', 'webhook.secret_rotated', 'webhook.deleted']) {
      const row = await one(acme.accountId, action, id);
      expect(row).toMatchObject({
        actor_kind: 'api_token',
        actor_email: null,
        client_address: '198.18.99.7',
        user_agent: 'hooks-bot/2',
        environment: 'test',
      });
      expect(row.actor_label).toBe(`Hooks bot (${token.slice(0, 12)}…)`);
      for (const secret of secrets) expect(rowText(row)).not.toContain(secret);
      expect(rowText(row)).not.toContain(token);
    }
    expect((await one(acme.accountId, 'webhook.updated', id)).details).toMatchObject({ fields: ['description'] });
  });

  it('records a close-out settings change (and nothing for a save that changes nothing)', async () => {
    const user = await owner('AuditSettings');
    for (let i = 0; i < 2; i++) {
      const sent = await portal(user, 'PUT', '/portal-api/settings/close-out', {
        body: { cutoff_hour: 17, time_zone: 'Europe/Paris' },
        env: 'live',
      });
      expect(sent.status, sent.text).toBe(200);
    }
    const row = await one(user.accountId, 'settings.updated');
    expect(row).toMatchObject({ environment: 'live', target_type: 'settings', target_id: 'close_out' });
    expect(row.details).toMatchObject({ cutoff_hour: 17, cutoff_hour_before: null, time_zone: 'Europe/Paris' });
  });
});

describe('manifests and packages', () => {
  it('records a package cancelled in the portal and one cancelled through the API, each by its actor, once', async () => {
    const user = await owner('AuditCancel');
    const [a, b] = [tracking('AUA'), tracking('AUB')];
    for (const number of [a, b])
      expect((await call('/wf/package', { token: user.tokens.test, body: packageSample(number) })).status).toBe(200);
    const byPortal = await portal(user, 'POST', `/portal-api/packages/${a}/cancel`);
    expect(byPortal.status, byPortal.text).toBe(200);
    expect((await portal(user, 'POST', `/portal-api/packages/${a}/cancel`)).status).toBe(200);
    const byApi = await call(`/packages/${b}/cancel`, { token: user.tokens.test, headers: { 'x-forwarded-for': '198.18.98.3' } });
    expect(byApi.status, byApi.text).toBe(200);
    expect(await one(user.accountId, 'package.cancelled', a)).toMatchObject({
      actor_kind: 'user',
      actor_email: user.email,
      client_address: byPortal.address,
    });
    const api = await one(user.accountId, 'package.cancelled', b);
    expect(api).toMatchObject({ actor_kind: 'api_token', client_address: '198.18.98.3', target_type: 'package' });
    expect(api.actor_label).toContain(user.tokens.test.slice(0, 12));
  });

  it('records a container manifest cancelled and a daily manifest closed', async () => {
    const user = await owner('AuditManifest');
    const container = await call('/wf/manifest', {
      token: user.tokens.test,
      body: containerSample(`ULD-${randomUUID().slice(0, 8)}`, [tracking('AUC')]),
    });
    expect(container.status, container.text).toBe(200);
    const manifestId = container.json.ManifestID as string;
    expect((await portal(user, 'POST', `/portal-api/manifests/${manifestId}/cancel`)).status).toBe(200);
    const cancelled = await one(user.accountId, 'manifest.cancelled', manifestId);
    expect(cancelled.details).toMatchObject({ type: 'container', packages_cancelled: 1 });

    const pkg = await call('/wf/package', { token: user.tokens.test, body: packageSample(tracking('AUD')) });
    const daily = pkg.json.ManifestID as string;
    for (let i = 0; i < 2; i++) expect((await portal(user, 'POST', `/portal-api/manifests/${daily}/close`)).status).toBe(200);
    expect(await one(user.accountId, 'manifest.closed', daily)).toMatchObject({ actor_email: user.email, environment: 'test' });
  });
});

describe('members, invitations and writes in live', () => {
  it("records a role change and a removal, each once, in the change's transaction; a change to the same role records nothing", async () => {
    const team = await owner('AuditTeam');
    const member = await memberWithRole(team.accountId, 'viewer');
    const membership = await db.membership.findFirstOrThrow({
      where: { accountId: team.accountId, userId: member.userId },
      select: { id: true },
    });
    const changed = await portal(team, 'PATCH', `/portal-api/members/${membership.id}`, { body: { role: 'operator' } });
    expect(changed.status, changed.text).toBe(200);
    expect((await portal(team, 'PATCH', `/portal-api/members/${membership.id}`, { body: { role: 'operator' } })).status).toBe(
      200,
    );
    const role = await one(team.accountId, 'member.role_changed', member.userId);
    expect(role).toMatchObject({
      actor_email: team.email,
      client_address: changed.address,
      target_type: 'member',
      environment: null,
    });
    expect(role.details).toMatchObject({ email: member.email, from: 'viewer', to: 'operator' });
    // The last owner's refused demotion writes nothing.
    const own = await db.membership.findFirstOrThrow({
      where: { accountId: team.accountId, userId: team.userId },
      select: { id: true },
    });
    expect((await portal(team, 'PATCH', `/portal-api/members/${own.id}`, { body: { role: 'admin' } })).status).toBe(409);
    expect(await rows(team.accountId, 'member.role_changed')).toHaveLength(1);
    const removed = await portal(team, 'DELETE', `/portal-api/members/${membership.id}`, { body: { tokens: 'revoke' } });
    expect(removed.status, removed.text).toBe(200);
    const row = await one(team.accountId, 'member.removed', member.userId);
    expect(row.details).toMatchObject({ email: member.email, role: 'operator', left: false });
  });

  it('records an invitation created, revoked, and another accepted (by the new user), never its link', async () => {
    const team = await owner('AuditInvite');
    const email = `audit-invitee-${randomUUID().slice(0, 8)}@example.com`;
    const first = await portal(team, 'POST', '/portal-api/invitations', { body: { email, role: 'developer' } });
    expect(first.status, first.text).toBe(201);
    const firstId = first.json.invitation.id as string;
    expect((await portal(team, 'DELETE', `/portal-api/invitations/${firstId}`)).status).toBe(200);
    expect((await portal(team, 'DELETE', `/portal-api/invitations/${firstId}`)).status).toBe(200);
    expect((await one(team.accountId, 'invitation.created', firstId)).details).toMatchObject({
      email,
      role: 'developer',
      replaced: false,
    });
    await one(team.accountId, 'invitation.revoked', firstId);

    // A second invitation, accepted through its link (read from the development outbox, as a test reads mail).
    const second = await portal(team, 'POST', '/portal-api/invitations', { body: { email, role: 'operator' } });
    expect(second.status, second.text).toBe(201);
    const secondId = second.json.invitation.id as string;
    // Mail leaves after the answer: wait for the second one (the first one's link was revoked).
    let mails: { links: string[] }[] = [];
    for (let i = 0; i < 50 && mails.length < 2; i++) {
      mails = await queryRows(
        pgPool(),
        sql<{ links: string[] }>`SELECT links FROM outbox_mails WHERE "to" = ${email} ORDER BY created_at DESC, id`,
      );
      if (mails.length < 2) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(mails).toHaveLength(2);
    const link = mails[0].links.find((l) => l.includes('/invitations/accept'));
    expect(link, 'invitation link in the outbox').toBeTruthy();
    const token = new URL(link!).searchParams.get('token')!;
    const accepted = await portal(null, 'POST', '/portal-api/auth/accept-invitation', {
      body: { token, password: 'a-new-password-123' },
    });
    expect(accepted.status, accepted.text).toBe(200);
    const row = await one(team.accountId, 'invitation.accepted', secondId);
    expect(row).toMatchObject({ actor_kind: 'user', actor_email: email, client_address: accepted.address });
    expect(row.details).toMatchObject({ role: 'operator', newUser: true });
    for (const r of await rows(team.accountId)) expect(rowText(r)).not.toContain(token);
  });

  it('records a portal write in live that no action names (a container built by hand), not one in test, and not twice', async () => {
    const team = await owner('AuditLive');
    const body = containerSample(`ULD-${randomUUID().slice(0, 8).toUpperCase()}`, [tracking('ALW')]);
    const inTest = await portal(team, 'POST', '/portal-api/manifests', { body, env: 'test' });
    expect(inTest.status, inTest.text).toBe(200);
    const inLive = await portal(team, 'POST', '/portal-api/manifests', { body, env: 'live' });
    expect(inLive.status, inLive.text).toBe(200);
    // A refused write in live is no write.
    expect((await portal(team, 'POST', '/portal-api/manifests', { body: {}, env: 'live' })).status).toBe(422);
    // A token made in live is token.created alone.
    expect((await portal(team, 'POST', '/portal-api/tokens', { body: { name: 'Live WMS' }, env: 'live' })).status).toBe(201);
    // Written after the answer (best effort): wait for it.
    let live: AuditRow[] = [];
    for (let i = 0; i < 50 && live.length === 0; i++) {
      live = await rows(team.accountId, 'live.write');
      if (live.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    live = await rows(team.accountId, 'live.write');
    expect(live).toHaveLength(1);
    expect(live[0]).toMatchObject({ environment: 'live', actor_email: team.email, client_address: inLive.address });
    expect(live[0].details).toMatchObject({ method: 'POST', path: '/manifests', status: 200 });
    const liveTokens = (await rows(team.accountId, 'token.created')).filter((r) => r.details.name === 'Live WMS');
    expect(liveTokens).toHaveLength(1);
    expect(liveTokens[0]).toMatchObject({ environment: 'live', actor_email: team.email });
  });
});

describe('append-only', () => {
  it('refuses UPDATE, DELETE and TRUNCATE through SQL', async () => {
    const [row] = await rows(acme.accountId);
    expect(row).toBeDefined();
    const refused = (statement: Promise<unknown>) =>
      statement.then(
        () => 'allowed',
        (error: { message?: string }) => error.message ?? 'refused',
      );
    expect(
      await refused(execute(pgPool(), sql`UPDATE audit_events SET action = 'auth.sign_in' WHERE id = ${row.id}::bigint`)),
    ).toMatch(/append-only/);
    expect(await refused(execute(pgPool(), sql`DELETE FROM audit_events WHERE id = ${row.id}::bigint`))).toMatch(/append-only/);
    expect(await refused(pgTransaction((c) => execute(c, sql`TRUNCATE audit_events`)))).toMatch(/append-only/);
    // The retention setting does not open a young row either, nor an UPDATE.
    const withSetting = (statement: ReturnType<typeof sql>) =>
      refused(
        pgTransaction(async (c) => {
          await execute(c, sql`SELECT set_config('carrier.audit_retention', 'on', true)`);
          return execute(c, statement);
        }),
      );
    expect(await withSetting(sql`DELETE FROM audit_events WHERE id = ${row.id}::bigint`)).toMatch(/append-only/);
    expect(
      await withSetting(sql`UPDATE audit_events SET occurred_at = now() - interval '2 years' WHERE id = ${row.id}::bigint`),
    ).toMatch(/append-only/);
    expect((await rows(acme.accountId)).find((r) => r.id === row.id)).toEqual(row);
  });

  it('retention deletes only rows over a year old, and an old row is refused outside the retention transaction', async () => {
    const accountId = randomUUID();
    const insert = (age: string, action: string) =>
      execute(
        pgPool(),
        sql`INSERT INTO audit_events (account_id, occurred_at, actor_kind, actor_label, action)
                            VALUES (${accountId}::uuid, now() - ${age}::interval, 'system', 'system', ${action})`,
      );
    await insert('400 days', 'token.created');
    await insert('366 days', 'token.revoked');
    await insert('364 days', 'webhook.created');
    await insert('1 hour', 'webhook.deleted');
    const old = (await rows(accountId)).find((r) => r.action === 'token.created')!;
    await expect(execute(pgPool(), sql`DELETE FROM audit_events WHERE id = ${old.id}::bigint`)).rejects.toThrow(/append-only/);
    while ((await pruneAuditLog()) > 0);
    expect((await rows(accountId)).map((r) => r.action)).toEqual(['webhook.created', 'webhook.deleted']);
  });
});

describe('GET /portal-api/audit and its CSV export', () => {
  let team: Awaited<ReturnType<typeof owner>>;
  const at = '2026-06-15 12:00:00.000+00';

  beforeAll(async () => {
    team = await owner('AuditReader');
    // Nine rows at one instant (a page boundary falls among them), their ids across a power of ten (as text 100 sorts
    // before 99: a list ordered by the text id skipped rows), two other actors, and a hostile one for the CSV.
    const base = 10n ** 12n - 4n; // each run has a database of its own
    for (let i = 0; i < 9; i++) {
      await execute(
        pgPool(),
        sql`INSERT INTO audit_events (id, account_id, occurred_at, actor_kind, actor_email, actor_label, action, target_type, target_id, client_address)
        VALUES (${(base + BigInt(i)).toString()}::bigint, ${team.accountId}::uuid, ${at}::timestamptz, 'user', 'same@example.com', 'same@example.com', 'webhook.updated', 'webhook_endpoint', ${`we_${i}`}, '198.18.0.1')`,
      );
    }
    await execute(
      pgPool(),
      sql`INSERT INTO audit_events (account_id, occurred_at, actor_kind, actor_email, actor_label, action, target_type, target_id, details)
      VALUES (${team.accountId}::uuid, '2026-06-10 08:00:00+00', 'user', 'other@example.com', 'other@example.com', 'token.created', 'api_token',
              '=HYPERLINK("http://evil")', ${JSON.stringify({ name: '@SUM(1+1)' })}::jsonb)`,
    );
    await execute(
      pgPool(),
      sql`INSERT INTO audit_events (account_id, occurred_at, actor_kind, actor_email, actor_label, action, user_agent)
      VALUES (${team.accountId}::uuid, '2026-06-20 08:00:00+00', 'user', 'third@example.com', '-2+3+cmd|'' /C calc''!A0', 'auth.sign_in', '+cmd')`,
    );
  });

  const list = (query: string, who: { cookie: string; csrf: string } = team) => portal(who, 'GET', `/portal-api/audit?${query}`);

  it('pages newest first by keyset: no row repeated or skipped across pages of equal timestamps', async () => {
    const all = await list('limit=100&from=2026-06-01&to=2026-06-30');
    expect(all.status, all.text).toBe(200);
    expect(all.json.data).toHaveLength(11);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Sent = await list(`limit=2&from=2026-06-01&to=2026-06-30${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status, page.text).toBe(200);
      seen.push(...(page.json.data as { id: string }[]).map((e) => e.id));
      cursor = page.json.next_cursor as string | null;
    } while (cursor);
    expect(seen).toEqual((all.json.data as { id: string }[]).map((e) => e.id));
    expect(new Set(seen).size).toBe(11);
    const times = (all.json.data as { occurred_at: string }[]).map((e) => e.occurred_at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('filters by action, actor (any case) and days', async () => {
    const byAction = await list('action=token.created&from=2026-06-01&to=2026-06-30');
    expect((byAction.json.data as { target: { id: string } }[]).map((e) => e.target.id)).toEqual(['=HYPERLINK("http://evil")']);
    const byActor = await list('actor=SAME@Example.com&limit=100');
    expect(byActor.json.data).toHaveLength(9);
    const byDays = await list('from=2026-06-15&to=2026-06-15&limit=100');
    expect(byDays.json.data).toHaveLength(9);
    const none = await list('from=2026-06-16&to=2026-06-19');
    expect(none.json.data).toHaveLength(0);
  });

  it('exports exactly the filtered rows as CSV, formula cells neutralised', async () => {
    const exported = await portal(team, 'GET', '/portal-api/audit/export?from=2026-06-01&to=2026-06-30&environment=test');
    expect(exported.status, exported.text).toBe(200);
    expect(exported.headers.get('content-type')).toMatch(/^text\/csv/);
    const parsed = Papa.parse<Record<string, string>>(exported.text, { header: true, skipEmptyLines: true });
    const listed = (await list('limit=100&from=2026-06-01&to=2026-06-30')).json.data as { id: string }[];
    expect(parsed.data.map((r) => r.id)).toEqual(listed.map((e) => e.id));
    const token = parsed.data.find((r) => r.action === 'token.created')!;
    expect(token.target_id).toBe(`'=HYPERLINK("http://evil")`);
    expect(JSON.parse(token.details)).toEqual({ name: '@SUM(1+1)' });
    const signIn = parsed.data.find((r) => r.action === 'auth.sign_in')!;
    expect(signIn.actor).toBe(`'-2+3+cmd|' /C calc'!A0`);
    expect(signIn.user_agent).toBe(`'+cmd`);
    const filtered = Papa.parse<Record<string, string>>(
      (await portal(team, 'GET', '/portal-api/audit/export?actor=same@example.com')).text,
      { header: true, skipEmptyLines: true },
    );
    expect(filtered.data).toHaveLength(9);
  });

  it("never shows another account's rows", async () => {
    const theirs = await list('limit=100', globex);
    expect(theirs.status).toBe(200);
    expect(
      (theirs.json.data as { id: string }[]).some((e) =>
        ['same@example.com', 'other@example.com'].includes((e as unknown as { actor: { email: string } }).actor.email),
      ),
    ).toBe(false);
    const csv = await portal(globex, 'GET', '/portal-api/audit/export?actor=same@example.com');
    expect(csv.text.trim().split('\r\n')).toHaveLength(1);
  });

  it('answers 403 to viewers, operators and developers, 200 to admins and owners', async () => {
    for (const role of ['viewer', 'operator', 'developer'] as const) {
      const member = await memberWithRole(team.accountId, role);
      for (const path of ['/portal-api/audit', '/portal-api/audit/export']) {
        const answer = await portal(member, 'GET', path);
        expect(answer.status, `${role} ${path}: ${answer.text}`).toBe(403);
        expect(answer.json.error.code).toBe('forbidden');
      }
    }
    for (const role of ['admin', 'owner'] as const) {
      const member = await memberWithRole(team.accountId, role);
      expect((await portal(member, 'GET', '/portal-api/audit')).status).toBe(200);
      expect((await portal(member, 'GET', '/portal-api/audit/export')).status).toBe(200);
    }
    expect((await portal(null, 'GET', '/portal-api/audit')).status).toBe(401);
  });

  it.each([
    ['actor', `actor=a%00b`],
    ['actor', `actor=${'x'.repeat(5_000)}`],
    ['action', 'action=auth.everything'],
    ['action', `action=${'y'.repeat(5_000)}`],
    ['from', 'from=2026-13-45'],
    ['to', 'from=2026-06-10&to=2026-06-01'],
    ['cursor', 'cursor=not-a-cursor-of-ours'],
    ['cursor', `cursor=${Buffer.from(JSON.stringify(['2026-06-15 12:00:00+00', '1; DROP TABLE x'])).toString('base64url')}`],
    ['cursor', `cursor=${Buffer.from(JSON.stringify(['2026-13-45 25:00:00+00', '1'])).toString('base64url')}`],
    ['limit', 'limit=0'],
    ['bogus', 'bogus=1'],
  ])('answers 422 naming %s for %s', async (field, query) => {
    for (const path of ['/portal-api/audit', '/portal-api/audit/export']) {
      if (path.endsWith('export') && ['cursor', 'limit'].includes(field)) continue;
      const answer = await portal(team, 'GET', `${path}?${query}`);
      expect(answer.status, answer.text).toBe(422);
      expect((answer.json.error.details as { path: string }[]).map((d) => d.path)).toContain(field);
    }
  });
});
