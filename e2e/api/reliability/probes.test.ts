import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { ensureDatabase, removeEmbeddedDatabase } from '../../../scripts/database.mjs';
import { migrateDeploy } from '../../../scripts/migrate.mjs';
import { seedRateCards } from '../../../prisma/seed';
import { packageSample, rateSampleAll } from '../support/samples';
import { spawnProcess, startCommand } from '../support/spawn';
import {
  dropFreshDatabase,
  freePort,
  freshDatabase,
  RELIABILITY_ENV,
  seedAccount,
  startApiServer,
  type ServerProcess,
} from '../support/processes';
import { WebhookReceiver, waitFor } from '../support/webhook-receiver';

// GET /healthz, /readyz and /metrics on `npm start` (lib/probes): the probes answer without a token and are
// never rate-limited, /readyz says 503 and names what failed when the database is away or behind the
// code's migrations, and /metrics is the Prometheus text of every worker of the instance (summed by the
// supervisor), behind METRICS_TOKEN or on METRICS_PORT, labelled by route template, never by raw path.

const SECRET = `whsec_${Buffer.from(randomUUID()).toString('base64')}`;
const TOKEN = `metrics-${randomUUID()}`;
const servers: ServerProcess[] = [];
const databases: string[] = [];
const receiver = new WebhookReceiver();
let outage: { url: string; stop: () => Promise<void> } | undefined;
let outageDir: string | undefined;

afterAll(async () => {
  await Promise.all(servers.map((server) => server.kill()));
  await receiver.stop();
  await Promise.all(databases.map(dropFreshDatabase));
  await outage?.stop();
  if (outageDir) await removeEmbeddedDatabase(outageDir);
});

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses Prometheus text exposition format 0.0.4; throws on any line that is not a comment, blank or sample. */
function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# HELP ') || line.startsWith('# TYPE ')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?[0-9.e+-]+|NaN|[+-]Inf)$/.exec(line);
    if (!match) throw new Error(`not a Prometheus sample line: ${JSON.stringify(line)}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1]] = pair[2];
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  return samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
}

async function scrape(url: string, token?: string): Promise<Sample[]> {
  const response = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseMetrics(await response.text());
}

interface ReadyBody {
  status: string;
  checks: Record<'database' | 'migrations' | 'webhook_worker', { ok: boolean; message?: string }>;
  error?: { code: string; message: string; details: { path: string; message: string }[] };
}

async function readyz(baseUrl: string) {
  const response = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(10_000) });
  return { status: response.status, body: (await response.json()) as ReadyBody };
}

describe('probes and metrics', () => {
  it('healthz, readyz, and metrics behind a token that count a request by its route template, summed over two workers', async () => {
    const url = await freshDatabase(inject('databaseUrl'), 'probes');
    databases.push(url);
    await receiver.start();
    receiver.on('/hook', SECRET);
    const { token } = await seedAccount(url, { webhookUrl: receiver.url('/hook'), secret: SECRET });
    const server = await startApiServer(url, { APP_WORKERS: '2', METRICS_TOKEN: TOKEN, LOG_LEVEL: 'info' });
    servers.push(server);
    const base = server.baseUrl;

    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });

    // Both workers ready (database, migrations, a webhook worker with a confirmed heartbeat), and the
    // supervisor counted them as up only then.
    await waitFor(() => server.supervisor.filter((line) => line.includes('"msg":"worker ready"')).length === 2, {
      timeoutMs: 60_000,
      what: 'both workers ready',
    });
    const order = server.supervisor.map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(order.indexOf('app ready')).toBeGreaterThan(order.indexOf('worker ready'));
    const ready = await readyz(base);
    expect(ready).toEqual({
      status: 200,
      body: { status: 'ready', checks: { database: { ok: true }, migrations: { ok: true }, webhook_worker: { ok: true } } },
    });

    // Metrics: hidden without the token or with a wrong one (the 401 envelope), served with it.
    for (const authorization of [undefined, 'Bearer wrong-token-of-enough-length', `Token ${TOKEN}x`, TOKEN]) {
      const response = await fetch(`${base}/metrics`, { headers: authorization ? { authorization } : {} });
      expect(response.status).toBe(401);
      const body = (await response.json()) as { error: { code: string } };
      expect(body.error.code).toBe('unauthorized');
      expect(response.headers.get('x-request-id')).toMatch(/^req_/);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
    }

    const rateKey = { method: 'POST', route: '/version-test/api/1.1/wf/rate', status: '200' };
    const before = await scrape(`${base}/metrics`, TOKEN);
    const ratesBefore = value(before, 'http_requests_total', rateKey) ?? 0;
    // Six requests over new connections: the cluster spreads them over both workers; the sum counts them all.
    for (let i = 0; i < 6; i += 1) {
      const response = await fetch(`${base}/version-test/api/1.1/wf/rate`, {
        method: 'POST',
        headers: { authorization: `Token ${token}`, 'content-type': 'application/json', connection: 'close' },
        body: JSON.stringify(rateSampleAll()),
      });
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    }
    // An id in a path, and paths nobody routes: labelled by template, never by what was sent.
    const oddId = `we_${randomUUID().replaceAll('-', '')}`;
    for (const path of [`/version-test/api/1.1/webhooks/${oddId}`, `/nowhere-${oddId}/x/y`, `/test/manifests/MAN-${oddId}`]) {
      const response = await fetch(`${base}${path}`, { headers: { authorization: `Token ${token}` }, redirect: 'manual' });
      expect(response.status).toBeLessThan(500);
      await response.arrayBuffer();
    }
    const pkg = await fetch(`${base}/version-test/api/1.1/wf/package`, {
      method: 'POST',
      headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(packageSample(`PRB${Date.now()}`)),
    });
    expect(pkg.status).toBe(200);
    await waitFor(() => receiver.at('/hook').length >= 1, { timeoutMs: 30_000, what: 'the package webhook delivered' });

    const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    expect(text).not.toContain(oddId);
    const after = parseMetrics(text);
    expect(value(after, 'http_requests_total', rateKey)).toBe(ratesBefore + 6);
    expect(value(after, 'http_request_duration_seconds_count', rateKey)).toBe(ratesBefore + 6);
    expect(value(after, 'http_request_duration_seconds_bucket', { ...rateKey, le: '+Inf' })).toBe(ratesBefore + 6);
    expect(
      value(after, 'http_requests_total', { method: 'GET', route: '/version-test/api/1.1/webhooks/:id', status: '404' }),
    ).toBe(1);
    expect(value(after, 'http_requests_total', { route: '/[environment]/manifests/[id]' })).toBeGreaterThanOrEqual(1);
    // A path no page has is labelled by the portal's not-found catch-all, a template too.
    expect(value(after, 'http_requests_total', { route: '/[environment]/[...missing]' })).toBeGreaterThanOrEqual(1);
    // Delivery outcomes, the queue (read once by the supervisor), the pools (summed over workers), the workers.
    await waitFor(
      async () => value(await scrape(`${base}/metrics`, TOKEN), 'webhook_deliveries_total', { outcome: 'succeeded' }) === 1,
      { timeoutMs: 10_000, what: 'webhook_deliveries_total{outcome="succeeded"} 1' },
    );
    // The queue gauges are read at most once a second (QUEUE_CACHE_MS), so a scrape made while the message was
    // being delivered may still show it for up to a second after the delivery counter moved: wait for the read
    // that follows the delivery, then require all of the queue's gauges to say empty.
    await waitFor(
      async () => {
        const now = await scrape(`${base}/metrics`, TOKEN);
        return (
          value(now, 'webhook_queue_messages', { state: 'delivering' }) === 0 &&
          value(now, 'webhook_oldest_pending_age_seconds') === 0
        );
      },
      { timeoutMs: 5_000, what: 'the queue gauges to show the delivered message gone' },
    );
    const last = await scrape(`${base}/metrics`, TOKEN);
    expect(value(last, 'webhook_queue_messages', { state: 'pending' })).toBe(0);
    expect(value(last, 'webhook_queue_messages', { state: 'delivering' })).toBe(0);
    expect(value(last, 'webhook_oldest_pending_age_seconds')).toBe(0);
    expect(value(last, 'webhook_queue_scrape_ok')).toBe(1);
    expect(value(last, 'app_workers_ready')).toBe(2);
    expect(value(last, 'db_pool_connections', { pool: 'app', state: 'total' })).toBeGreaterThanOrEqual(1);
    expect(value(last, 'db_pool_connections', { pool: 'app', state: 'waiting' })).toBe(0);
    expect(value(last, 'db_pool_connections', { pool: 'webhook', state: 'total' })).toBeGreaterThanOrEqual(1);
    expect(value(last, 'process_resident_memory_bytes')).toBeGreaterThan(0);

    // Hostile input: malformed escapes, a huge query string, another method; never a 5xx.
    const hostile: [string, RequestInit, number][] = [
      ['/healthz?%ZZ=%ZZ', {}, 200],
      ['/readyz?x=%E0%A4%A', {}, 200],
      [`/healthz?${'q=1&'.repeat(3_000)}`, {}, 200],
      [`/readyz?${'x'.repeat(20_000)}`, {}, 431],
      ['/healthz', { method: 'POST', body: '{}' }, 405],
      ['/metrics', { method: 'DELETE', headers: { authorization: `Bearer ${TOKEN}` } }, 405],
      ['/metrics?%ZZ', { headers: { authorization: `Bearer ${TOKEN}` } }, 200],
      ['/metrics', { headers: { authorization: `Bearer ${'\u00e9'.repeat(3)}` } }, 401],
      ['/%ZZ/healthz', {}, 400],
    ];
    for (const [path, init, status] of hostile) {
      const response = await fetch(`${base}${path}`, init);
      await response.arrayBuffer();
      expect(`${path.slice(0, 40)} ${response.status}`).toBe(`${path.slice(0, 40)} ${status}`);
    }
    // Never rate-limited: 200 probes at once, all answered 200.
    const burst = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        fetch(`${base}/${i % 2 ? 'healthz' : 'readyz'}`).then(async (r) => (await r.arrayBuffer(), r.status)),
      ),
    );
    expect(new Set(burst)).toEqual(new Set([200]));

    // Migrations behind the code: 503 naming the missing one; back to ready once it is there.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const latest = await client.query<{ migration_name: string }>(
        'DELETE FROM _prisma_migrations WHERE migration_name = (SELECT max(migration_name) FROM _prisma_migrations) RETURNING *',
      );
      const missing = latest.rows[0].migration_name;
      const behind = await waitFor(
        async () => {
          const r = await readyz(base);
          return r.status === 503 && r;
        },
        { timeoutMs: 5_000, what: 'readyz 503' },
      );
      expect(behind.body.status).toBe('not_ready');
      expect(behind.body.error?.code).toBe('service_unavailable');
      expect(behind.body.error?.details).toEqual([
        { path: 'migrations', message: `1 migration(s) not applied: ${missing}; run npm run db:migrate` },
      ]);
      expect(behind.body.checks.database).toEqual({ ok: true });
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      const row = latest.rows[0] as Record<string, unknown>;
      const columns = Object.keys(row);
      await client.query(
        `INSERT INTO _prisma_migrations (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
        columns.map((c) => row[c]),
      );
      await waitFor(async () => (await readyz(base)).status === 200, { timeoutMs: 5_000, what: 'readyz 200 again' });
    } finally {
      await client.end();
    }
    expect(server.unexpected).toEqual([]);
  }, 180_000);

  it('serves metrics on METRICS_PORT, from the supervisor, and not on the app port; the replica lag among them', async () => {
    const url = await freshDatabase(inject('databaseUrl'), 'metricsport');
    databases.push(url);
    const metricsPort = await freePort();
    const server = await startApiServer(url, {
      METRICS_PORT: String(metricsPort),
      METRICS_BIND_ADDRESS: '127.0.0.1',
      WEBHOOK_WORKER: 'off',
      // The primary as its own "replica" (not in recovery: lag 0). The gauge is registered by whichever copy of lib/db
      // opens the pool first: here Next's, whose recipient-mail timer ticks before anything asks the server's.
      DATABASE_REPLICA_URL: url,
      RECIPIENT_MAIL_INTERVAL_MS: '200',
    });
    servers.push(server);
    const onApp = await fetch(`${server.baseUrl}/metrics`);
    expect(onApp.status).toBe(404);
    expect(((await onApp.json()) as { error: { code: string } }).error.code).toBe('not_found');
    await waitFor(async () => (await readyz(server.baseUrl)).status === 200, { timeoutMs: 30_000, what: 'ready' });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect((await readyz(server.baseUrl)).body.checks.webhook_worker).toEqual({
      ok: true,
      message: 'off in this process (WEBHOOK_WORKER=off)',
    });
    const samples = await scrape(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(value(samples, 'http_requests_total', { method: 'GET', route: '/metrics', status: '404' })).toBe(1);
    expect(value(samples, 'app_workers_ready')).toBe(1);
    // Registered with the pool, which the first scrape may be what opens.
    let lag: number | undefined;
    await waitFor(
      async () => (lag = value(await scrape(`http://127.0.0.1:${metricsPort}/metrics`), 'db_replica_lag_seconds')) !== undefined,
      { timeoutMs: 10_000, what: 'db_replica_lag_seconds in /metrics' },
    );
    expect(lag).toBe(0);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/other`)).status).toBe(404);
  }, 120_000);

  it('answers healthz and readyz under next start too (START_MODE=next), readyz 503 when migrations are behind', async () => {
    const url = await freshDatabase(inject('databaseUrl'), 'probesnext');
    databases.push(url);
    const server = await startApiServer(url, { START_MODE: 'next' });
    servers.push(server);
    const health = await fetch(`${server.baseUrl}/healthz?%ZZ`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    // Its webhook worker (started by instrumentation.ts) beats within a second.
    await waitFor(async () => (await readyz(server.baseUrl)).status === 200, {
      timeoutMs: 30_000,
      what: 'ready under next start',
    });
    expect((await readyz(server.baseUrl)).body.checks).toEqual({
      database: { ok: true },
      migrations: { ok: true },
      webhook_worker: { ok: true },
    });
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const removed = await client.query<{ migration_name: string }>(
        'UPDATE _prisma_migrations SET rolled_back_at = now() WHERE migration_name = (SELECT min(migration_name) FROM _prisma_migrations) RETURNING migration_name',
      );
      const behind = await waitFor(
        async () => {
          const r = await readyz(server.baseUrl);
          return r.status === 503 && r;
        },
        { timeoutMs: 5_000, what: 'readyz 503 under next start' },
      );
      expect(behind.body.error?.details).toEqual([
        { path: 'migrations', message: `1 migration(s) not applied: ${removed.rows[0].migration_name}; run npm run db:migrate` },
      ]);
    } finally {
      await client.end();
    }
    expect(server.unexpected).toEqual([]);
  }, 120_000);

  it('readyz answers 503 naming the database while PostgreSQL is stopped, healthz stays 200, and ready again after', async () => {
    const port = await freePort();
    outageDir = `.data/probes-${process.pid}-${Date.now()}`;
    outage = await ensureDatabase({ dataDir: outageDir, port, embedded: true });
    await migrateDeploy(outage.url);
    await seedRateCards(outage.url);
    const server = await startApiServer(outage.url);
    servers.push(server);
    await waitFor(async () => (await readyz(server.baseUrl)).status === 200, { timeoutMs: 30_000, what: 'ready' });

    await outage.stop();
    const down = await waitFor(
      async () => {
        const r = await readyz(server.baseUrl);
        // The delivery worker's check may fail first (its heartbeat's connection ends too): wait for the database's.
        return r.status === 503 && r.body.checks.database.ok === false && r;
      },
      { timeoutMs: 15_000, what: 'readyz 503 naming the database' },
    );
    expect(down.body.checks.database.ok).toBe(false);
    expect(down.body.checks.database.message).toMatch(/^unreachable: /);
    expect(down.body.error?.details.map((d) => d.path)).toContain('database');
    const health = await fetch(`${server.baseUrl}/healthz`);
    expect(health.status).toBe(200);

    outage = await ensureDatabase({ dataDir: outageDir, port, embedded: true });
    await waitFor(async () => (await readyz(server.baseUrl)).status === 200, {
      timeoutMs: 15_000,
      what: 'ready after the database returned',
    });
    expect(server.unexpected).toEqual([]);
  }, 120_000);

  it('is ready before Next has prepared the portal: what is asked of the portal at once waits for it and is answered', async () => {
    const url = await freshDatabase(inject('databaseUrl'), 'probesfirst');
    databases.push(url);
    const { token } = await seedAccount(url);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const app = spawnProcess({
      name: 'npm start, asked the moment it is ready',
      args: startCommand(),
      env: {
        ...process.env,
        NODE_ENV: 'production',
        ...RELIABILITY_ENV,
        DATABASE_URL: url,
        APP_WORKERS: '1',
        PORT: String(port),
      },
    });
    try {
      // Asked every 10 ms: the first 200 is within 10 ms of the moment readiness holds.
      const deadline = Date.now() + 60_000;
      for (;;) {
        const status = await fetch(`${base}/readyz`).then(
          (r) => r.status,
          () => 0,
        );
        if (status === 200) break;
        expect(app.running()).toBe(true);
        expect(Date.now()).toBeLessThan(deadline);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const quote = () =>
        fetch(`${base}/version-test/api/1.1/wf/rate`, {
          method: 'POST',
          headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(rateSampleAll()),
        });
      const [signIn, openapi, firstQuote, missing] = await Promise.all([
        fetch(`${base}/sign-in`),
        fetch(`${base}/api/1.1/openapi.json`),
        quote(),
        fetch(`${base}/no-such-page`),
      ]);
      expect(signIn.status).toBe(200);
      expect(await signIn.text()).toContain('<form');
      expect(openapi.status).toBe(200);
      expect(((await openapi.json()) as { openapi?: string }).openapi).toMatch(/^3\./);
      // The API answers at once. A 503 with Retry-After is an answer a client retries (it was seen once, on a CI machine
      // running three suites, and is printed here with the server's output when it comes); anything else fails.
      let rate = firstQuote;
      if (rate.status === 503) {
        console.log(`first quote at ready: 503 ${await rate.text()}\n${app.output().slice(-4_000)}`);
        expect(rate.headers.get('retry-after')).toMatch(/^\d+$/);
        rate = await quote();
      }
      expect(rate.status, `${await rate.text()}\n${app.output().slice(-4_000)}`).toBe(200);
      expect(missing.status).toBe(404);
      expect(app.running()).toBe(true);
    } finally {
      await app.stop('SIGTERM');
    }
  }, 120_000);
});
