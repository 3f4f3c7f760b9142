import { describe, expect, it } from 'vitest';
import { baseUrl, call } from './support/api';
import { portalCall as portal, signUp, type PortalAnswer } from './support/portal';

// Import mapping, webhook deliveries, list date ranges and not-found pages, attacked as an outsider would: NUL and lone surrogates in every
// text, the largest body the limit allows and one past it, malformed escapes and NUL in paths, impossible dates,
// another account's ids, the other environment, a stale tab (no CSRF token), and two sessions at once. Every answer is
// a 4xx envelope or works; never a 5xx.

function envelope(answer: PortalAnswer, status: number, code?: string) {
  expect(answer.status, answer.text.slice(0, 300)).toBe(status);
  if (code) expect(answer.json?.error?.code, answer.text.slice(0, 300)).toBe(code);
}

const MAPPING = '/portal-api/import-mapping';

describe('import mapping, webhook deliveries, list dates and not-found pages under attack', () => {
  it('import mapping: hostile text, surrogates, the body limit, a stale tab, two sessions', async () => {
    const [owner, other] = await Promise.all([signUp('Attack17'), signUp('Attack17Other')]);
    // NUL and lone surrogates in keys and values (raw JSON, so the escapes reach the server as sent).
    for (const raw of [
      '{"columns":{"a\\u0000b":"ToCity"}}',
      '{"columns":{"ab":"ToCity\\u0000"}}',
      '{"columns":{"\\ud800":"ToCity"}}',
      '{"columns":{"ab":"\\udc00"}}',
      '{"columns":{"ab":null}}',
      '{"columns":"\\ud800"}',
      '{"columns\\u0000":{}}',
    ]) {
      const answer = await portal(owner, 'PUT', MAPPING, { rawBody: raw });
      envelope(answer, 422, 'validation_failed');
    }
    // 1,000 and 1,001 columns are refused by the 200-column count, 9,000 members by the JSON reader's member limit,
    // and near the 1 MB form limit long keys are refused by name. None is a crash.
    const columns = (n: number, key = (i: number) => `c${i}`) =>
      JSON.stringify({ columns: Object.fromEntries(Array.from({ length: n }, (_, i) => [key(i), 'ToCity'])) });
    envelope(await portal(owner, 'PUT', MAPPING, { rawBody: columns(1_000) }), 422, 'validation_failed');
    envelope(await portal(owner, 'PUT', MAPPING, { rawBody: columns(1_001) }), 422, 'validation_failed');
    envelope(await portal(owner, 'PUT', MAPPING, { rawBody: columns(9_000) }), 400, 'invalid_json');
    const near = columns(190, (i) => `c${i}${'x'.repeat(5_000)}`);
    expect(Buffer.byteLength(near)).toBeLessThan(1_000_000);
    envelope(await portal(owner, 'PUT', MAPPING, { rawBody: near }), 422, 'validation_failed');
    const past = JSON.stringify({ columns: { a: 'x'.repeat(1_000_001) } });
    envelope(await portal(owner, 'PUT', MAPPING, { rawBody: past }), 413);
    // A stale tab (no CSRF token) and no session: refused; the other account never sees the owner's mapping.
    envelope(await portal(owner, 'PUT', MAPPING, { body: { columns: { a: 'ToCity' } }, csrf: null }), 403, 'forbidden');
    envelope(await portal(null, 'PUT', MAPPING, { body: { columns: { a: 'ToCity' } } }), 401, 'unauthorized');
    await portal(owner, 'PUT', MAPPING, { body: { columns: { mine: 'ToName' } } });
    expect((await portal(other, 'GET', MAPPING)).json).toEqual({ columns: {} });
    // Two sessions of two accounts at once: each keeps its own.
    const both = await Promise.all([
      portal(owner, 'PUT', MAPPING, { body: { columns: { both: 'ToCity' } } }),
      portal(other, 'PUT', MAPPING, { body: { columns: { both: 'ToState' } } }),
    ]);
    expect(both.map((b) => b.status)).toEqual([200, 200]);
    expect((await portal(owner, 'GET', MAPPING)).json.columns.both).toBe('ToCity');
    expect((await portal(other, 'GET', MAPPING)).json.columns.both).toBe('ToState');
    // Paths: a malformed escape and a NUL after the route, and a query it does not take.
    for (const path of [`${MAPPING}/%ZZ`, `${MAPPING}/%00`, `${MAPPING}?x=%ZZ`, `${MAPPING}%00`]) {
      const answer = await fetch(baseUrl + path, { headers: { cookie: owner.cookie, 'x-carrier-environment': 'test' } });
      expect(answer.status, path).toBeLessThan(500);
      await answer.arrayBuffer();
    }
  });

  it('webhook deliveries and edits: hostile outcome, another account, the other environment, hostile PATCH text', async () => {
    const [owner, other] = await Promise.all([signUp('Attack17Hook'), signUp('Attack17HookOther')]);
    const created = await portal(owner, 'POST', '/portal-api/webhooks', {
      body: { url: 'https://93.184.215.14/hook', events: ['package.sorting'] },
    });
    expect(created.status, created.text).toBeLessThan(300);
    const id = created.json.id as string;
    const deliveries = `/portal-api/webhooks/${id}/deliveries`;
    for (const query of [
      'outcome=%00',
      'outcome=%ED%A0%80',
      'outcome=%ZZ',
      'outcome=failed&outcome=succeeded',
      `outcome=${'f'.repeat(10_000)}`,
    ]) {
      const answer = await portal(owner, 'GET', `${deliveries}?${query}`);
      expect(answer.status, `${query.slice(0, 40)}: ${answer.text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
    }
    envelope(await portal(owner, 'GET', `${deliveries}?outcome=failed`), 200);
    envelope(await portal(other, 'GET', `${deliveries}?outcome=failed`), 404, 'not_found');
    envelope(await portal(owner, 'GET', `${deliveries}?outcome=failed`, { env: 'live' }), 404, 'not_found');
    // The API's form of the same route, with the owner's token in live: the endpoint is test's.
    const live = await call(`/webhooks/${id}/deliveries?outcome=failed`, {
      method: 'GET',
      env: 'live',
      token: owner.tokens.live,
    });
    expect(live.status).toBe(404);
    // Editing: NUL, a lone surrogate, an unknown event, another account's endpoint, a stale tab.
    for (const raw of [
      '{"url":"https://93.184.215.14/a\\u0000"}',
      '{"description":"x\\ud800"}',
      '{"events":["package.sorting\\u0000"]}',
      '{"events":["nope"]}',
      '{"url":"https://93.184.215.14/\\udc00"}',
    ]) {
      const answer = await portal(owner, 'PATCH', `/portal-api/webhooks/${id}`, { rawBody: raw });
      envelope(answer, 422, 'validation_failed');
    }
    envelope(
      await portal(other, 'PATCH', `/portal-api/webhooks/${id}`, { body: { url: 'https://93.184.215.14/x' } }),
      404,
      'not_found',
    );
    envelope(
      await portal(owner, 'PATCH', `/portal-api/webhooks/${id}`, { body: { url: 'https://93.184.215.14/x' }, csrf: null }),
      403,
      'forbidden',
    );
    for (const path of [`/portal-api/webhooks/%ZZ/deliveries`, `/portal-api/webhooks/a%00b/deliveries?outcome=failed`]) {
      const answer = await portal(owner, 'GET', path);
      expect(answer.status, path).toBe(404);
    }
  });

  it('list date ranges: impossible and reversed dates are 422s naming the field, in both lists', async () => {
    const owner = await signUp('Attack17Dates');
    for (const [path, field] of [
      ['/portal-api/manifests?from=2026-02-30', 'from'],
      ['/portal-api/manifests?to=0000-01-01', 'to'],
      ['/portal-api/manifests?from=2026-11-20&to=2026-11-19', 'to'],
      ['/portal-api/packages?from=2026-11-20&to=2026-11-19', 'to'],
      ['/portal-api/manifests?from=2026-11-20%00', 'from'],
    ] as const) {
      const answer = await portal(owner, 'GET', path);
      envelope(answer, 422, 'validation_failed');
      expect(
        answer.json.error.details.map((d: { path: string }) => d.path),
        path,
      ).toContain(field);
    }
    // The same day on both sides is a valid range.
    envelope(await portal(owner, 'GET', '/portal-api/manifests?from=2026-11-20&to=2026-11-20'), 200);
  });

  it('not-found pages and airports: hostile paths and queries never 5xx', async () => {
    const owner = await signUp('Attack17Paths');
    for (const path of [
      '/test/%ZZ',
      '/test/a%00b',
      '/live/no/such/page',
      '/nowhere/%E0%A4',
      '/readyz/x',
      '/healthz/%ZZ',
      '/test/' + 'x'.repeat(5_000),
    ]) {
      const answer = await fetch(baseUrl + path, { headers: { cookie: owner.cookie }, redirect: 'manual' });
      expect(answer.status, path.slice(0, 60)).toBeLessThan(500);
      await answer.arrayBuffer();
    }
    for (const q of ['%00', '%ED%A0%80', '%ZZ', 'x'.repeat(10_000), 'london']) {
      const answer = await portal(owner, 'GET', `/portal-api/airports?q=${q}`);
      expect(answer.status, q.slice(0, 20)).toBeLessThan(500);
    }
  });
});
