import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiToken } from '@/lib/accounts/create-api-token';
import { db, pgPool } from '@/lib/db';
import { tracking, type Env } from './support/api';
import { portalRoutes } from './support/hostile';
import {
  address,
  api,
  auth,
  count,
  createContainer,
  createDaily,
  envelope,
  jsonBody,
  ok,
  raw,
  reportAttacks,
} from './support/hostile-shipments';
import { signUpTokenFromOutbox } from './support/portal';

// The portal's routes for manifests, packages, the packages export and the dashboard attacked: no session, hostile
// ids, another account's session, the environment header, hostile queries and simulate bodies, a signed-out tab, and
// the portal and the API cancelling the same package at once. support/hostile-shipments.ts has the raw HTTP.

afterAll(() => reportAttacks('hostile-portal-manifests-packages'));

interface Shipper {
  cookie: string;
  csrf: string;
  accountId: string;
  token: string;
}

async function signUp(label: string): Promise<Shipper> {
  const id = randomUUID().slice(0, 8);
  const email = `${label.toLowerCase()}-${id}@example.com`;
  const asked = await raw('POST', '/portal-api/auth/sign-up', {
    headers: { 'x-forwarded-for': address() },
    body: jsonBody({ company: `${label} ${id}`, email, password: `pw-${id}-correct-horse` }),
  });
  expect(asked.status, asked.text).toBe(202);
  // Signed in by following the link mailed for the sign-up (support/portal.ts).
  const response = await raw('POST', '/portal-api/auth/verify-email', {
    headers: { 'x-forwarded-for': address() },
    body: jsonBody({ token: await signUpTokenFromOutbox(email) }),
  });
  expect(response.status, response.text).toBe(201);
  const setCookie = ([] as string[]).concat(response.headers['set-cookie'] ?? []).join('; ');
  const cookie = /carrier_session=[^;]+/.exec(setCookie)?.[0] ?? '';
  const secret = decodeURIComponent(cookie.split('=')[1] ?? '');
  const row = await db.session.findUniqueOrThrow({
    where: { id: createHash('sha256').update(secret).digest('hex') },
    select: { csrfToken: true, accountId: true },
  });
  const token = (await createApiToken({ accountId: row.accountId, environment: 'test' })).token;
  return { cookie, csrf: row.csrfToken, accountId: row.accountId, token };
}

function portal(
  who: Shipper | null,
  method: string,
  path: string,
  options: { env?: Env | null; body?: string; csrf?: string | null } = {},
) {
  const headers: Record<string, string> = { 'x-forwarded-for': address() };
  if (who) headers.cookie = who.cookie;
  const csrf = options.csrf === undefined ? who?.csrf : options.csrf;
  if (csrf && method !== 'GET') headers['x-csrf-token'] = csrf;
  const env = options.env === undefined ? 'test' : options.env;
  if (env) headers['x-carrier-environment'] = env;
  return raw(method, path, { headers, body: options.body ?? (method === 'GET' ? undefined : '{}') });
}

describe('portal-api lifecycle routes', () => {
  let a: Shipper;
  let b: Shipper;
  const data = { manifest: '', container: [] as string[], daily: '' };
  const PORTAL = portalRoutes().filter((r) => /^\/portal-api\/(packages|manifests|exports|dashboard)/.test(r.pattern));

  beforeAll(async () => {
    [a, b] = await Promise.all([signUp('PortalAttacked'), signUp('PortalAttacker')]);
    data.container = [tracking('APC'), tracking('APC')];
    data.manifest = (await createContainer(a.token, data.container)).manifestId;
    data.daily = tracking('APD');
    await createDaily(a.token, data.daily);
  });

  const fillPortal = (pattern: string, ids: { id?: string; trackingNumber?: string } = {}) =>
    pattern.replace(':id', ids.id ?? data.manifest).replace(':TrackingNumber', ids.trackingNumber ?? data.daily);

  it('reads the route table: every lifecycle portal route is attacked', () => {
    expect(PORTAL.map((r) => r.pattern)).toEqual(
      expect.arrayContaining([
        '/portal-api/dashboard',
        '/portal-api/exports/packages',
        '/portal-api/manifests',
        '/portal-api/manifests/:id',
        '/portal-api/manifests/:id/cancel',
        '/portal-api/manifests/:id/packages',
        '/portal-api/manifests/:id/simulate',
        '/portal-api/manifests/:id/status',
        '/portal-api/packages',
        '/portal-api/packages/:TrackingNumber',
        '/portal-api/packages/:TrackingNumber/cancel',
        '/portal-api/packages/:TrackingNumber/events',
        '/portal-api/packages/:TrackingNumber/simulate',
      ]),
    );
  });

  it('no session: 401 on every route and method; hostile ids: 404 before the session', async () => {
    for (const route of PORTAL) {
      for (const method of route.methods) {
        envelope(await portal(null, method, fillPortal(route.pattern)), 401, 'unauthorized');
        count('portal');
        if (!route.pattern.includes(':')) continue;
        for (const segment of ['%ZZ', '%00', 'a%00b', '%ED%A0%80', '%2F', 'x'.repeat(10_000), '..']) {
          const path = route.pattern.replace(/:[A-Za-z]+/, segment);
          const answer = await portal(a, method, path);
          count('portal');
          // `..` is resolved by the router (a different route or none): whatever it is, a 4xx envelope, never a 5xx.
          if (segment === '..') expect(answer.status, `${path}: ${answer.text.slice(0, 200)}`).toBeLessThan(500);
          else envelope(answer, 404, 'not_found');
        }
      }
    }
  });

  // A body the route would take from its owner: a refusal must be the 404, not the body's 422 (which comes first).
  const validBody = (pattern: string, method: string) =>
    pattern.endsWith('/simulate')
      ? jsonBody({ status: 'delivered' })
      : method === 'PATCH' && pattern === '/portal-api/manifests/:id'
        ? jsonBody({ SealNumber: 'HOSTILE-1' })
        : undefined;

  it("another account's session sees none of it: 404 for ids, its own empty lists, nothing changed", async () => {
    for (const route of PORTAL) {
      for (const method of route.methods) {
        if (route.pattern === '/portal-api/manifests' && method === 'POST') continue; // a create: its own
        const answer = await portal(b, method, fillPortal(route.pattern), { body: validBody(route.pattern, method) });
        count('portal');
        if (route.pattern.includes(':')) envelope(answer, 404, 'not_found');
        else expect(answer.status, answer.text.slice(0, 200)).toBe(200);
        const path = fillPortal(route.pattern);
        for (const n of [...data.container, data.daily, data.manifest])
          if (!path.includes(n)) expect(answer.text, route.pattern).not.toContain(n);
        expect(answer.text).not.toContain('Beverly Hills');
      }
    }
    const mine = ok(await portal(a, 'GET', `/portal-api/packages/${data.daily}`));
    expect(mine.status).toBe('manifested');
  });

  it('the live environment header does not reach test data; a missing or hostile header is 400', async () => {
    for (const route of PORTAL.filter((r) => r.pattern.includes(':'))) {
      for (const method of route.methods) {
        const answer = await portal(a, method, fillPortal(route.pattern), {
          env: 'live',
          body: validBody(route.pattern, method),
        });
        count('portal');
        envelope(answer, 404, 'not_found');
      }
    }
    // A download link naming the environment twice names none: 400, never the first of them.
    for (const query of ['environment=live&environment=test', 'environment=test&environment=live']) {
      envelope(
        await raw('GET', `/portal-api/exports/packages?${query}`, { headers: { cookie: a.cookie } }),
        400,
        'environment_required',
      );
      envelope(
        await raw('GET', `/portal-api/manifests/${data.manifest}/export?${query}`, { headers: { cookie: a.cookie } }),
        400,
        'environment_required',
      );
      count('portal', 2);
    }
    for (const env of ['', 'LIVE', 'test\u00ff', 'production', 'test,live', 'x'.repeat(8_000)]) {
      const answer = await raw('GET', '/portal-api/packages', { headers: { cookie: a.cookie, 'x-carrier-environment': env } });
      count('portal');
      envelope(answer, 400, 'environment_required');
    }
  });

  it('hostile queries on the portal lists and the export: 422 naming the parameter, never a 5xx', async () => {
    const cases: [string, string][] = [
      ['/portal-api/packages?status=a&status=b', 'status'],
      ['/portal-api/packages?limit=0', 'limit'],
      ['/portal-api/packages?limit=101', 'limit'],
      ['/portal-api/packages?limit=NaN', 'limit'],
      ['/portal-api/packages?cursor=garbage', 'cursor'],
      ['/portal-api/packages?from=2026-02-30', 'from'],
      ['/portal-api/packages?to=0000-01-01', 'to'],
      ['/portal-api/packages?tracking_number=a%00b', 'tracking_number'],
      ['/portal-api/packages?nope=1', 'nope'],
      ['/portal-api/exports/packages?nope=1', 'nope'],
      ['/portal-api/exports/packages?status=a&status=b', 'status'],
      ['/portal-api/exports/packages?limit=10', 'limit'],
      ['/portal-api/exports/packages?cursor=x', 'cursor'],
      ['/portal-api/exports/packages?from=9999-12-31', 'from'],
      ['/portal-api/exports/packages?manifest_id=%00', 'manifest_id'],
      ['/portal-api/manifests?q=%00', 'q'],
      ['/portal-api/manifests?from=2026-02-30', 'from'],
      ['/portal-api/manifests?service=%ED%A0%80%00', 'service'],
      ['/portal-api/manifests?after=%00', 'after'],
      ['/portal-api/manifests?before=a%00', 'before'],
      // A range that holds nothing is explained rather than answered with an empty list.
      ['/portal-api/manifests?from=2026-11-20&to=2026-11-10', 'to'],
      ['/portal-api/packages?from=2026-11-20&to=2026-11-10', 'to'],
      // The manifests list and a manifest's packages run the API's operations (one shape, one reader): what the
      // portal's own readers once took as the first page is named, as the Packages list and the API name it.
      ['/portal-api/manifests?limit=0&limit=NaN&after=%E0%A4&before=garbage&type=box', 'limit'],
      ['/portal-api/manifests?type=box', 'type'],
      ['/portal-api/manifests?cursor=garbage', 'cursor'],
      [`/portal-api/manifests/${data.manifest}/packages?cursor=${'x'.repeat(10_000)}&limit=-1`, 'cursor'],
      [`/portal-api/manifests/${data.manifest}/packages?limit=-1`, 'limit'],
      [`/portal-api/manifests/${data.manifest}/packages?cursor=%00&cursor=%ZZ`, 'cursor'],
      // Keyset cursors with times no row has (a negative year PostgreSQL refused: a 500 once): refused before any query.
      ...[
        '0000-01-01T00:00:00.000Z',
        '-271821-04-20T00:00:00.000Z',
        '+275760-09-13T00:00:00.000Z',
        '1970-01-01T00:00:00.000Z',
      ].flatMap((t): [string, string][] => [
        [`/portal-api/manifests?cursor=${Buffer.from(JSON.stringify([t, 0, 'MAN-X'])).toString('base64url')}`, 'cursor'],
        [
          `/portal-api/manifests/${data.manifest}/packages?cursor=${Buffer.from(JSON.stringify([t, 0, '1'])).toString('base64url')}`,
          'cursor',
        ],
      ]),
    ];
    for (const [path, field] of cases) {
      const answer = await portal(a, 'GET', path);
      count('portal');
      envelope(answer, 422, 'validation_failed', field);
    }
    // The lenient ones: 200, never a 5xx.
    for (const path of [
      '/portal-api/dashboard?x=%00&x=%ZZ',
      '/portal-api/packages?service=%ZZ',
      '/portal-api/manifests?service=%ZZ',
      '/portal-api/manifests?q=%25%5F',
      // Next leaves `__proto__` out of the URL it hands the handler: the list, unfiltered.
      '/portal-api/packages?__proto__=1',
      '/portal-api/manifests?__proto__=1',
    ]) {
      const answer = await portal(a, 'GET', path);
      count('portal');
      expect(answer.status, `${path.slice(0, 80)}: ${answer.text.slice(0, 200)}`).toBe(200);
    }
  });

  it('hostile simulate bodies through the portal: 4xx, nothing moved', async () => {
    for (const body of [
      '{"status":"\\u0000"}',
      '{"status":"delivered","code":"\\ud800"}',
      '{"status":"delivered","status":"x"}',
      `{"status":${'['.repeat(50_000)}${']'.repeat(50_000)}}`,
      'x'.repeat(1_000_001),
    ]) {
      for (const path of [`/portal-api/packages/${data.daily}/simulate`, `/portal-api/manifests/${data.manifest}/simulate`]) {
        const answer = await portal(a, 'POST', path, { body });
        count('portal');
        expect(answer.status, `${path} ${body.slice(0, 30)}: ${answer.text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
        expect(answer.status).toBeLessThan(500);
        envelope(answer, answer.status, answer.json?.error?.code);
      }
    }
    expect(ok(await portal(a, 'GET', `/portal-api/packages/${data.daily}`)).status).toBe('manifested');
  });

  it('a stale tab: signed out, then every route is 401, mutations included', async () => {
    const c = await signUp('PortalStale');
    const n = tracking('APS');
    await createDaily(c.token, n);
    ok(await portal(c, 'DELETE', '/portal-api/session'));
    for (const route of PORTAL) {
      for (const method of route.methods) {
        const answer = await portal(c, method, route.pattern.replace(':TrackingNumber', n).replace(':id', 'MAN-X'));
        count('portal');
        envelope(answer, 401, 'unauthorized');
      }
    }
    const still = ok(await raw('GET', api('test', `/packages/${n}`), { headers: auth(c.token) }));
    expect(still.status).toBe('manifested');
  });

  it('two tabs cancel the same package and its manifest at once (portal and API): 200s, one cancel event each', async () => {
    const n = tracking('APT');
    const { manifestId } = await createContainer(a.token, [n]);
    const answers = await Promise.all([
      portal(a, 'POST', `/portal-api/packages/${n}/cancel`),
      portal(a, 'POST', `/portal-api/manifests/${manifestId}/cancel`),
      raw('POST', api('test', `/packages/${n}/cancel`), { headers: auth(a.token) }),
      raw('POST', api('test', `/manifests/${manifestId}/cancel`), { headers: auth(a.token) }),
    ]);
    count('concurrency', 4);
    for (const answer of answers) expect(answer.status, answer.text.slice(0, 300)).toBe(200);
    const { rows } = await pgPool().query<{ n: number }>(
      `SELECT count(*)::int AS n FROM lifecycle_events WHERE account_id = $1 AND tracking_number = $2`,
      [a.accountId, n],
    );
    expect(rows[0]?.n).toBe(1);
  });
});
