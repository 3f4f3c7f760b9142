// What the cluster's failure tests (e2e/cluster/run.mjs) drive the cluster with, from the ops host: a shipper
// client that retries every failure with the same body, a webhook receiver that checks every signature, the
// database as seen from the ops host, and the knobs that break things (kill, cut a link).
import { createHash, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { createConnection } from 'node:net';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import {
  DBS,
  HOSTS,
  LB_URL,
  PATRONI_PORT,
  RECEIVER_PORT,
  STATE,
  databaseUrl,
  hostDir,
  run,
  secrets,
  sleep,
} from '../../scripts/cluster/topology.mjs';

/** A client gives an attempt this long, then counts it failed (a hang) and tries again. */
export const REQUEST_TIMEOUT_MS = 20_000;

export const now = () => performance.timeOrigin + performance.now();

// --- The shipper's client -----------------------------------------------------------------------------

export function packageBody(trackingNumber, day) {
  return {
    package: {
      TrackingNumber: trackingNumber,
      FinalMileCarrier: 'Carrier',
      ManifestDate: day,
      ServiceName: 'AirSkip',
      FromCompany: 'Maple Goods',
      FromAddress1: '100 King St W',
      FromCity: 'Toronto',
      FromState: 'ON',
      FromPostalCode: 'M5X 1A9',
      FromCountry: 'CA',
      ToPostalCode: '90210',
      ShipmentDescription: 'Books',
      PackageSizeLength: 10,
      PackageSizeWidth: 8,
      PackageSizeHeight: 4,
      PackageWeight: 1.2,
      WeightUnit: 'kg',
    },
  };
}

/** One HTTP exchange through the balancer: never throws; status 0 is a network error or a timeout. */
export async function call(token, method, pathname, body) {
  const started = now();
  try {
    const response = await fetch(`${LB_URL}${pathname}`, {
      method,
      headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await response.text();
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return {
      start: started,
      end: now(),
      status: response.status,
      server: response.headers.get('x-served-by') ?? '',
      retryAfter: Number(response.headers.get('retry-after') ?? 0),
      code: json?.error?.code,
      json,
    };
  } catch (error) {
    return {
      start: started,
      end: now(),
      status: 0,
      server: '',
      error: error.name === 'TimeoutError' ? 'timeout' : error.message,
    };
  }
}

/** Statuses that a retry cannot change: the client stops and reports them. */
const FINAL = new Set([200, 201, 400, 401, 403, 404, 409, 422]);

/** Sends until an answer that a retry cannot change, or `giveUpMs`; every attempt is kept. */
export async function sendRetrying(token, method, pathname, body, { giveUpMs = 180_000 } = {}) {
  const attempts = [];
  const started = now();
  for (;;) {
    const attempt = await call(token, method, pathname, body);
    delete attempt.json;
    attempts.push(attempt);
    if (FINAL.has(attempt.status) || now() - started > giveUpMs) return { attempts, status: attempt.status };
    // Retry-After says 1–2 s; a client in a hurry tries sooner, which also measures the window more finely.
    await sleep(attempt.status === 0 ? 250 : 500);
  }
}

/**
 * `count` packages, package i sent no earlier than i / rate seconds after the start (so the load lasts), at most
 * `concurrency` at once, each retried with the same body until it is answered for good.
 */
export async function submitPackages({ token, count, rate, concurrency = 16, prefix, day, onSent }) {
  const records = Array.from({ length: count }, (_, i) => ({ tn: `${prefix}${String(i).padStart(6, '0')}` }));
  const start = now();
  let next = 0;
  let sent = 0;
  async function lane() {
    while (next < count) {
      const i = next++;
      const record = records[i];
      const due = start + (i * 1000) / rate;
      if (due > now()) await sleep(due - now());
      const result = await sendRetrying(token, 'POST', '/version-test/api/1.1/wf/package', packageBody(record.tn, day));
      Object.assign(record, result);
      sent += 1;
      onSent?.(sent);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, lane));
  return records;
}

/** Closed loop: `concurrency` clients, each sending its next package when the last is answered, for `seconds`. */
export async function closedLoop({ token, seconds, concurrency, prefix, day }) {
  const latencies = [];
  let failed = 0;
  let n = 0;
  const until = now() + seconds * 1000;
  async function lane(l) {
    while (now() < until) {
      const attempt = await call(token, 'POST', '/version-test/api/1.1/wf/package', packageBody(`${prefix}${l}x${n++}`, day));
      if (attempt.status === 200) latencies.push(attempt.end - attempt.start);
      else failed += 1;
    }
  }
  await Promise.all(Array.from({ length: concurrency }, (_, l) => lane(l)));
  return { ...percentiles(latencies), perSecond: latencies.length / seconds, failed };
}

export function percentiles(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] : NaN);
  return { n: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? NaN };
}

// --- The shipper's webhook receiver -------------------------------------------------------------------

export class Receiver {
  received = [];
  delayMs = 0;
  secret = '';

  async start() {
    this.server = createServer((req, res) => {
      const chunks = [];
      req.on('data', (chunk) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let verified = false;
        let payload;
        try {
          payload = new Webhook(this.secret).verify(body, req.headers);
          verified = true;
        } catch {
          verified = false;
        }
        this.received.push({
          id: req.headers['webhook-id'],
          event: req.headers['x-carrier-event'],
          payload,
          verified,
          at: now(),
          from: req.socket.remoteAddress?.replace('::ffff:', ''),
        });
        setTimeout(() => res.writeHead(200).end('ok'), this.delayMs);
      });
    });
    await new Promise((resolve) => this.server.listen(RECEIVER_PORT, HOSTS.ops.front, resolve));
    return this;
  }

  url() {
    return `http://${HOSTS.ops.front}:${RECEIVER_PORT}/hook`;
  }

  stop() {
    this.server?.closeAllConnections();
    this.server?.close();
  }
}

// --- The cluster as the ops host sees it --------------------------------------------------------------

export async function patroniGet(host, pathname) {
  const response = await fetch(`http://${HOSTS[host].back}:${PATRONI_PORT}${pathname}`, { signal: AbortSignal.timeout(3_000) });
  return { status: response.status, body: await response.json().catch(() => undefined) };
}

/** Patroni's members as the first reachable host reports them. */
export async function members() {
  for (const host of DBS) {
    try {
      const { body } = await patroniGet(host, '/cluster');
      if (body?.members) return body.members;
    } catch {
      // that host is unreachable: ask the next
    }
  }
  return [];
}

export async function leader() {
  return (await members()).find((m) => m.role === 'leader')?.name;
}

/** A connection to the current primary, straight to its host (the ops host has no local HAProxy). */
export async function primaryQuery(text, values) {
  const name = await leader();
  if (!name) throw new Error('no primary');
  const client = new pg.Client({
    connectionString: databaseUrl({ host: HOSTS[name].back, port: 5432 }),
    connectionTimeoutMillis: 5_000,
  });
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export function postmasterPid(host) {
  return Number(readFileSync(path.join(hostDir(host), 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
}

/** Cuts (or restores) the link of `host` to `net`: its veth end in the switch goes down (up). */
export function link(host, net, state) {
  run('ip', ['-n', 'cc-sw', 'link', 'set', `${net[0]}-${host}`, state]);
}

export function patronictl(host, args) {
  return run('ip', [
    'netns',
    'exec',
    `cc-${host}`,
    'runuser',
    '-u',
    'postgres',
    '--',
    'patronictl',
    '-c',
    path.join(STATE, host, 'patroni.yml'),
    ...args,
  ]);
}

/** Polls GET /readyz on each app host straight (not through the balancer); keeps every change of answer. */
export function watchReadiness(hosts) {
  const changes = Object.fromEntries(hosts.map((h) => [h, []]));
  let stopped = false;
  const loops = hosts.map(async (host) => {
    let last;
    while (!stopped) {
      let status = 0;
      try {
        const response = await fetch(`http://${HOSTS[host].front}:3000/readyz`, { signal: AbortSignal.timeout(3_000) });
        status = response.status;
        await response.arrayBuffer();
      } catch {
        status = 0;
      }
      if (status !== last) changes[host].push({ at: now(), status });
      last = status;
      await sleep(250);
    }
  });
  return {
    changes,
    stop: async () => {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

/** The balancer's `show stat` (its stats socket, a file: reachable from any namespace), as rows keyed by column. */
export function balancerStats() {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path.join(STATE, 'lb', 'haproxy.sock'));
    let text = '';
    socket.on('data', (chunk) => (text += chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const [header, ...lines] = text.trim().split('\n');
      const columns = header.replace(/^# /, '').split(',');
      resolve(lines.map((line) => Object.fromEntries(line.split(',').map((value, i) => [columns[i], value]))));
    });
    socket.end('show stat\n');
  });
}

/** Transactions committed in the carrier database on the replicas so far (each replica's own statistics). */
export async function replicaCommits() {
  let total = 0;
  for (const member of (await members()).filter((m) => m.role !== 'leader')) {
    const client = new pg.Client({
      connectionString: databaseUrl({ host: member.host, port: member.port }),
      connectionTimeoutMillis: 5_000,
    });
    await client.connect();
    try {
      const { rows } = await client.query(`SELECT xact_commit::int AS n FROM pg_stat_database WHERE datname = 'carrier'`);
      total += rows[0].n;
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  return total;
}

/** A portal user, signed up and confirmed through the balancer as a browser would: its cookies and CSRF token. */
export async function portalUser() {
  const id = randomUUID().slice(0, 8);
  const email = `cluster-${id}@example.com`;
  const json = { 'content-type': 'application/json' };
  const signUp = await fetch(`${LB_URL}/portal-api/auth/sign-up`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ company: `Cluster portal ${id}`, email, password: `pw-${id}-correct-horse-battery` }),
  });
  if (signUp.status !== 202) throw new Error(`sign-up answered ${signUp.status}: ${await signUp.text()}`);
  let link;
  for (let i = 0; !link && i < 100; i++) {
    const [row] = await primaryQuery(`SELECT links FROM outbox_mails WHERE "to" = $1 ORDER BY created_at DESC LIMIT 1`, [email]);
    link = row?.links.find((l) => new URL(l).pathname === '/verify-email');
    if (!link) await sleep(200);
  }
  if (!link) throw new Error('no sign-up link in the outbox');
  const verified = await fetch(`${LB_URL}/portal-api/auth/verify-email`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ token: new URL(link).searchParams.get('token') }),
  });
  if (verified.status !== 201) throw new Error(`verify-email answered ${verified.status}: ${await verified.text()}`);
  // The session's cookie and the balancer's, which keeps this browser on one app host.
  const cookies = verified.headers.getSetCookie().map((c) => c.split(';')[0]);
  const session = cookies.find((c) => c.startsWith('carrier_session='));
  const secret = decodeURIComponent(session.split('=')[1]);
  const [row] = await primaryQuery(`SELECT csrf_token, account_id FROM sessions WHERE id_hash = $1`, [
    createHash('sha256').update(secret).digest('hex'),
  ]);
  return { cookie: cookies.join('; '), csrf: row.csrf_token, accountId: row.account_id };
}

/** One portal-api request as the portal's fetcher sends it. */
export async function portalCall(user, method, pathname, body) {
  const response = await fetch(`${LB_URL}${pathname}`, {
    method,
    headers: {
      cookie: user.cookie,
      'x-csrf-token': user.csrf,
      'x-carrier-environment': 'test',
      'content-type': 'application/json',
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await response.arrayBuffer();
  return { status: response.status, server: response.headers.get('x-served-by') };
}

/**
 * What synchronous replication costs a commit, with the machine's noise cancelled: one connection to the primary,
 * transactions alternating between waiting for the synchronous standby (synchronous_commit on) and not (local),
 * each a row of a database of its own (commit_probe, replicated like the app's). Needs synchronous_mode on.
 */
export async function commitLatencies(n) {
  const host = HOSTS[await leader()].back;
  const url = (database) => `postgresql://postgres:${encodeURIComponent(secrets().superPassword)}@${host}:5432/${database}`;
  const admin = new pg.Client({ connectionString: url('postgres') });
  await admin.connect();
  if ((await admin.query(`SELECT 1 FROM pg_database WHERE datname = 'commit_probe'`)).rowCount === 0)
    await admin.query('CREATE DATABASE commit_probe');
  await admin.end();
  const client = new pg.Client({ connectionString: url('commit_probe') });
  await client.connect();
  await client.query('CREATE TABLE IF NOT EXISTS probe (id bigserial PRIMARY KEY, pad text)');
  const times = { on: [], local: [] };
  try {
    for (let i = 0; i < n; i++) {
      const mode = i % 2 ? 'on' : 'local';
      await client.query('BEGIN');
      await client.query(`SET LOCAL synchronous_commit = ${mode}`);
      await client.query('INSERT INTO probe (pad) VALUES ($1)', ['x'.repeat(500)]);
      const started = now();
      await client.query('COMMIT');
      times[mode].push(now() - started);
    }
  } finally {
    await client.end();
  }
  return { on: percentiles(times.on), local: percentiles(times.local) };
}

export { sleep };
