import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgPool } from '@/lib/db';
import { tracking } from './support/api';
import {
  api,
  auth,
  count,
  createDaily,
  envelope,
  jsonBody,
  keepAlive,
  ok,
  ops,
  owned,
  owner,
  ownerTest,
  raw,
  reportAttacks,
  setUpAttackedAccounts,
  target,
  type Answer,
} from './support/hostile-shipments';

// Hostile bodies on the routes that change a status: POST /ops/scans (a thousand hostile scans, NUL and lone
// surrogates, impossible times, the body limit to the byte), simulate and cancel (deep nesting, duplicate keys, wrong
// types, targets of the wrong kind, oversized bodies). support/hostile-shipments.ts has the raw HTTP and the attacked
// accounts.

beforeAll(setUpAttackedAccounts);
afterAll(() => reportAttacks('hostile-status-bodies'));

describe('hostile bodies on the POST routes', () => {
  function scan(fields: Record<string, unknown> = {}) {
    return {
      scan_id: `atk-${randomUUID()}`,
      location: 'JFK',
      occurred_at: new Date(Date.now() - 60_000).toISOString(),
      event: 'received',
      tracking_number: 'NOPE-ATTACK',
      ...fields,
    };
  }

  it('POST /ops/scans: 1,000 scans with every field hostile is 200, each refused on its own; 1,001 is 422 naming scans', async () => {
    const hostile: Record<string, unknown>[] = [
      { scan_id: 'a\u0000b' },
      { scan_id: '\ud800' },
      { scan_id: 'x'.repeat(10_000) },
      { scan_id: 42 },
      { tracking_number: 'a\u0000b' },
      { tracking_number: '\udfff' },
      { tracking_number: 'x'.repeat(10_000) },
      { tracking_number: ['a'] },
      { container_id: '\u0000', tracking_number: undefined },
      { container_id: '\ud800', tracking_number: undefined },
      { location: 'J\u0000K' },
      { location: '\ud800' },
      { occurred_at: '2026-02-30T00:00:00Z' },
      { occurred_at: '0000-01-01T00:00:00Z' },
      { occurred_at: '9999-12-31T23:59:59Z' },
      { occurred_at: '2026-11-23T24:00:00Z' },
      { occurred_at: '2026-11-23T08:00:00+25:00' },
      { occurred_at: 1 },
      { event: '\u0000' },
      { event: 'x'.repeat(10_000) },
      { event: '__proto__' },
      { exception_code: '\u0000', event: 'exception' },
      { exception_text: '\ud800', event: 'exception' },
      { exception_text: 'x'.repeat(501), event: 'exception' },
      { extra: 1 },
      { __proto__: { polluted: true } },
    ];
    const scans = Array.from({ length: 1_000 }, (_, i) => {
      const h = hostile[i % hostile.length];
      const s: Record<string, unknown> = { ...scan(), ...h };
      for (const [k, v] of Object.entries(h)) if (v === undefined) delete s[k];
      if ('__proto__' in h && i % 2) return JSON.parse(JSON.stringify(s).replace(/^\{/, '{"__proto__":{"polluted":true},'));
      return s;
    });
    const answer = await raw('POST', api('test', '/ops/scans'), { headers: auth(ops), body: jsonBody({ scans }) });
    count('body', 1_000);
    const body = ok(answer);
    expect(body.results).toHaveLength(1_000);
    // Nothing of these names a package: every scan is refused (invalid, or not found / unknown event).
    expect(body.refused).toBe(1_000);
    expect(body.applied + body.recorded + body.duplicate).toBe(0);
    for (const result of body.results) expect(result.result).toBe('refused');
    // A refused scan's id is echoed only when it is well formed: no NUL, surrogate or 10 KB back.
    expect(answer.text).not.toContain('\\u0000');
    expect(answer.text).not.toContain(
      'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();

    const over = await raw('POST', api('test', '/ops/scans'), {
      headers: auth(ops),
      body: jsonBody({ scans: [...scans, scan()] }),
    });
    count('body');
    envelope(over, 422, 'validation_failed', 'scans');
  });

  it('POST /ops/scans: a NUL or lone surrogate in one scan refuses that scan alone, naming its field; the others apply', async () => {
    const n = tracking('ATN');
    await createDaily(ownerTest.get(), n);
    const good = scan({ tracking_number: n });
    const answer = await raw('POST', api('test', '/ops/scans'), {
      headers: auth(ops),
      body: jsonBody({
        scans: [
          scan({ exception_text: 'a\u0000b', event: 'exception' }),
          good,
          scan({ exception_code: '\ud800', event: 'exception' }),
          scan({ event: 'rec\u0000eived' }),
          scan({ container_id: 'C\u0007', tracking_number: undefined }),
        ].map((s) => JSON.parse(JSON.stringify(s))),
      }),
    });
    count('body', 5);
    const body = ok(answer);
    expect(body.results.map((r: { result: string }) => r.result)).toEqual([
      'refused',
      'applied',
      'refused',
      'refused',
      'refused',
    ]);
    expect(body.results[0].error.details).toEqual([
      { path: 'exception_text', message: 'must not contain control characters (found NUL at position 1)' },
    ]);
    expect(body.results[2].error.details).toEqual([
      { path: 'exception_code', message: 'must be valid Unicode text (it contains an unpaired surrogate)' },
    ]);
    expect(body.results[3].error.details[0].path).toBe('event');
    expect(body.results[4].error.details[0].path).toBe('container_id');
    expect(body.results[1]).toMatchObject({ scan_id: good.scan_id, result: 'applied', status: 'received' });
    const pkg = ok(await raw('GET', api('test', `/packages/${n}`), { headers: auth(ownerTest.get()) }));
    expect(pkg.status).toBe('received');
  });

  it('POST /ops/scans: an impossible day or time is refused naming occurred_at, even for a real package (never rolled over)', async () => {
    const n = tracking('ATD');
    await createDaily(ownerTest.get(), n);
    const impossible = [
      '2026-02-30T00:00:00Z',
      '2025-02-29T12:00:00Z',
      '2026-04-31T10:00:00Z',
      '2026-11-23T24:00:00Z',
      '2026-11-23T23:60:00Z',
      '2026-11-23T23:59:60Z',
      '2026-00-10T00:00:00Z',
    ];
    const answer = await raw('POST', api('test', '/ops/scans'), {
      headers: auth(ops),
      body: jsonBody({ scans: impossible.map((occurred_at) => scan({ tracking_number: n, occurred_at: occurred_at })) }),
    });
    count('body', impossible.length);
    const body = ok(answer);
    expect(body.results.map((r: { result: string }) => r.result)).toEqual(impossible.map(() => 'refused'));
    for (const result of body.results)
      expect(result.error.details).toEqual([{ path: 'occurred_at', message: 'is not a real date-time' }]);
    const pkg = ok(await raw('GET', api('test', `/packages/${n}`), { headers: auth(ownerTest.get()) }));
    expect(pkg.status).toBe('manifested');
    // A leap day that exists is a date like any other.
    const leap = ok(
      await raw('POST', api('test', '/ops/scans'), {
        headers: auth(ops),
        body: jsonBody({ scans: [scan({ tracking_number: n, occurred_at: '2024-02-29T12:00:00Z' })] }),
      }),
    );
    count('body');
    expect(leap.results[0].result).toBe('applied');
  });

  it('POST /ops/scans: the largest body the limit allows is read; one byte past it is 413', async () => {
    const limit = 5 * 1024 * 1024;
    const base = jsonBody({ scans: [scan()] });
    const padded = `${base.slice(0, -1)}${' '.repeat(limit - base.length)}}`;
    expect(Buffer.byteLength(padded)).toBe(limit);
    const atLimit = await raw('POST', api('test', '/ops/scans'), { headers: auth(ops), body: padded });
    count('body');
    expect(ok(atLimit).results).toHaveLength(1);
    const past = await raw('POST', api('test', '/ops/scans'), { headers: auth(ops), body: `${padded} `, keepAlive: true });
    count('body');
    envelope(past, 413, 'payload_too_large');
    // Past the limit without a content-length (chunked): refused as well.
    const chunked = await new Promise<Answer>((resolve, reject) => {
      const request = http.request(
        {
          host: target.hostname,
          port: target.port,
          method: 'POST',
          path: api('test', '/ops/scans'),
          agent: keepAlive,
          headers: { ...auth(ops), 'content-type': 'application/json' },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (c: Buffer) => chunks.push(c));
          response.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              text,
              json: JSON.parse(text),
              bytes: Buffer.alloc(0),
            });
          });
        },
      );
      request.setTimeout(30_000, () => request.destroy(new Error('hang')));
      request.on('error', (error: NodeJS.ErrnoException) =>
        error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error),
      );
      for (let i = 0; i < 6; i++) request.write(' '.repeat(1024 * 1024));
      request.end(base);
    });
    count('body');
    envelope(chunked, 413, 'payload_too_large');
  });

  it('deep nesting, duplicate keys, wrong types and non-JSON are 4xx on scans and simulate', async () => {
    const posts = [
      api('test', '/ops/scans'),
      api('test', `/packages/${owned.dailyNumber}/simulate`),
      api('test', `/manifests/${owned.containerManifest}/simulate`),
    ];
    const bodies: [string, number, string][] = [
      [`{"scans":${'['.repeat(100_000)}${']'.repeat(100_000)}}`, 400, 'invalid_json'],
      [`${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`, 400, 'invalid_json'],
      ['{"scans":[],"scans":[]}', 422, 'validation_failed'],
      ['{"status":"delivered","status":"\\u0000"}', 422, 'validation_failed'],
      ['{"status":"\\ud800"}', 422, 'validation_failed'],
      ['{"status":["delivered"]}', 422, 'validation_failed'],
      ['{"status":"received","code":"\\u0000"}', 422, 'validation_failed'],
      ['{"status":"exception","text":"\\udc00"}', 422, 'validation_failed'],
      ['{"status":"received","text":"' + 'x'.repeat(501) + '"}', 422, 'validation_failed'],
      ['{"__proto__":{"status":"delivered"}}', 422, 'validation_failed'],
      ['[]', 422, 'validation_failed'],
      ['null', 422, 'validation_failed'],
      ['"x"', 422, 'validation_failed'],
      ['{', 400, 'invalid_json'],
      ['\u0000', 400, 'invalid_json'],
      ['\ufeff{}', 400, 'invalid_json'],
      ['{"scans":[1e999]}', 422, 'validation_failed'],
    ];
    // On /ops/scans a scan that is no object is refused on its own (200, listed).
    const perScan = await raw('POST', posts[0], { headers: auth(ops), body: '{"scans":[1e999,null,"x",[]]}' });
    count('body');
    expect(ok(perScan)).toMatchObject({ applied: 0, refused: 4 });
    for (const path of posts) {
      const token = path.includes('/ops/') ? ops : ownerTest.get();
      for (const [body, status, code] of bodies) {
        if (body === '{"scans":[1e999]}' && path.includes('/ops/')) continue;
        const answer = await raw('POST', path, { headers: auth(token), body });
        count('body');
        // Which of 422 / 400 a well-formed JSON of the wrong shape gets is the route's; never a 5xx.
        expect(answer.status, `${path} ${body.slice(0, 40)}: ${answer.text.slice(0, 200)}`).toBeLessThan(500);
        if (status === 400) envelope(answer, 400, code);
        else envelope(answer, answer.status === 400 ? 400 : 422, answer.status === 400 ? answer.json?.error?.code : code);
      }
    }
    // None of it moved the owner's package.
    const pkg = ok(await raw('GET', api('test', `/packages/${owned.dailyNumber}`), { headers: auth(ownerTest.get()) }));
    expect(pkg.status).toBe('manifested');
  });

  it('simulate: a target of the wrong kind is 422 naming status, an illegal one 409', async () => {
    const n = tracking('ATS');
    await createDaily(ownerTest.get(), n);
    envelope(
      await raw('POST', api('test', `/packages/${n}/simulate`), {
        headers: auth(ownerTest.get()),
        body: '{"status":"departed"}',
      }),
      422,
      'validation_failed',
      'status',
    );
    // Already there: a walk of no steps, 200 with nothing written.
    expect(
      ok(
        await raw('POST', api('test', `/packages/${n}/simulate`), {
          headers: auth(ownerTest.get()),
          body: '{"status":"manifested"}',
        }),
      ).status,
    ).toBe('manifested');
    const { rows } = await pgPool().query('SELECT 1 FROM lifecycle_events WHERE account_id = $1 AND tracking_number = $2', [
      owner.accountId,
      n,
    ]);
    expect(rows).toEqual([]);
    ok(
      await raw('POST', api('test', `/packages/${n}/simulate`), {
        headers: auth(ownerTest.get()),
        body: '{"status":"delivered"}',
      }),
    );
    envelope(
      await raw('POST', api('test', `/packages/${n}/simulate`), {
        headers: auth(ownerTest.get()),
        body: '{"status":"received"}',
      }),
      409,
      'illegal_transition',
    );
    envelope(
      await raw('POST', api('test', `/packages/${n}/simulate`), {
        headers: auth(ownerTest.get()),
        body: '{"status":"cancelled"}',
      }),
      409,
      'illegal_transition',
    );
    envelope(
      await raw('POST', api('test', `/manifests/${owned.containerManifest}/simulate`), {
        headers: auth(ownerTest.get()),
        body: '{"status":"delivered"}',
      }),
      422,
      'validation_failed',
      'status',
    );
    envelope(
      await raw('POST', api('test', `/manifests/${owned.dailyManifest}/simulate`), {
        headers: auth(ownerTest.get()),
        body: '{"status":"departed"}',
      }),
      422,
      'validation_failed',
      'status',
    );
    count('body', 4);
  });

  it('cancel with a body, an oversized body and a hostile content type: answered, never a hang', async () => {
    const n = tracking('ATB');
    await createDaily(ownerTest.get(), n);
    const big = await raw('POST', api('test', `/packages/${n}/cancel`), {
      headers: auth(ownerTest.get()),
      body: ' '.repeat(5 * 1024 * 1024 + 1),
      keepAlive: true,
    });
    count('body');
    expect([200, 413]).toContain(big.status);
    if (big.status === 413) envelope(big, 413, 'payload_too_large');
    const odd = await raw('POST', api('test', `/packages/${n}/cancel`), {
      headers: { ...auth(ownerTest.get()), 'content-type': 'text/plain; charset=utf-16' },
      body: '\u0000\ud800',
    });
    count('body');
    expect(odd.status, odd.text).toBeLessThan(500);
  });
});
