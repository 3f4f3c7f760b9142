import { afterAll, describe, expect, it } from 'vitest';
import { count, envelope, raw, reportAttacks } from './support/hostile-shipments';

// The probes (/healthz, /readyz, /metrics) attacked with hostile methods, queries, headers and paths.

afterAll(() => reportAttacks('hostile-probes'));

describe('probes', () => {
  it('/healthz, /readyz, /metrics: hostile methods, queries and paths are answered with the envelope or the probe, never a 5xx', async () => {
    for (const probe of ['/healthz', '/readyz']) {
      for (const suffix of ['', '?x=%00', '?%ZZ', '?a=1&a=2']) {
        const answer = await raw('GET', probe + suffix);
        count('probe');
        expect(answer.status, answer.text).toBe(200);
        expect(answer.headers['x-request-id']).toMatch(/^req_/);
      }
      envelope(await raw('POST', probe, { body: '{}' }), 405, 'method_not_allowed');
      envelope(await raw('DELETE', probe), 405, 'method_not_allowed');
      const head = await raw('HEAD', probe);
      expect(head.status).toBe(200);
      count('probe', 3);
    }
    // No METRICS_TOKEN on this server: /metrics is not here, whatever the caller sends.
    for (const headers of <Record<string, string>[]>[
      {},
      { authorization: 'Bearer x' },
      { authorization: `Bearer ${'x'.repeat(8_000)}` },
      { authorization: 'Bearer \u00ff' },
    ]) {
      envelope(await raw('GET', '/metrics', { headers }), 404, 'not_found');
      count('probe');
    }
    for (const path of [
      '/healthz/',
      '/healthz/..',
      '/healthz%00',
      '/readyz/%ZZ',
      '/metrics/../healthz',
      `/healthz/${'x'.repeat(10_000)}`,
    ]) {
      const answer = await raw('GET', path);
      count('probe');
      expect(answer.status, `${path.slice(0, 40)}: ${answer.text.slice(0, 200)}`).toBeLessThan(500);
    }
  });
});
