import pg from 'pg';
import { portalRoutes } from '../api/support/hostile';
import { packIds } from '@/lib/schemas/package-selection';
import { e2eDatabaseUrl } from '../database';
import { apiBase, authed, csrfToken, expect, portalApi, signUpThroughUi, test, uniqueUser } from '../fixtures';

// Every portal endpoint against every caller who must be refused: no session, a forged session
// cookie, the cookie of a session that was signed out, and another account's live session (which
// must get 404 for the owner's resources and see none of them in its lists), in either environment;
// the owner's own session in the other environment (live: the resources are test's) is refused as a
// stranger is, and a request that does not name its environment is a 400 whoever sends it.

const MARK = `owner-only-${Date.now().toString(36)}`;

/** Routes that answer without a session (they start one). */
const PUBLIC = [
  'POST /portal-api/auth/sign-in',
  'POST /portal-api/auth/sign-up',
  'POST /portal-api/auth/forgot-password',
  'POST /portal-api/auth/reset-password',
  'POST /portal-api/auth/verify-email',
  'POST /portal-api/auth/accept-invitation',
];

/**
 * How to call a route, and what another account's session (or the owner's in the other environment)
 * must get: the owner's resource not found, its own empty or public answer, or its own body refused.
 */
interface Call {
  id?: () => string;
  query?: string | (() => string);
  body?: unknown;
  stranger: 'not_found' | 'validation_failed' | 'own session only' | { check: (json: never, caller: Caller) => void };
  /**
   * What the owner's own session gets in live, where it differs from a stranger's: members are the account's, not an
   * environment's, so the owner reaches its own membership from either environment.
   */
  owner?: number;
}
const notFound = 'not_found' as const;
const invalid = 'validation_failed' as const;
interface Caller {
  isOwner: boolean;
  environment: string;
}
const ok = <T>(check: (json: T, caller: Caller) => void) => ({ check: check as (json: never, caller: Caller) => void });

test('every portal endpoint refuses strangers and leaks nothing', async ({
  signedInPage: owner,
  freshPage: stranger,
  apiToken,
  request,
  browser,
}, testInfo) => {
  // Some two hundred requests (every route × eight callers); a loaded machine needs more than the default minute.
  test.setTimeout(180_000);
  // The owner's resources: a container manifest, a webhook endpoint, a token.
  const api = authed(request, apiToken);
  const tracking = `ACL${Date.now().toString(36).toUpperCase()}`;
  const manifest = await api.post(`${apiBase.test}/wf/manifest`, {
    ServiceName: 'AirSkip',
    FromCompany: MARK,
    ContainerID: `ACL-${tracking}`,
    ContainerLength: 10,
    ContainerWidth: 10,
    ContainerHeight: 10,
    ShipmentDescription: MARK,
    ContainerDetails: [{ TrackingNumber: tracking, ToName: MARK }],
  });
  expect(manifest.status()).toBe(200);
  const manifestId = ((await manifest.json()) as { ManifestID: string }).ManifestID;
  const manifestRequestId = manifest.headers()['x-request-id'] ?? '';
  const hook = await api.post(`${apiBase.test}/webhooks`, {
    url: 'http://127.0.0.1:1024/acl',
    events: ['package.sorting'],
    description: MARK,
  });
  expect(hook.status()).toBe(201);
  const hookId = ((await hook.json()) as { id: string }).id;
  const tokens = (await (await portalApi(owner, 'GET', '/portal-api/tokens', undefined, 'test')).json()) as {
    tokens: { id: string }[];
  };
  const tokenId = tokens.tokens[0].id;
  const ownerSession = (await (await portalApi(owner, 'GET', '/portal-api/session', undefined, 'test')).json()) as {
    account: { id: string };
  };

  const ownerSessions = (await (await portalApi(owner, 'GET', '/portal-api/account/sessions', undefined, 'test')).json()) as {
    sessions: { id: string; current: boolean }[];
  };
  const ownerSessionId = ownerSessions.sessions.find((s) => s.current)!.id;
  // The owner's own membership: the only owner, so the owner may not remove it (409) and a "change" to its
  // own role is a no-op (200); anyone else's session gets 404 for it.
  const ownerMembers = (await (await portalApi(owner, 'GET', '/portal-api/members', undefined, 'test')).json()) as {
    members: { id: string; you: boolean }[];
  };
  const ownerMembershipId = ownerMembers.members.find((m) => m.you)!.id;

  // The owner's close-out setting in test: a value no other account or environment has by default.
  const ownerCutoff = { cutoff_hour: 17, time_zone: 'Asia/Tokyo' };
  const cutoff = await portalApi(owner, 'PUT', '/portal-api/settings/close-out', ownerCutoff, 'test');
  expect(cutoff.status(), await cutoff.text()).toBe(200);
  // The owner's remembered import mapping: account-wide, so the owner sees it in live too; nobody else does.
  const mapping = await portalApi(
    owner,
    'PUT',
    '/portal-api/import-mapping',
    { columns: { ownerssheetcolumn: 'ToName' } },
    'test',
  );
  expect(mapping.status(), await mapping.text()).toBe(200);

  // The owner's open invitation: account-wide, so the owner sees it in live too; nobody else does.
  const invited = await portalApi(
    owner,
    'POST',
    '/portal-api/invitations',
    { email: `acl-invitee-${Date.now().toString(36)}@example.com`, role: 'viewer' },
    'test',
  );
  expect(invited.status(), await invited.text()).toBe(201);
  const invitationId = ((await invited.json()) as { invitation: { id: string } }).invitation.id;

  // The owner's test invoice (a ledger row written as the pricing code writes one, then the test path's close) and its
  // weekly billing period: account-wide, so the owner reads it in live too; nobody else does.
  const db = new pg.Client({ connectionString: await e2eDatabaseUrl() });
  await db.connect();
  await db.query(
    `INSERT INTO billing_entries (account_id, environment, kind, package_id, manifest_id, carrier_barcode, service, amount, occurred_at)
     VALUES ($1::uuid, 'test', 'charge', (random() * 1e12)::bigint, $2, 'CBACL', 'AirSkip', 4.20, now() - interval '1 minute')`,
    [ownerSession.account.id, manifestId],
  );
  await db.end();
  const closed = await api.post(`${apiBase.test}/invoices/close`, { data: {} });
  expect(closed.status(), await closed.text()).toBe(200);
  const invoiceId = ((await closed.json()) as { invoice: { id: string } }).invoice.id;
  const billing = await portalApi(owner, 'PUT', '/portal-api/settings/billing', { period: 'week' }, 'test');
  expect(billing.status(), await billing.text()).toBe(200);
  // The owner's package by its carrier barcode, packed as the Packages page's download links carry a selection.
  const ownerPackage = await api.get(`${apiBase.test}/packages/${tracking}`);
  expect(ownerPackage.status(), await ownerPackage.text()).toBe(200);
  const ownerBarcode = ((await ownerPackage.json()) as { carrier_barcode: string }).carrier_barcode;
  const packedIds = packIds([ownerBarcode]);
  // The owner's pickup of its container (AirSkip: four hours' notice).
  const hours = (n: number) => new Date(Date.now() + n * 3_600_000).toISOString();
  const pickup = await api.post(`${apiBase.test}/pickups`, {
    manifest_id: manifestId,
    address: { company: MARK, address1: '1 Industrial Way', city: 'Newark', state: 'NJ', postal_code: '07114' },
    ready_at: hours(5),
    close_at: hours(9),
  });
  expect(pickup.status(), await pickup.text()).toBe(201);
  const pickupId = ((await pickup.json()) as { id: string }).id;

  // Every route × method Next serves, read from app/portal-api/**/route.ts: a new route or method is in this
  // list without anyone adding it, and the test fails until CALLS says how to call it and what a stranger gets.
  const served = portalRoutes().flatMap((route) => route.methods.map((method) => `${method} ${route.pattern}`));
  const CALLS: Record<string, Call> = {
    'GET /portal-api/airports': {
      query: '?q=jfk',
      stranger: ok((j: { airports: { iata: string }[] }) => expect(j.airports.map((a) => a.iata)).toEqual(['JFK'])),
    },
    // A stranger's account is new: empty. The owner's live environment may hold what other specs of
    // this worker's shared account put there (environment-tabs.spec.ts writes to live on purpose),
    // but never the owner's test resources.
    'GET /portal-api/dashboard': {
      stranger: ok((j: { recent: { id: string }[] }, caller) => {
        if (caller.isOwner) expect(j.recent.map((r) => r.id)).not.toContain(manifestId);
        else expect(j).toMatchObject({ totals: { packages: 0, manifests: 0 }, webhooks: { attempts: 0 }, recent: [] });
      }),
    },
    'GET /portal-api/manifests': {
      stranger: ok((j: { data: { ManifestID: string }[] }, caller) => {
        if (caller.isOwner) expect(j.data.map((m) => m.ManifestID)).not.toContain(manifestId);
        else expect(j).toEqual({ object: 'list', data: [], has_more: false, next_cursor: null });
      }),
    },
    // The service filter's options: a stranger's account has no manifests, so none; the owner's live ones are live's.
    'GET /portal-api/manifests/services': {
      stranger: ok((j: { services: string[] }, caller) => {
        if (!caller.isOwner) expect(j).toEqual({ services: [] });
        else expect(Array.isArray(j.services)).toBe(true);
      }),
    },
    'POST /portal-api/manifests': { body: {}, stranger: invalid },
    'GET /portal-api/manifests/:id': { id: () => manifestId, stranger: notFound },
    'GET /portal-api/manifests/:id/export': { id: () => manifestId, stranger: notFound },
    'GET /portal-api/manifests/:id/packages': { id: () => manifestId, stranger: notFound },
    // The print buttons' documents, the API's own operations behind the session.
    'GET /portal-api/manifests/:id/document': { id: () => manifestId, stranger: notFound },
    'GET /portal-api/manifests/:id/tags': { id: () => manifestId, stranger: notFound },
    'GET /portal-api/manifests/:id/labels': { id: () => manifestId, stranger: notFound },
    // The customs documents and the ONE Record export, the API's own operations behind the session.
    'GET /portal-api/manifests/:id/customs-declarations': { id: () => manifestId, stranger: notFound },
    'GET /portal-api/manifests/:id/one-record': { id: () => manifestId, stranger: notFound },
    'GET /portal-api/manifests/:id/customs': { id: () => manifestId, stranger: notFound },
    'GET /portal-api/packages': {
      query: () => `?tracking_number=${tracking.slice(0, 5).toLowerCase()}`,
      stranger: ok((j: { data: { TrackingNumber: string }[] }, caller) => {
        if (caller.isOwner) expect(j.data.map((p) => p.TrackingNumber)).not.toContain(tracking);
        else expect(j).toEqual({ object: 'list', data: [], has_more: false, next_cursor: null });
      }),
    },
    'GET /portal-api/packages/:TrackingNumber': { stranger: notFound },
    'GET /portal-api/packages/:TrackingNumber/events': { stranger: notFound },
    'GET /portal-api/packages/:TrackingNumber/label': { stranger: notFound },
    'GET /portal-api/packages/:TrackingNumber/customs-declaration': { stranger: notFound },
    'POST /portal-api/packages/:TrackingNumber/cancel': { body: {}, stranger: notFound },
    'POST /portal-api/packages/:TrackingNumber/simulate': { body: { status: 'delivered' }, stranger: notFound },
    'POST /portal-api/packages/:TrackingNumber/return': { body: {}, stranger: notFound },
    'POST /portal-api/packages/:TrackingNumber/offload': { body: {}, stranger: notFound },
    'GET /portal-api/packages/:TrackingNumber/proof-of-delivery': { stranger: notFound },
    'GET /portal-api/packages/:TrackingNumber/proof-of-delivery/signature': { stranger: notFound },
    'GET /portal-api/packages/:TrackingNumber/proof-of-delivery/photo': { stranger: notFound },
    'GET /portal-api/packages/:TrackingNumber/proof-of-delivery/document': { stranger: notFound },
    // The CSV export of a filtered set: the header line alone for anyone but the owner in test.
    'GET /portal-api/exports/packages': {
      query: () => `?tracking_number=${tracking}`,
      stranger: ok((csv: string) => expect(csv.split('\r\n').filter(Boolean)).toHaveLength(1)),
    },
    'GET /portal-api/manifests/:id/status': { id: () => manifestId, stranger: notFound },
    'POST /portal-api/manifests/:id/cancel': { id: () => manifestId, body: {}, stranger: notFound },
    'PATCH /portal-api/manifests/:id': { id: () => manifestId, body: { SealNumber: 'ACL-SEAL' }, stranger: notFound },
    'POST /portal-api/manifests/:id/simulate': { id: () => manifestId, body: { status: 'received' }, stranger: notFound },
    // Close-out: the owner's container is not closable (409) for the owner; anyone else must not find it.
    'POST /portal-api/manifests/:id/close': { id: () => manifestId, body: {}, stranger: notFound },
    // Each account and environment has its own setting: a stranger reads its own default, never the owner's test one.
    'GET /portal-api/settings/close-out': {
      stranger: ok((j: { cutoff_hour: number | null; time_zone: string }, caller) => {
        if (caller.isOwner) expect(j).not.toEqual(ownerCutoff);
        else expect(j).toEqual({ cutoff_hour: null, time_zone: 'UTC' });
      }),
    },
    'PUT /portal-api/settings/close-out': { body: {}, stranger: invalid },
    // Recipient e-mail is account-wide: another account sees its own settings, never opted in here.
    'GET /portal-api/settings/recipient-mail': {
      stranger: ok((j: { statuses: string[] }) => expect(j).toEqual({ statuses: [] })),
    },
    'PUT /portal-api/settings/recipient-mail': { body: {}, stranger: invalid },
    // Returns from the tracking page are account-wide too: another account sees its own setting, off.
    'GET /portal-api/settings/returns': {
      stranger: ok((j: { public_returns: boolean }) => expect(j).toEqual({ public_returns: false })),
    },
    'PUT /portal-api/settings/returns': { body: {}, stranger: invalid },
    'GET /portal-api/import-mapping': {
      stranger: ok((j: { columns: Record<string, string> }, caller) => {
        if (caller.isOwner) expect(j.columns).toMatchObject({ ownerssheetcolumn: 'ToName' });
        else expect(j).toEqual({ columns: {} });
      }),
    },
    'PUT /portal-api/import-mapping': { body: {}, stranger: invalid },
    'GET /portal-api/invitations': {
      stranger: ok((j: { invitations: { id: string }[] }, caller) =>
        expect(j.invitations.map((i) => i.id).includes(invitationId)).toBe(caller.isOwner),
      ),
    },
    'POST /portal-api/invitations': { body: {}, stranger: invalid },
    // The owner in live would revoke it (invitations are the account's, in both environments); another account's
    // id is a 404 in e2e/api/team-invitations.test.ts.
    'DELETE /portal-api/invitations/:id': { id: () => invitationId, stranger: 'own session only' },
    // The caller's own accounts; switching with no account id is refused for anyone (a stranger's 404 for the
    // owner's account is in e2e/api/team-invitations.test.ts).
    'GET /portal-api/session/accounts': {
      stranger: ok((j: { accounts: { id: string }[] }, caller) =>
        expect(j.accounts.map((a) => a.id).includes(ownerSession.account.id)).toBe(caller.isOwner),
      ),
    },
    'POST /portal-api/session/account': { body: {}, stranger: invalid },
    'GET /portal-api/rate-cards': { stranger: ok((j: { rateCards: unknown[] }) => expect(j.rateCards).toHaveLength(3)) },
    'POST /portal-api/rates': {
      body: { weight: 1, weight_unit: 'lb', length: 1, width: 1, height: 1, from_zip: '10001', to_zip: '10002' },
      stranger: ok((j) => expect(j).toHaveProperty('rates')),
    },
    'GET /portal-api/session': {
      // The caller's own account, in the environment it asked for.
      stranger: ok((j: { account: { id: string }; environment: string }, caller) => {
        expect(j.account.id === ownerSession.account.id).toBe(caller.isOwner);
        expect(j.environment).toBe(caller.environment);
      }),
    },
    // Ends the caller's own session: nothing of another account's to reach (and it would sign the caller out).
    'DELETE /portal-api/session': { stranger: 'own session only' },
    // A user's sessions are the user's, in either environment: a stranger lists only its own.
    'GET /portal-api/account/sessions': {
      stranger: ok((j: { sessions: { id: string; current: boolean }[] }, caller) => {
        if (caller.isOwner) expect(j.sessions.map((s) => s.id)).toContain(ownerSessionId);
        else expect(j.sessions.map((s) => s.id)).not.toContain(ownerSessionId);
      }),
    },
    // Sign out everywhere, and revoking by id (the owner's own session, in live too): they would end the caller's
    // session. A stranger's 404 for another user's session is in e2e/api/mail-reset.test.ts.
    'DELETE /portal-api/account/sessions': { stranger: 'own session only' },
    'DELETE /portal-api/account/sessions/:id': { id: () => ownerSessionId, stranger: 'own session only' },
    'POST /portal-api/account/password': { body: {}, stranger: invalid },
    'GET /portal-api/members': {
      stranger: ok((j: { members: { id: string }[] }, caller) => {
        if (caller.isOwner) expect(j.members.map((m) => m.id)).toContain(ownerMembershipId);
        else expect(j.members.map((m) => m.id)).not.toContain(ownerMembershipId);
      }),
    },
    'PATCH /portal-api/members/:id': { id: () => ownerMembershipId, body: { role: 'owner' }, stranger: notFound, owner: 200 },
    'DELETE /portal-api/members/:id': { id: () => ownerMembershipId, stranger: notFound, owner: 409 },
    'GET /portal-api/tokens': {
      stranger: ok((j: { tokens: { id: string }[] }) => expect(j.tokens.map((t) => t.id)).not.toContain(tokenId)),
    },
    'POST /portal-api/tokens': { body: {}, stranger: invalid },
    'DELETE /portal-api/tokens/:id': { id: () => tokenId, stranger: notFound },
    'GET /portal-api/webhooks': {
      stranger: ok((j: { data: { id: string }[] }, caller) => {
        if (caller.isOwner) expect(j.data.map((w) => w.id)).not.toContain(hookId);
        else expect(j).toEqual({ object: 'list', data: [], has_more: false });
      }),
    },
    'POST /portal-api/webhooks': { body: {}, stranger: invalid },
    'GET /portal-api/webhooks/health': {
      stranger: ok((j: { endpoints: { endpointId: string }[] }, caller) => {
        if (caller.isOwner) expect(j.endpoints.map((e) => e.endpointId)).not.toContain(hookId);
        else expect(j).toEqual({ endpoints: [] });
      }),
    },
    'GET /portal-api/webhooks/:id': { id: () => hookId, stranger: notFound },
    'PATCH /portal-api/webhooks/:id': { id: () => hookId, body: { enabled: false }, stranger: notFound },
    'DELETE /portal-api/webhooks/:id': { id: () => hookId, stranger: notFound },
    'GET /portal-api/webhooks/:id/deliveries': { id: () => hookId, stranger: notFound },
    'POST /portal-api/webhooks/:id/test': { id: () => hookId, body: {}, stranger: notFound },
    'POST /portal-api/webhooks/:id/rotate-secret': { id: () => hookId, body: {}, stranger: notFound },
    'POST /portal-api/webhooks/:id/deliveries/:deliveryId/redeliver': { id: () => hookId, body: {}, stranger: notFound },
    // The request log: the owner's manifest request is the owner's, in test only.
    // Each caller reads its own account's audit log (every caller here owns one); that another account's rows never
    // show is e2e/api/audit-log.test.ts's, and that other roles get 403 e2e/api/team-roles.test.ts's.
    'GET /portal-api/audit': { stranger: ok((j: { data: unknown[] }) => expect(Array.isArray(j.data)).toBe(true)) },
    'GET /portal-api/audit/export': { stranger: ok((csv: string) => expect(csv.split('\r\n')[0]).toMatch(/^\S/)) },
    'GET /portal-api/requests': {
      query: '?limit=100',
      stranger: ok((j: { data: { id: string }[] }) => expect(j.data.map((r) => r.id)).not.toContain(manifestRequestId)),
    },
    'GET /portal-api/requests/:id': { id: () => manifestRequestId, stranger: notFound },
    'GET /portal-api/invoices': {
      stranger: ok((j: { data: { id: string }[] }) => expect(j.data.map((i) => i.id)).not.toContain(invoiceId)),
    },
    'GET /portal-api/invoices/:id': { id: () => invoiceId, stranger: notFound },
    'GET /portal-api/invoices/:id/lines': { id: () => invoiceId, stranger: notFound },
    'GET /portal-api/invoices/:id/document': { id: () => invoiceId, stranger: notFound },
    // Closes the caller's own open period (test only): it names nothing of anyone else's.
    'POST /portal-api/invoices/close': { body: {}, stranger: 'own session only' },
    'GET /portal-api/billing/open': { stranger: ok((j: { line_count: number }) => expect(j.line_count).toBe(0)) },
    'GET /portal-api/settings/billing': {
      stranger: ok((j: { period: string }, caller) => expect(j.period).toBe(caller.isOwner ? 'week' : 'month')),
    },
    'PUT /portal-api/settings/billing': { body: {}, stranger: invalid },
    // The batch routes act only within the caller's account and environment: the owner's barcode selects nothing.
    // Another account counts none; the owner's live count is its own live packages (other specs add some).
    'GET /portal-api/package-count': {
      stranger: ok((j: { count: number }, caller) => {
        if (!caller.isOwner) expect(j.count).toBe(0);
      }),
    },
    'POST /portal-api/package-batch/cancel': {
      body: { carrier_barcodes: [ownerBarcode] },
      stranger: ok((j: { cancelled: number; not_cancelled: { code?: string }[] }) => {
        expect(j.cancelled).toBe(0);
        expect(j.not_cancelled).toHaveLength(1);
      }),
    },
    'GET /portal-api/package-batch/export': {
      query: `?ids=${packedIds}`,
      stranger: ok((csv: string) => expect(csv.split('\r\n').filter(Boolean)).toHaveLength(1)),
    },
    'POST /portal-api/package-batch/export': {
      body: { carrier_barcodes: [ownerBarcode] },
      stranger: ok((csv: string) => expect(csv.split('\r\n').filter(Boolean)).toHaveLength(1)),
    },
    'GET /portal-api/package-batch/labels': { query: `?format=pdf&ids=${packedIds}`, stranger: notFound },
    'POST /portal-api/package-batch/labels': { body: { carrier_barcodes: [ownerBarcode] }, stranger: notFound },
    'GET /portal-api/pickups': {
      stranger: ok((j: { data: { id: string }[] }) => expect(j.data.map((p) => p.id)).not.toContain(pickupId)),
    },
    'POST /portal-api/pickups': { body: {}, stranger: invalid },
    'POST /portal-api/pickups/:id/cancel': { id: () => pickupId, body: {}, stranger: notFound },
    // Account-wide and off unless turned on: a stranger reads its own default.
    'GET /portal-api/settings/customs': {
      stranger: ok((j: { enforce_readiness: boolean }) => expect(j).toEqual({ enforce_readiness: false })),
    },
    'PUT /portal-api/settings/customs': { body: {}, stranger: invalid },
    // Account-wide: a stranger reads its own, none set.
    'GET /portal-api/settings/branding': {
      stranger: ok((j: { accent_color: string | null; logo: unknown }) =>
        expect(j).toMatchObject({ accent_color: null, logo: null }),
      ),
    },
    'PUT /portal-api/settings/branding': { body: {}, stranger: invalid },
  };
  expect(Object.keys(CALLS).sort(), 'CALLS must cover exactly the routes in app/portal-api').toEqual(
    served.filter((e) => !PUBLIC.includes(e)).sort(),
  );
  for (const e of PUBLIC) expect(served, 'a public route that no longer exists').toContain(e);
  // The session's own DELETE goes last, so that nothing after it depends on the session it may end.
  const endpoints = Object.entries(CALLS)
    .sort(([a], [b]) => Number(a === 'DELETE /portal-api/session') - Number(b === 'DELETE /portal-api/session'))
    .map(([key, call]) => {
      const [method, pattern] = key.split(' ');
      const query = typeof call.query === 'function' ? call.query() : (call.query ?? '');
      const path =
        pattern
          .replace(':id', call.id?.() ?? ':id')
          .replace(':deliveryId', 'msg_nothere')
          .replace(':TrackingNumber', tracking) + query;
      return { method, path, body: call.body, stranger: call.stranger, ownerStatus: call.owner };
    });

  // A session that was signed out: its cookie must be dead.
  const leaver = await browser.newContext({ baseURL: testInfo.project.use.baseURL });
  const leaverPage = await leaver.newPage();
  await signUpThroughUi(leaverPage, uniqueUser('leaver'));
  const leaverCookie = (await leaver.cookies()).find((c) => c.name === 'carrier_session')!.value;
  const leaverCsrf = await csrfToken(leaverPage);
  expect((await portalApi(leaverPage, 'DELETE', '/portal-api/session')).status()).toBe(200);
  await leaver.close();

  for (const [label, cookie] of [
    ['no session', undefined],
    ['a forged session', 'carrier_session=Zm9yZ2VkLXNlc3Npb24tdmFsdWUtdGhhdC1kb2VzLW5vdC1leGlzdA'],
    ['a signed-out session', `carrier_session=${leaverCookie}`],
  ] as const) {
    for (const { method, path, body } of endpoints) {
      const response = await request.fetch(path, {
        method,
        headers: {
          ...(cookie ? { cookie } : {}),
          'x-csrf-token': leaverCsrf,
          'x-carrier-environment': 'test',
          origin: testInfo.project.use.baseURL!,
        },
        data: body === undefined ? undefined : JSON.stringify(body),
      });
      expect(response.status(), `${label}: ${method} ${path}`).toBe(401);
      const text = await response.text();
      expect(JSON.parse(text).error.code, `${label}: ${method} ${path}`).toBe('unauthorized');
      expect(text).not.toContain(MARK);
    }
  }

  // Another account's session, with its own valid CSRF token, in either environment; and the owner's own
  // session in live, where none of these test resources exist.
  for (const [who, page, environment] of [
    ['stranger (test)', stranger, 'test'],
    ['stranger (live)', stranger, 'live'],
    ['owner (live)', owner, 'live'],
  ] as const) {
    for (const { method, path, body, stranger: expected, ownerStatus } of endpoints) {
      if (expected === 'own session only') continue;
      const response = await portalApi(page, method, path, body, environment);
      const text = await response.text();
      const where = `${who}: ${method} ${path}`;
      if (page === owner && ownerStatus !== undefined) {
        expect(response.status(), where).toBe(ownerStatus);
      } else if (expected === 'not_found' || expected === 'validation_failed') {
        expect(response.status(), where).toBe(expected === 'not_found' ? 404 : 422);
        expect((JSON.parse(text) as { error: { code: string } }).error.code, where).toBe(expected);
      } else {
        expect(response.status(), where).toBe(200);
        // The CSV export answers text, every other route JSON.
        const answer = (response.headers()['content-type'] ?? '').startsWith('text/csv') ? text : JSON.parse(text);
        expected.check(answer as never, { isOwner: page === owner, environment });
      }
      expect(text, `${who}: ${method} ${path}`).not.toContain(MARK);
    }
  }

  // A request that does not say which environment it is for is refused, by any signed-in caller.
  for (const page of [owner, stranger]) {
    const csrf = await csrfToken(page);
    for (const { method, path, body } of endpoints) {
      const response = await page.request.fetch(path, {
        method,
        headers: { 'x-csrf-token': csrf, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        data: body === undefined ? undefined : JSON.stringify(body),
      });
      expect(response.status(), `no environment: ${method} ${path}`).toBe(400);
      const text = await response.text();
      expect(JSON.parse(text).error.code, `no environment: ${method} ${path}`).toBe('environment_required');
      expect(text).not.toContain(MARK);
    }
  }

  // Nothing the stranger attempted changed the owner's resources.
  const ownHook = await portalApi(owner, 'GET', `/portal-api/webhooks/${hookId}`, undefined, 'test');
  expect(ownHook.status()).toBe(200);
  expect(await ownHook.text()).toContain(MARK);
  const ownTokens = (await (await portalApi(owner, 'GET', '/portal-api/tokens', undefined, 'test')).json()) as {
    tokens: { id: string; revokedAt: string | null }[];
  };
  expect(ownTokens.tokens.find((t) => t.id === tokenId)).toHaveProperty('revokedAt', null);
  expect((await portalApi(owner, 'GET', `/portal-api/manifests/${manifestId}`, undefined, 'test')).status()).toBe(200);
  expect(await ownHook.json()).toMatchObject({ enabled: true });
  // Nor the owner's package: still manifested, not cancelled or simulated along.
  const ownPackage = await portalApi(owner, 'GET', `/portal-api/packages/${tracking}`, undefined, 'test');
  expect(ownPackage.status()).toBe(200);
  expect(await ownPackage.json()).toMatchObject({ TrackingNumber: tracking, status: 'manifested' });
});
