import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodePathParam, hasMalformedEscape, isPlausiblePathParam } from './path-params';
import { handleApiRequest } from './pipeline';
import { matchRoute } from './routes';

const base = '/version-test/api/1.1';

describe('matchRoute', () => {
  it('decodes a path id', () => {
    expect(matchRoute(`${base}/webhooks/we_abc%2D1`)).toMatchObject({ params: { id: 'we_abc-1' } });
    expect(matchRoute(`${base}/webhooks/we_abc`)?.invalidParam).toBeUndefined();
  });

  it.each([
    ['%ZZ', 'id'],
    ['%', 'id'],
    ['%E0%A4', 'id'],
    ['%ED%A0%80', 'id'], // a lone surrogate, as UTF-8 would spell it
    ['%00', 'id'],
    ['a%0Ab', 'id'],
    ['%7F', 'id'],
    ['%C2%85', 'id'], // C1 control (NEL)
    ['x'.repeat(129), 'id'],
  ])('flags %s as no id, without throwing', (segment, name) => {
    for (const path of [`/webhooks/${segment}`, `/webhooks/${segment}/deliveries`, `/webhooks/${segment}/test`, `/webhooks/${segment}/rotate-secret`]) {
      const match = matchRoute(base + path);
      expect(match?.invalidParam).toBe(name);
    }
  });

  it('flags a bad delivery id by its name', () => {
    expect(matchRoute(`${base}/webhooks/we_1/deliveries/%00/redeliver`)?.invalidParam).toBe('deliveryId');
  });

  it('never throws, whatever the path', () => {
    const segment = fc.oneof(fc.string(), fc.constantFrom('%', '%Z', '%ZZ', '%00', '%ED%A0%80', '%C0%AF', 'webhooks', 'deliveries', 'redeliver', 'wf', 'rate'));
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 6 }), (segments) => {
        const match = matchRoute(`${base}/${segments.join('/')}`);
        for (const value of Object.values(match?.params ?? {})) expect(isPlausiblePathParam(value)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('decodePathParam', () => {
  it('keeps ids we issue and refuses what no id can be', () => {
    expect(decodePathParam('MAN-7K3Q9X2M4T8V6W1Z')).toBe('MAN-7K3Q9X2M4T8V6W1Z');
    expect(decodePathParam('msg_' + 'a'.repeat(64))).toBe('msg_' + 'a'.repeat(64));
    expect(decodePathParam('%D7%90%E2%80%8F')).toBeUndefined(); // RTL and a mark: no id has them
    expect(decodePathParam('a%20b')).toBeUndefined();
    expect(decodePathParam('0e0f7f52-3b5c-4c5e-9a55-6f1c1c2c9d11')).toBe('0e0f7f52-3b5c-4c5e-9a55-6f1c1c2c9d11');
    expect(decodePathParam('')).toBeUndefined();
    expect(decodePathParam('%ZZ')).toBeUndefined();
    expect(decodePathParam('%00')).toBeUndefined();
  });
  it('refuses lone surrogates that arrive already decoded', () => {
    expect(isPlausiblePathParam('a\ud800b')).toBe(false);
    expect(isPlausiblePathParam('a\u0000b')).toBe(false);
  });
});

describe('hasMalformedEscape', () => {
  it('finds escapes that cannot be decoded, and only those', () => {
    expect(hasMalformedEscape('/api/1.1/webhooks/we_1')).toBe(false);
    expect(hasMalformedEscape('/api/1.1/webhooks/%00')).toBe(false);
    expect(hasMalformedEscape('/api/1.1/webhooks/a%20b')).toBe(false);
    expect(hasMalformedEscape('/api/1.1/webhooks/%ZZ/deliveries')).toBe(true);
    expect(hasMalformedEscape('/x/%E0%A4')).toBe(true);
    expect(hasMalformedEscape('/x/%')).toBe(true);
  });
});

describe('handleApiRequest on a path that cannot name anything', () => {
  const request = (path: string, method = 'GET') => ({
    method,
    path,
    query: new URLSearchParams(),
    headers: { get: () => null },
    readBody: () => Promise.resolve(''),
  });

  it.each(['%ZZ', '%00', '%ZZ/deliveries', '%00/test', 'we_1/deliveries/%ZZ/redeliver'])(
    'answers /webhooks/%s with a 404 envelope, its request id and the route CORS headers (no token needed to see it)',
    async (rest) => {
      const method = rest.endsWith('test') || rest.endsWith('redeliver') ? 'POST' : 'GET';
      const response = await handleApiRequest(request(`${base}/webhooks/${rest}`, method));
      expect(response.status).toBe(404);
      const body = JSON.parse(response.body);
      expect(body.error.code).toBe('not_found');
      expect(response.headers['x-request-id']).toMatch(/^req_[0-9a-f]{32}$/);
      expect(body.error.request_id).toBe(response.headers['x-request-id']);
      expect(response.headers['access-control-allow-origin']).toBe('*');
      expect(response.headers['access-control-allow-methods']).toMatch(/OPTIONS$/);
      expect(response.headers['access-control-allow-methods']).not.toBe('OPTIONS');
    },
  );
});
