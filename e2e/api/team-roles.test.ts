import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiToken } from '@/lib/accounts/create-api-token';
import { hashToken } from '@/lib/auth/tokens';
import { db } from '@/lib/db';
import { can, MEMBER_ROLES, type RouteAccess } from '@/lib/teams/permissions';
import { call } from './support/api';
import { portalRoutes } from './support/hostile';
import { addMember, portalCall, signUp, type Member, type Shipper } from './support/portal';

// Members and roles (docs/decisions/teams.md): every portal-api route for every role, from the routes on
// disk (a route without a line in EXPECTED fails the suite), then the rules of membership changes: the last owner,
// admin against owner, removal (sessions at once, tokens revoked or kept), another account's ids, bad input.

/** The routes that answer without a session (they start one): no role to check. */
const PUBLIC = [
  'POST /portal-api/auth/forgot-password',
  'POST /portal-api/auth/reset-password',
  'POST /portal-api/auth/sign-in',
  'POST /portal-api/auth/sign-up',
  'POST /portal-api/auth/verify-email',
  'POST /portal-api/auth/accept-invitation',
];

/** What each route needs. 'self': any member (a user's own session, password and sessions). */
const EXPECTED: Record<string, RouteAccess> = {
  'POST /portal-api/account/password': 'self',
  'GET /portal-api/account/sessions': 'self',
  'DELETE /portal-api/account/sessions': 'self',
  'DELETE /portal-api/account/sessions/:id': 'self',
  'GET /portal-api/session': 'self',
  'DELETE /portal-api/session': 'self',
  'GET /portal-api/airports': 'data:read',
  'GET /portal-api/dashboard': 'data:read',
  'GET /portal-api/exports/packages': 'data:read',
  'GET /portal-api/import-mapping': 'data:read',
  'PUT /portal-api/import-mapping': 'shipments:write',
  'GET /portal-api/manifests': 'data:read',
  'POST /portal-api/manifests': 'shipments:write',
  'GET /portal-api/manifests/services': 'data:read',
  'GET /portal-api/manifests/:id': 'data:read',
  'PATCH /portal-api/manifests/:id': 'shipments:write',
  'GET /portal-api/manifests/:id/status': 'data:read',
  'GET /portal-api/manifests/:id/tags': 'data:read',
  'GET /portal-api/manifests/:id/packages': 'data:read',
  'GET /portal-api/manifests/:id/document': 'data:read',
  'GET /portal-api/manifests/:id/labels': 'data:read',
  'GET /portal-api/manifests/:id/customs-declarations': 'data:read',
  'GET /portal-api/manifests/:id/one-record': 'data:read',
  'GET /portal-api/manifests/:id/customs': 'data:read',
  'GET /portal-api/manifests/:id/export': 'data:read',
  'POST /portal-api/manifests/:id/cancel': 'shipments:write',
  'POST /portal-api/manifests/:id/close': 'shipments:write',
  'POST /portal-api/manifests/:id/simulate': 'shipments:write',
  'GET /portal-api/packages': 'data:read',
  'GET /portal-api/packages/:TrackingNumber': 'data:read',
  'GET /portal-api/packages/:TrackingNumber/events': 'data:read',
  'GET /portal-api/packages/:TrackingNumber/label': 'data:read',
  'GET /portal-api/packages/:TrackingNumber/customs-declaration': 'data:read',
  'POST /portal-api/packages/:TrackingNumber/cancel': 'shipments:write',
  'POST /portal-api/packages/:TrackingNumber/simulate': 'shipments:write',
  'POST /portal-api/packages/:TrackingNumber/return': 'shipments:write',
  'POST /portal-api/packages/:TrackingNumber/offload': 'shipments:write',
  'GET /portal-api/packages/:TrackingNumber/proof-of-delivery': 'data:read',
  'GET /portal-api/packages/:TrackingNumber/proof-of-delivery/signature': 'data:read',
  'GET /portal-api/packages/:TrackingNumber/proof-of-delivery/photo': 'data:read',
  'GET /portal-api/packages/:TrackingNumber/proof-of-delivery/document': 'data:read',
  'GET /portal-api/rate-cards': 'data:read',
  'POST /portal-api/rates': 'rates:quote',
  'GET /portal-api/requests': 'logs:read',
  'GET /portal-api/requests/:id': 'logs:read',
  'GET /portal-api/settings/close-out': 'data:read',
  'PUT /portal-api/settings/close-out': 'settings:manage',
  'GET /portal-api/settings/recipient-mail': 'data:read',
  'PUT /portal-api/settings/recipient-mail': 'settings:manage',
  'GET /portal-api/settings/returns': 'data:read',
  'PUT /portal-api/settings/returns': 'settings:manage',
  'GET /portal-api/tokens': 'tokens:manage',
  'POST /portal-api/tokens': 'tokens:manage',
  'DELETE /portal-api/tokens/:id': 'tokens:manage',
  'GET /portal-api/webhooks': 'webhooks:manage',
  'GET /portal-api/webhooks/health': 'webhooks:manage',
  'POST /portal-api/webhooks': 'webhooks:manage',
  'GET /portal-api/webhooks/:id': 'webhooks:manage',
  'PATCH /portal-api/webhooks/:id': 'webhooks:manage',
  'DELETE /portal-api/webhooks/:id': 'webhooks:manage',
  'GET /portal-api/webhooks/:id/deliveries': 'webhooks:manage',
  'POST /portal-api/webhooks/:id/test': 'webhooks:manage',
  'POST /portal-api/webhooks/:id/rotate-secret': 'webhooks:manage',
  'POST /portal-api/webhooks/:id/deliveries/:deliveryId/redeliver': 'webhooks:manage',
  'GET /portal-api/members': 'data:read',
  'PATCH /portal-api/members/:id': 'members:manage',
  // Removing another member (leaving, your own membership, is any member's: below).
  'DELETE /portal-api/members/:id': 'members:manage',
  'GET /portal-api/invitations': 'members:manage',
  'POST /portal-api/invitations': 'members:manage',
  'DELETE /portal-api/invitations/:id': 'members:manage',
  'GET /portal-api/session/accounts': 'self',
  'POST /portal-api/session/account': 'self',
  'GET /portal-api/audit': 'audit:read',
  'GET /portal-api/audit/export': 'audit:read',
  'GET /portal-api/invoices': 'billing:read',
  'GET /portal-api/invoices/:id': 'billing:read',
  'GET /portal-api/invoices/:id/lines': 'billing:read',
  'GET /portal-api/invoices/:id/document': 'billing:read',
  'POST /portal-api/invoices/close': 'billing:manage',
  'GET /portal-api/settings/billing': 'billing:read',
  'GET /portal-api/billing/open': 'billing:read',
  'PUT /portal-api/settings/billing': 'billing:manage',
  'GET /portal-api/pickups': 'data:read',
  'POST /portal-api/pickups': 'shipments:write',
  'POST /portal-api/pickups/:id/cancel': 'shipments:write',
  'GET /portal-api/package-count': 'data:read',
  'GET /portal-api/package-batch/export': 'data:read',
  'POST /portal-api/package-batch/export': 'data:read',
  'GET /portal-api/package-batch/labels': 'data:read',
  'POST /portal-api/package-batch/labels': 'data:read',
  'POST /portal-api/package-batch/cancel': 'shipments:write',
  'GET /portal-api/settings/customs': 'data:read',
  'PUT /portal-api/settings/customs': 'settings:manage',
  'GET /portal-api/settings/branding': 'data:read',
  'PUT /portal-api/settings/branding': 'settings:manage',
};

/** These end the caller's session: each role calls them last. */
const ENDS_SESSION = ['DELETE /portal-api/account/sessions', 'DELETE /portal-api/session'];

const served = portalRoutes().flatMap((route) => route.methods.map((method) => `${method} ${route.pattern}`));

let owner: Shipper;

beforeAll(async () => {
  owner = await signUp('Roles');
});

function errorOf(answer: { json: unknown }): { code?: string; message?: string; details?: { path: string; message: string }[] } {
  return (answer.json as { error?: object } | undefined)?.error ?? {};
}

describe('every portal-api route × every role', () => {
  it('EXPECTED names exactly the routes in app/portal-api (a new route must say who may call it)', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual(served.filter((e) => !PUBLIC.includes(e)).sort());
    for (const e of PUBLIC) expect(served, 'a public route that no longer exists').toContain(e);
  });

  it.each(MEMBER_ROLES)(
    '%s: routes it may call answer without 403; the others 403 forbidden naming the permission',
    async (role) => {
      {
        const member = await addMember(owner, role);
        const keys = Object.keys(EXPECTED).sort((a, b) => Number(ENDS_SESSION.includes(a)) - Number(ENDS_SESSION.includes(b)));
        const failures: string[] = [];
        for (const key of keys) {
          const [method, pattern] = key.split(' ') as [string, string];
          // A member to change or remove, for the members routes; nothing else needs to exist: the role is checked
          // before any lookup, so an id that names nothing is a 404 for a role that may, and a 403 for one that may not.
          const victim = pattern.startsWith('/portal-api/members/')
            ? await addMember(owner, 'viewer', { signIn: false })
            : undefined;
          const path = pattern
            .replace(':id', victim?.membershipId ?? randomUUID())
            .replace(':TrackingNumber', 'NOSUCHPACKAGE1')
            .replace(':deliveryId', 'msg_nothere');
          const body = method === 'PATCH' && victim ? { role: 'operator' } : undefined;
          const answer = await portalCall(member, method, path, { body });
          const needed = EXPECTED[key];
          const allowed = needed === 'self' || can(role, needed);
          if (allowed) {
            if (answer.status === 403) failures.push(`${key}: 403 for ${role}, which has ${needed}: ${answer.text}`);
          } else {
            const error = errorOf(answer);
            if (
              answer.status !== 403 ||
              error.code !== 'forbidden' ||
              !error.details?.some((d) => d.path === 'permission' && d.message === needed)
            ) {
              failures.push(`${key}: ${role} lacks ${needed} but got ${answer.status} ${answer.text.slice(0, 200)}`);
            }
          }
          // An allowed member change really happened; a refused one changed nothing.
          if (victim && method === 'PATCH') {
            const row = await db.membership.findUnique({ where: { id: victim.membershipId }, select: { role: true } });
            expect(row?.role, key).toBe(allowed ? 'operator' : 'viewer');
          }
          if (victim && method === 'DELETE') {
            expect(await db.membership.count({ where: { id: victim.membershipId } }), key).toBe(allowed ? 0 : 1);
          }
        }
        expect(failures).toEqual([]);
      }
    },
  );
});

describe('members', () => {
  it('GET /portal-api/members lists e-mail, role, joined at and marks the caller; any role may read it', async () => {
    const shipper = await signUp('List');
    const viewer = await addMember(shipper, 'viewer');
    const answer = await portalCall(viewer, 'GET', '/portal-api/members');
    expect(answer.status, answer.text).toBe(200);
    const members = answer.json.members as {
      id: string;
      email: string;
      role: string;
      joinedAt: string;
      you: boolean;
      liveTokens: number;
    }[];
    expect(members).toHaveLength(2);
    expect(members[0]).toMatchObject({ role: 'owner', you: false });
    expect(members[1]).toMatchObject({ id: viewer.membershipId, email: viewer.email, role: 'viewer', you: true, liveTokens: 0 });
    expect(Date.parse(members[1].joinedAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('the last owner cannot be demoted nor removed, nor leave: 409 conflict naming role', async () => {
    const shipper = await signUp('Last');
    const self = (await portalCall(shipper, 'GET', '/portal-api/members')).json.members[0] as { id: string };
    const demote = await portalCall(shipper, 'PATCH', `/portal-api/members/${self.id}`, { body: { role: 'admin' } });
    expect(demote.status, demote.text).toBe(409);
    expect(errorOf(demote)).toMatchObject({ code: 'conflict', details: [{ path: 'role' }] });
    const leave = await portalCall(shipper, 'DELETE', `/portal-api/members/${self.id}`);
    expect(leave.status, leave.text).toBe(409);
    expect(errorOf(leave)).toMatchObject({ code: 'conflict', details: [{ path: 'role' }] });
    expect(await db.membership.findUnique({ where: { id: self.id }, select: { role: true } })).toEqual({ role: 'owner' });
    // Still signed in.
    expect((await portalCall(shipper, 'GET', '/portal-api/session')).status).toBe(200);
    // An owner can step down once there is another.
    const second = await addMember(shipper, 'owner', { signIn: false });
    const stepDown = await portalCall(shipper, 'PATCH', `/portal-api/members/${self.id}`, { body: { role: 'admin' } });
    expect(stepDown.status, stepDown.text).toBe(200);
    expect(stepDown.json).toMatchObject({ previousRole: 'owner', role: 'admin' });
    // Now an admin: the remaining owner is out of reach, and is the last anyway.
    const removeOwner = await portalCall(shipper, 'DELETE', `/portal-api/members/${second.membershipId}`);
    expect(removeOwner.status).toBe(403);
    expect(errorOf(removeOwner).details).toContainEqual({ path: 'permission', message: 'owners:manage' });
  });

  it('two owners demoting each other at once leave one owner (and two removing each other too)', async () => {
    for (const kind of ['demote', 'remove'] as const) {
      for (let round = 0; round < 3; round++) {
        const shipper = await signUp('Race');
        const a = await addMember(shipper, 'owner');
        const b = await addMember(shipper, 'owner');
        // The sign-up's owner steps aside, so that a and b are the only two owners.
        await db.membership.updateMany({
          where: { accountId: shipper.accountId, userId: { notIn: [a.userId, b.userId] } },
          data: { role: 'admin' },
        });
        const send = (who: Member, target: Member) =>
          kind === 'demote'
            ? portalCall(who, 'PATCH', `/portal-api/members/${target.membershipId}`, { body: { role: 'viewer' } })
            : portalCall(who, 'DELETE', `/portal-api/members/${target.membershipId}`);
        const answers = await Promise.all([send(a, b), send(b, a)]);
        const statuses = answers.map((r) => r.status).sort();
        // One wins; the other is refused: the last owner (409), or its sender is no owner any more (403: demoted, its
        // role read again under the lock) or no member (401: removed).
        expect(statuses[0], answers.map((r) => r.text).join('\n')).toBe(200);
        expect([401, 403, 409]).toContain(statuses[1]);
        expect(await db.membership.count({ where: { accountId: shipper.accountId, role: 'owner' } })).toBe(1);
      }
    }
  });

  it('an admin cannot change or remove an owner, nor make one; it can manage the other roles', async () => {
    const shipper = await signUp('Admin');
    const admin = await addMember(shipper, 'admin');
    const otherOwner = await addMember(shipper, 'owner', { signIn: false });
    const dev = await addMember(shipper, 'developer', { signIn: false });
    for (const [method, target, body] of [
      ['PATCH', otherOwner, { role: 'viewer' }],
      ['DELETE', otherOwner, undefined],
      ['PATCH', dev, { role: 'owner' }],
      ['PATCH', admin, { role: 'owner' }],
    ] as const) {
      const answer = await portalCall(admin, method, `/portal-api/members/${target.membershipId}`, { body });
      expect(answer.status, `${method} ${target.role}: ${answer.text}`).toBe(403);
      expect(errorOf(answer)).toMatchObject({ code: 'forbidden', details: [{ path: 'permission', message: 'owners:manage' }] });
    }
    expect((await db.membership.findUniqueOrThrow({ where: { id: otherOwner.membershipId } })).role).toBe('owner');
    expect((await db.membership.findUniqueOrThrow({ where: { id: dev.membershipId } })).role).toBe('developer');
    const promote = await portalCall(admin, 'PATCH', `/portal-api/members/${dev.membershipId}`, { body: { role: 'admin' } });
    expect(promote.status, promote.text).toBe(200);
    expect(promote.json).toMatchObject({ previousRole: 'developer', role: 'admin' });
    // An owner can make an owner.
    const owned = await portalCall(shipper, 'PATCH', `/portal-api/members/${dev.membershipId}`, { body: { role: 'owner' } });
    expect(owned.status, owned.text).toBe(200);
  });

  it('a role change takes effect on the next request', async () => {
    const shipper = await signUp('Change');
    const member = await addMember(shipper, 'developer');
    expect((await portalCall(member, 'GET', '/portal-api/tokens')).status).toBe(200);
    expect(
      (await portalCall(shipper, 'PATCH', `/portal-api/members/${member.membershipId}`, { body: { role: 'viewer' } })).status,
    ).toBe(200);
    const after = await portalCall(member, 'GET', '/portal-api/tokens');
    expect(after.status).toBe(403);
    expect((await portalCall(member, 'GET', '/portal-api/session')).json).toMatchObject({ role: 'viewer' });
  });

  it("a removed member's sessions end at once, and the tokens they made are revoked by default", async () => {
    const shipper = await signUp('Remove');
    const member = await addMember(shipper, 'developer');
    const made = await portalCall(member, 'POST', '/portal-api/tokens', { body: { name: 'made by member' } });
    expect(made.status, made.text).toBe(201);
    const live = await portalCall(member, 'POST', '/portal-api/tokens', { body: { name: 'live one' }, env: 'live' });
    expect(live.status, live.text).toBe(201);
    expect((await call('/wf/rate', { token: made.json.token, body: {} })).status).not.toBe(401);
    const listed = (await portalCall(shipper, 'GET', '/portal-api/members')).json.members as { id: string; liveTokens: number }[];
    expect(listed.find((m) => m.id === member.membershipId)?.liveTokens).toBe(2);

    const removed = await portalCall(shipper, 'DELETE', `/portal-api/members/${member.membershipId}`);
    expect(removed.status, removed.text).toBe(200);
    expect(removed.json).toMatchObject({ role: null, left: false, tokensRevoked: 2, tokensKept: 0 });
    expect(removed.json.sessionsEnded).toBeGreaterThanOrEqual(1);
    // The very next request of their session: over.
    expect((await portalCall(member, 'GET', '/portal-api/session')).status).toBe(401);
    expect(await db.session.count({ where: { userId: member.userId, accountId: shipper.accountId } })).toBe(0);
    // Revoked in the database at once; every instance drops it from its token cache when told (within seconds).
    expect(await db.apiToken.count({ where: { createdByUserId: member.userId, revokedAt: null } })).toBe(0);
    await expect
      .poll(async () => (await call('/wf/rate', { token: made.json.token, body: {} })).status, { timeout: 15_000 })
      .toBe(401);
    await expect
      .poll(async () => (await call('/wf/rate', { env: 'live', token: live.json.token, body: {} })).status, { timeout: 15_000 })
      .toBe(401);
    // The account's other tokens are untouched.
    expect((await db.apiToken.findUniqueOrThrow({ where: { tokenHash: hashToken(shipper.tokens.test) } })).revokedAt).toBeNull();
    // Removing again: no such member.
    expect((await portalCall(shipper, 'DELETE', `/portal-api/members/${member.membershipId}`)).status).toBe(404);
  });

  it('tokens: "keep" leaves a removed member\'s tokens working', async () => {
    const shipper = await signUp('Keep');
    const member = await addMember(shipper, 'developer', { signIn: false });
    const token = await createApiToken({
      accountId: shipper.accountId,
      environment: 'test',
      name: 'integration',
      createdByUserId: member.userId,
    });
    const removed = await portalCall(shipper, 'DELETE', `/portal-api/members/${member.membershipId}`, {
      body: { tokens: 'keep' },
    });
    expect(removed.status, removed.text).toBe(200);
    expect(removed.json).toMatchObject({ tokensRevoked: 0, tokensKept: 1 });
    expect((await call('/wf/rate', { token: token.token, body: {} })).status).not.toBe(401);
    expect((await db.apiToken.findUniqueOrThrow({ where: { id: token.id } })).revokedAt).toBeNull();
  });

  it('a member can leave (any role), which ends their session; an owner only while another owner remains', async () => {
    const shipper = await signUp('Leave');
    const viewer = await addMember(shipper, 'viewer');
    const left = await portalCall(viewer, 'DELETE', `/portal-api/members/${viewer.membershipId}`);
    expect(left.status, left.text).toBe(200);
    expect(left.json).toMatchObject({ left: true, role: null });
    expect((await portalCall(viewer, 'GET', '/portal-api/session')).status).toBe(401);
    // A viewer cannot remove someone else.
    const other = await addMember(shipper, 'viewer');
    const victim = await addMember(shipper, 'operator', { signIn: false });
    const refused = await portalCall(other, 'DELETE', `/portal-api/members/${victim.membershipId}`);
    expect(refused.status).toBe(403);
    expect(errorOf(refused).details).toContainEqual({ path: 'permission', message: 'members:manage' });
  });

  it("another account's membership ids, unknown ids, NUL and huge ids are 404; a bad role is 422 naming role", async () => {
    const mine = await signUp('Mine');
    const theirs = await signUp('Theirs');
    const theirMember = await addMember(theirs, 'viewer', { signIn: false });
    const theirOwner = (await db.membership.findFirstOrThrow({ where: { accountId: theirs.accountId, role: 'owner' } })).id;
    for (const id of [theirMember.membershipId, theirOwner]) {
      const patch = await portalCall(mine, 'PATCH', `/portal-api/members/${id}`, { body: { role: 'admin' } });
      expect(patch.status, patch.text).toBe(404);
      expect(errorOf(patch).code).toBe('not_found');
      const del = await portalCall(mine, 'DELETE', `/portal-api/members/${id}`);
      expect(del.status, del.text).toBe(404);
    }
    expect((await db.membership.findUniqueOrThrow({ where: { id: theirMember.membershipId } })).role).toBe('viewer');
    expect(await db.session.count({ where: { accountId: theirs.accountId } })).toBeGreaterThan(0);
    for (const id of [randomUUID(), 'not-a-uuid', '%00', 'a%00b', 'x'.repeat(5000), '%F0%9F%98%80', '%ED%A0%80']) {
      for (const method of ['PATCH', 'DELETE']) {
        const answer = await portalCall(mine, method, `/portal-api/members/${id}`, {
          body: method === 'PATCH' ? { role: 'admin' } : undefined,
        });
        expect(answer.status, `${method} ${id.slice(0, 20)}: ${answer.text.slice(0, 200)}`).toBe(404);
      }
    }
    const victim = await addMember(mine, 'viewer', { signIn: false });
    for (const role of ['superuser', 'OWNER', '', null, 7, ['admin'], 'owner\u0000', 'a'.repeat(5000)]) {
      const answer = await portalCall(mine, 'PATCH', `/portal-api/members/${victim.membershipId}`, { body: { role } });
      expect(answer.status, answer.text.slice(0, 200)).toBe(422);
      expect(errorOf(answer).details?.map((d) => d.path)).toContain('role');
    }
    const missing = await portalCall(mine, 'PATCH', `/portal-api/members/${victim.membershipId}`, { body: {} });
    expect(missing.status).toBe(422);
    expect(errorOf(missing).details?.map((d) => d.path)).toContain('role');
    const badPolicy = await portalCall(mine, 'DELETE', `/portal-api/members/${victim.membershipId}`, {
      body: { tokens: 'maybe' },
    });
    expect(badPolicy.status).toBe(422);
    expect(errorOf(badPolicy).details?.map((d) => d.path)).toContain('tokens');
    expect((await db.membership.findUniqueOrThrow({ where: { id: victim.membershipId } })).role).toBe('viewer');
  });

  it('a role check comes before the CSRF token and the body', async () => {
    const shipper = await signUp('Order');
    const viewer = await addMember(shipper, 'viewer');
    const answer = await portalCall(viewer, 'POST', '/portal-api/tokens', { csrf: null, rawBody: 'not json' });
    expect(answer.status).toBe(403);
    expect(errorOf(answer).details).toContainEqual({ path: 'permission', message: 'tokens:manage' });
  });
});
