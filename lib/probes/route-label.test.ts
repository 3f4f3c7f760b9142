import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { carriesToken } from '@/lib/telemetry/metrics';
import { routeLabeler } from './route-label';

// The `route` label must be a template from a fixed set whatever path arrives: ids, search strings and
// made-up paths must not add time series.

const dir = mkdtempSync(path.join(tmpdir(), 'route-label-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(
  path.join(dir, 'routes-manifest.json'),
  JSON.stringify({
    staticRoutes: [
      { page: '/sign-in', regex: '^/sign\\-in(?:/)?$' },
      { page: '/api/1.1/openapi.json', regex: '^/api/1\\.1/openapi\\.json(?:/)?$' },
    ],
    dynamicRoutes: [
      { page: '/api/1.1/[[...path]]', regex: '^/api/1\\.1(?:/(.+?))?(?:/)?$' },
      { page: '/[environment]/manifests/new', regex: '^/([^/]+?)/manifests/new(?:/)?$' },
      { page: '/[environment]/manifests/[id]', regex: '^/([^/]+?)/manifests/([^/]+?)(?:/)?$' },
      { page: '/[environment]', regex: '^/([^/]+?)(?:/)?$' },
    ],
  }),
);

describe('routeLabeler', () => {
  const label = routeLabeler({ nextDir: dir });
  it.each([
    ['/version-test/api/1.1/wf/rate', '/version-test/api/1.1/wf/rate'],
    ['/api/1.1/wf/package', '/api/1.1/wf/package'],
    ['/version-test/api/1.1/webhooks/we_123', '/version-test/api/1.1/webhooks/:id'],
    ['/api/1.1/webhooks/we_1/deliveries/att_2/redeliver', '/api/1.1/webhooks/:id/deliveries/:deliveryId/redeliver'],
    ['/api/1.1/webhooks/%ZZ', '/api/1.1/webhooks/:id'],
    ['/api/1.1/openapi.json', '/api/1.1/openapi.json'],
    ['/api/1.1/nothing/here/at/all', 'api:unmatched'],
    ['/version-test/api/1.1/x', 'api:unmatched'],
    ['/test/manifests/new', '/[environment]/manifests/new'],
    ['/live/manifests/MAN-123', '/[environment]/manifests/[id]'],
    ['/anything', '/[environment]'],
    ['/a/b/c/d', 'other'],
    ['/_next/static/chunks/abc.js', '/_next/static'],
    ['/_next/image', '/_next'],
    ['/healthz', '/healthz'],
    ['/metrics', '/metrics'],
  ])('%s → %s', (pathname, expected) => {
    expect(label(pathname)).toBe(expected);
  });

  it('labels everything but the API and the probes `other` without a build', () => {
    const bare = routeLabeler({ nextDir: path.join(dir, 'missing') });
    expect(bare('/test/manifests/MAN-1')).toBe('other');
    expect(bare('/api/1.1/wf/rate')).toBe('/api/1.1/wf/rate');
  });
});

describe('carriesToken', () => {
  const token = 'a-metrics-token-of-length';
  it.each([
    [`Bearer ${token}`, true],
    [`bearer ${token}`, true],
    [`Token ${token}`, true],
    [`Bearer ${token} `, true],
    [`Bearer ${token}x`, false],
    [token, false],
    ['Bearer', false],
    ['', false],
    [undefined, false],
    [`Basic ${token}`, false],
  ])('%s → %s', (header, expected) => {
    expect(carriesToken(header, token)).toBe(expected);
  });
});
