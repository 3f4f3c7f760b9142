// npm run cluster [-- up | down | status]: the service past one machine, on one Linux machine, as root.
// Three etcd hosts; three PostgreSQL 15 hosts under Patroni (automatic failover, synchronous replication);
// two app hosts, each running `npm start` behind an HAProxy of its own that always points at the current
// primary (it asks Patroni's REST API); one HAProxy load balancer in front, checking /readyz. Why these
// pieces, and what the failure tests measured: docs/deploy.md, "The cluster on one machine".
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  APP_PORT,
  APPS,
  BACK,
  DBS,
  DCS,
  HOSTS,
  LB_URL,
  LOCAL_PRIMARY_PORT,
  LOCAL_REPLICA_PORT,
  METRICS_PORT,
  PATRONI_PORT,
  PG_BIN,
  ROOT,
  STATE,
  SWITCH,
  databaseUrl,
  hostDir,
  inHost,
  namespaces,
  ns,
  pidsIn,
  port,
  run,
  secrets,
  sleep,
  startDaemon,
  waitFor,
} from './topology.mjs';

/** Patroni's timing. A primary that stops renewing its leader key is replaced about TTL seconds later. */
const PATRONI_TTL = Number(process.env.CLUSTER_PATRONI_TTL ?? 15);
const PATRONI_LOOP_WAIT = 2;
const PATRONI_RETRY_TIMEOUT = 5;

const log = (line) => console.log(`cluster: ${line}`);
const seconds = (since) => ((Date.now() - since) / 1000).toFixed(0);

function fail(line) {
  console.error(`cluster: ${line}`);
  process.exit(1);
}

/** What the cluster needs from the machine; Debian's packages for what is missing, else one line saying what. */
function ensureTools() {
  if (process.platform !== 'linux') fail('needs Linux (network namespaces)');
  if (process.getuid?.() !== 0) fail('needs root (network namespaces, veth links, PostgreSQL as the postgres user)');
  const needs = [
    ['ip', 'iproute2', '/usr/bin/ip'],
    ['etcd', 'etcd-server', '/usr/bin/etcd'],
    ['etcdctl', 'etcd-client', '/usr/bin/etcdctl'],
    ['patroni', 'patroni', '/usr/bin/patroni'],
    ['haproxy', 'haproxy', '/usr/sbin/haproxy'],
    ['postgres', 'postgresql-15', path.join(PG_BIN, 'postgres')],
    ['curl', 'curl', '/usr/bin/curl'],
  ];
  const missing = () => needs.filter(([, , file]) => !existsSync(file));
  if (missing().length > 0) {
    const packages = [...new Set(missing().map(([, pkg]) => pkg))];
    log(`installing ${packages.join(' ')} (apt-get)`);
    try {
      run('apt-get', ['install', '-y', '-q', ...packages], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    } catch {
      fail(
        `missing ${packages.join(', ')}, and apt-get could not install them: apt-get update && apt-get install -y ${packages.join(' ')}`,
      );
    }
    if (missing().length > 0)
      fail(
        `still missing after apt-get: ${missing()
          .map(([name]) => name)
          .join(', ')}`,
      );
  }
  if (!existsSync(path.join(ROOT, 'dist/start.js')) || !existsSync(path.join(ROOT, '.next/BUILD_ID')))
    fail('the app is not built: npm run build (the app hosts run npm start)');
  try {
    run('id', ['postgres']);
  } catch {
    fail("no postgres OS user (it comes with Debian's postgresql-common): apt-get install -y postgresql-15");
  }
}

// --- Network --------------------------------------------------------------------------------------------

function createNetwork() {
  const all = Object.keys(HOSTS);
  run('ip', ['netns', 'add', SWITCH]);
  run('ip', ['-n', SWITCH, 'link', 'set', 'lo', 'up']);
  for (const bridge of ['front', 'back']) {
    run('ip', ['-n', SWITCH, 'link', 'add', bridge, 'type', 'bridge']);
    run('ip', ['-n', SWITCH, 'link', 'set', bridge, 'up']);
  }
  for (const host of all) {
    run('ip', ['netns', 'add', ns(host)]);
    run('ip', ['-n', ns(host), 'link', 'set', 'lo', 'up']);
    for (const net of ['front', 'back']) {
      const address = HOSTS[host][net];
      if (!address) continue;
      const inside = `${net}0`;
      run('ip', ['-n', SWITCH, 'link', 'add', port(host, net), 'type', 'veth', 'peer', 'name', inside, 'netns', ns(host)]);
      run('ip', ['-n', SWITCH, 'link', 'set', port(host, net), 'master', net, 'up']);
      run('ip', ['-n', ns(host), 'addr', 'add', `${address}/24`, 'dev', inside]);
      run('ip', ['-n', ns(host), 'link', 'set', inside, 'up']);
    }
  }
}

// --- etcd -----------------------------------------------------------------------------------------------

const etcdClientUrls = () => DCS.map((host) => `http://${HOSTS[host].back}:2379`);

async function startEtcd() {
  const initial = DCS.map((host) => `${host}=http://${HOSTS[host].back}:2380`).join(',');
  for (const host of DCS) {
    const address = HOSTS[host].back;
    mkdirSync(path.join(hostDir(host), 'data'), { recursive: true, mode: 0o700 });
    // Heartbeat and election above etcd's defaults (100 / 1,000 ms): on two busy cores the defaults make
    // the members elect leaders for nothing, and each election can delay Patroni's view of the leader key.
    startDaemon(host, 'etcd', [
      'etcd',
      '--name',
      host,
      '--data-dir',
      path.join(hostDir(host), 'data'),
      '--listen-client-urls',
      `http://${address}:2379,http://127.0.0.1:2379`,
      '--advertise-client-urls',
      `http://${address}:2379`,
      '--listen-peer-urls',
      `http://${address}:2380`,
      '--initial-advertise-peer-urls',
      `http://${address}:2380`,
      '--initial-cluster',
      initial,
      '--initial-cluster-token',
      'carrier-cluster',
      '--initial-cluster-state',
      'new',
      '--heartbeat-interval',
      '250',
      '--election-timeout',
      '2500',
      '--enable-v2=false',
      '--logger',
      'zap',
    ]);
  }
  await waitFor(
    'etcd to elect a leader',
    // Exits non-zero until every endpoint is healthy (its report goes to stderr).
    () => inHost('dcs1', 'etcdctl', ['--endpoints', etcdClientUrls().join(','), 'endpoint', 'health']) !== undefined,
    { timeoutMs: 60_000 },
  );
}

// --- PostgreSQL under Patroni ---------------------------------------------------------------------------

function patroniConfig(host) {
  const s = secrets();
  const address = HOSTS[host].back;
  const dir = hostDir(host);
  return {
    scope: 'carrier',
    name: host,
    log: { level: 'INFO' },
    restapi: { listen: `${address}:${PATRONI_PORT}`, connect_address: `${address}:${PATRONI_PORT}` },
    etcd3: { hosts: DCS.map((h) => `${HOSTS[h].back}:2379`) },
    bootstrap: {
      dcs: {
        ttl: PATRONI_TTL,
        loop_wait: PATRONI_LOOP_WAIT,
        retry_timeout: PATRONI_RETRY_TIMEOUT,
        maximum_lag_on_failover: 1048576,
        // Synchronous: a commit is acknowledged once a standby has it, and Patroni promotes only that
        // standby, so a package answered 200 survives the primary. Not strict: with no standby left the
        // primary goes on alone rather than refusing every write.
        synchronous_mode: true,
        synchronous_node_count: 1,
        postgresql: {
          use_pg_rewind: true,
          use_slots: true,
          parameters: {
            max_connections: 300,
            shared_buffers: '128MB',
            wal_level: 'replica',
            hot_standby: 'on',
            max_wal_senders: 10,
            max_replication_slots: 10,
            wal_keep_size: '256MB',
            // Portal reads on a replica must not be cancelled by the primary's vacuum for long.
            hot_standby_feedback: 'on',
          },
        },
      },
      initdb: [{ encoding: 'UTF8' }, { locale: 'C.UTF-8' }, 'data-checksums'],
      post_bootstrap: path.join(STATE, 'post-bootstrap.sh'),
    },
    postgresql: {
      listen: `${address},127.0.0.1:5432`,
      connect_address: `${address}:5432`,
      data_dir: path.join(dir, 'data'),
      bin_dir: PG_BIN,
      pgpass: path.join(dir, 'pgpass'),
      // A replica's clone asks for an immediate checkpoint, not a spread one (90 s here).
      basebackup: [{ checkpoint: 'fast' }],
      use_unix_socket: true,
      authentication: {
        superuser: { username: 'postgres', password: s.superPassword },
        replication: { username: 'replicator', password: s.replicationPassword },
      },
      // Each host's own socket directory: the hosts share one filesystem.
      parameters: { unix_socket_directories: path.join(dir, 'run'), logging_collector: 'off' },
      pg_hba: [
        'local all all trust',
        `host replication replicator ${BACK}.0/24 scram-sha-256`,
        'host replication replicator 127.0.0.1/32 scram-sha-256',
        `host all all ${BACK}.0/24 scram-sha-256`,
        'host all all 127.0.0.1/32 scram-sha-256',
      ],
    },
    tags: { nofailover: false, noloadbalance: false, clonefrom: false, nosync: false },
  };
}

const patroniFile = (host) => path.join(hostDir(host), 'patroni.yml');

/** Patroni's REST API of `host`, asked from inside its own namespace. */
export function patroni(host, pathname) {
  const out = inHost(host, 'curl', [
    '-s',
    '-m',
    '3',
    '-w',
    '\n%{http_code}',
    `http://${HOSTS[host].back}:${PATRONI_PORT}${pathname}`,
  ]);
  const lines = out.trimEnd().split('\n');
  const status = Number(lines.pop());
  let body = lines.join('\n');
  try {
    body = JSON.parse(body);
  } catch {
    // not JSON: keep the text
  }
  return { status, body };
}

async function startDatabases() {
  const postgresUid = Number(run('id', ['-u', 'postgres']).trim());
  const postgresGid = Number(run('id', ['-g', 'postgres']).trim());
  const s = secrets();
  // Run by Patroni once, on the first primary: the app's role and database (the migrations make the rest).
  writeFileSync(
    path.join(STATE, 'post-bootstrap.sh'),
    `#!/bin/sh\nset -e\npsql "$1" -v ON_ERROR_STOP=1 -c "CREATE ROLE carrier LOGIN PASSWORD '${s.appPassword}'" -c "CREATE DATABASE carrier OWNER carrier"\n`,
  );
  // It holds the app's password: the postgres user's alone.
  chownSync(path.join(STATE, 'post-bootstrap.sh'), postgresUid, postgresGid);
  chmodSync(path.join(STATE, 'post-bootstrap.sh'), 0o700);
  for (const host of DBS) {
    const dir = hostDir(host);
    mkdirSync(path.join(dir, 'run'), { recursive: true });
    writeFileSync(patroniFile(host), JSON.stringify(patroniConfig(host), null, 2));
    for (const entry of [dir, path.join(dir, 'run'), patroniFile(host)]) chownSync(entry, postgresUid, postgresGid);
    chmodSync(dir, 0o700);
  }
  const patroniEnv = { PATH: process.env.PATH, HOME: '/var/lib/postgresql', LANG: 'C.UTF-8' };
  // The first host bootstraps the cluster; the others clone it once it leads.
  startDaemon('db1', 'patroni', ['patroni', patroniFile('db1')], { user: 'postgres', env: patroniEnv, cwd: '/' });
  await waitFor('db1 to bootstrap and lead', () => patroni('db1', '/primary').status === 200, { timeoutMs: 180_000 });
  for (const host of DBS.slice(1))
    startDaemon(host, 'patroni', ['patroni', patroniFile(host)], { user: 'postgres', env: patroniEnv, cwd: '/' });
  await waitFor(
    'both replicas to stream, one of them synchronously',
    () => {
      const members = patroni('db1', '/cluster').body.members ?? [];
      const streaming = members.filter((m) => m.role !== 'leader' && ['running', 'streaming'].includes(m.state));
      return streaming.length === DBS.length - 1 && members.some((m) => m.role === 'sync_standby');
    },
    { timeoutMs: 240_000, everyMs: 1_000 },
  );
}

// --- App hosts and the load balancer --------------------------------------------------------------------

/**
 * Each app host's own HAProxy: the current primary on 127.0.0.1:5432 (the member whose Patroni says
 * /primary 200), the streaming replicas on :5433 (/replica, at most 16 MB behind; with none, the app
 * reads from the primary: lib/db.ts). When a member stops being what its port wants, its sessions are
 * cut (on-marked-down), so the app's connections fail at once instead of writing to a demoted primary
 * or waiting on a dead host.
 */
function sidecarConfig() {
  const servers = DBS.map((host) => `  server ${host} ${HOSTS[host].back}:5432 check port ${PATRONI_PORT}`).join('\n');
  return `global
  maxconn 4000

defaults
  mode tcp
  # A host whose link is cut answers nothing: give up on it quickly, so the app's 503 comes fast.
  timeout connect 1s
  retries 1
  timeout check 2s
  # The app's idle connections and its LISTEN connection live long; a dead peer is found by the checks.
  timeout client 1h
  timeout server 1h
  default-server inter 1s fastinter 500ms downinter 1s fall 2 rise 1 on-marked-down shutdown-sessions

listen primary
  bind 127.0.0.1:${LOCAL_PRIMARY_PORT}
  # OPTIONS: Patroni answers with the status line alone (GET's body, cut short by HAProxy, fills its log with tracebacks).
  option httpchk OPTIONS /primary
  http-check expect status 200
${servers}

listen replicas
  bind 127.0.0.1:${LOCAL_REPLICA_PORT}
  balance roundrobin
  option httpchk OPTIONS /replica?lag=16MB
  http-check expect status 200
${servers}
`;
}

/**
 * The balancer: /readyz every second, out after 2 failures, in after 2 successes; a connection refused
 * marks a server down at once (observe layer4) and the request goes to the other (redispatch). When no
 * instance is ready (the database is away), requests still go to the live ones (checked on /healthz), so
 * clients get the app's own 503 with Retry-After and its error envelope, not the balancer's page.
 */
function balancerConfig() {
  const servers = APPS.map((host) => `  server ${host} ${HOSTS[host].front}:${APP_PORT} check cookie ${host}`).join('\n');
  return `global
  maxconn 4000
  stats socket ${path.join(hostDir('lb'), 'haproxy.sock')} mode 600 level admin

defaults
  mode http
  option http-keep-alive
  timeout connect 2s
  timeout client 60s
  timeout http-request 15s
  timeout http-keep-alive 60s
  timeout server 30s
  timeout check 2s
  retries 2
  option redispatch 1
  retry-on conn-failure empty-response
  default-server inter 1s fastinter 500ms downinter 1s fall 2 rise 2 observe layer4 error-limit 1 on-error mark-down

frontend web
  bind ${HOSTS.lb.front}:80
  http-response set-header x-served-by %s
  use_backend app_unready if { nbsrv(app) eq 0 }
  default_backend app

backend app
  balance roundrobin
  # A browser stays on one app host (API clients send no cookie): its reads after its own write see it (lib/read-your-writes.ts).
  cookie carrier_host insert indirect nocache httponly
  option httpchk GET /readyz
  http-check expect status 200
${servers}

backend app_unready
  balance roundrobin
  option httpchk GET /healthz
  http-check expect status 200
${servers}
`;
}

export function appEnv(host) {
  const s = secrets();
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME ?? '/root',
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl(),
    DATABASE_REPLICA_URL: databaseUrl({ port: LOCAL_REPLICA_PORT }),
    WEBHOOK_SECRETS_KEY: s.webhookSecretsKey,
    APP_WORKERS: '1',
    PORT: String(APP_PORT),
    METRICS_PORT: String(METRICS_PORT),
    TRUSTED_PROXIES: `${HOSTS.lb.front}/32`,
    // The test receivers live on the cluster's private network.
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    // The failure tests send thousands of packages with one token; the per-token limit is not what they measure.
    API_RATE_LIMIT_PER_SECOND: '100000',
    API_RATE_LIMIT_BURST: '100000',
    // No mail server in the cluster: sign-up links are kept in the outbox, where the tests read them.
    MAIL_OUTBOX: 'on',
    CLUSTER_HOST: host,
  };
}

const RELEASE = path.join(STATE, 'release');

/**
 * What the app hosts run: a copy of the built app, as a deploy would ship it. The working tree goes on
 * changing under a running cluster (a rebuild, a new migration), and both hosts must run one version.
 */
function makeRelease() {
  rmSync(RELEASE, { recursive: true, force: true });
  mkdirSync(path.join(RELEASE, '.next'), { recursive: true });
  for (const entry of ['dist', 'scripts', 'prisma', 'public', 'package.json', 'next.config.mjs', '.npmrc'])
    if (existsSync(path.join(ROOT, entry))) run('cp', ['-a', path.join(ROOT, entry), RELEASE]);
  for (const entry of readdirSync(path.join(ROOT, '.next')))
    if (entry !== 'cache') run('cp', ['-a', path.join(ROOT, '.next', entry), path.join(RELEASE, '.next')]);
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(RELEASE, 'node_modules'));
}

export function startApp(host) {
  startDaemon(host, 'app', ['npm', 'start', '--silent'], { env: appEnv(host), cwd: RELEASE });
}

/** An app host again after it was killed: its local HAProxy, then `npm start`. */
export function startAppHost(host) {
  startDaemon(host, 'haproxy', ['haproxy', '-db', '-f', path.join(hostDir(host), 'haproxy.cfg')]);
  startApp(host);
}

/** A new test-environment API token of `account`, made on an app host as `npm run token` makes one. */
export function createToken(account) {
  return inHost('app1', 'node', ['dist/token.js', '--account', account, '--env', 'test'], {
    env: appEnv('app1'),
    cwd: RELEASE,
  }).trim();
}

export const appReady = (host) =>
  inHost('ops', 'curl', [
    '-s',
    '-o',
    '/dev/null',
    '-m',
    '3',
    '-w',
    '%{http_code}',
    `http://${HOSTS[host].front}:${APP_PORT}/readyz`,
  ]) === '200';

async function startApps() {
  makeRelease();
  for (const host of APPS) {
    mkdirSync(hostDir(host), { recursive: true });
    writeFileSync(path.join(hostDir(host), 'haproxy.cfg'), sidecarConfig());
    startDaemon(host, 'haproxy', ['haproxy', '-db', '-f', path.join(hostDir(host), 'haproxy.cfg')]);
  }
  // One at a time: the first runs the migrations and the seed, the second finds them done.
  for (const host of APPS) {
    startApp(host);
    await waitFor(`${host} to be ready (its log: ${path.join(hostDir(host), 'app.log')})`, () => appReady(host), {
      timeoutMs: 240_000,
      everyMs: 1_000,
    });
  }
  mkdirSync(hostDir('lb'), { recursive: true });
  writeFileSync(path.join(hostDir('lb'), 'haproxy.cfg'), balancerConfig());
  startDaemon('lb', 'haproxy', ['haproxy', '-db', '-f', path.join(hostDir('lb'), 'haproxy.cfg')]);
  await waitFor(
    'the balancer to see both app hosts ready',
    () => inHost('ops', 'curl', ['-s', '-o', '/dev/null', '-m', '3', '-w', '%{http_code}', `${LB_URL}/readyz`]) === '200',
    { timeoutMs: 60_000 },
  );
}

// --- Commands -------------------------------------------------------------------------------------------

async function up() {
  ensureTools();
  if (namespaces().length > 0) fail('a cluster is already up (ip netns list shows cc-*): npm run cluster -- down first');
  rmSync(STATE, { recursive: true, force: true });
  mkdirSync(STATE, { recursive: true, mode: 0o755 });
  const secret = () => randomBytes(18).toString('base64url');
  writeFileSync(
    path.join(STATE, 'secrets.json'),
    JSON.stringify({
      superPassword: secret(),
      replicationPassword: secret(),
      appPassword: secret(),
      webhookSecretsKey: randomBytes(32).toString('base64'),
    }),
    { mode: 0o600 },
  );
  const started = Date.now();
  log('network: namespaces cc-*, bridges front and back in cc-sw');
  createNetwork();
  log('etcd on dcs1, dcs2, dcs3');
  await startEtcd();
  log(`PostgreSQL 15 under Patroni on db1, db2, db3 (at ${seconds(started)} s)`);
  await startDatabases();
  log(`app hosts app1, app2 (npm start behind a local HAProxy), then the balancer on lb (at ${seconds(started)} s)`);
  await startApps();
  log(`up in ${seconds(started)} s`);
  status();
}

function status() {
  const present = namespaces();
  if (present.length === 0) return log('down (no cc-* namespaces)');
  const members = DBS.flatMap((host) => {
    try {
      return patroni(host, '/cluster').body.members ?? [];
    } catch {
      return [];
    }
  });
  const seen = new Map(members.map((m) => [m.name, m]));
  for (const host of DBS) {
    const m = seen.get(host);
    log(`${host} ${HOSTS[host].back}  ${m ? `${m.role} ${m.state} lag ${m.lag ?? 0}` : 'unreachable'}`);
  }
  for (const host of APPS) log(`${host} ${HOSTS[host].front}:${APP_PORT}  /readyz ${appReadySafe(host)}`);
  log(`balancer ${LB_URL}   e.g. ip netns exec ${ns('ops')} curl ${LB_URL}/readyz`);
  log(`state, configuration and logs: ${STATE}/<host>/`);
}

function appReadySafe(host) {
  try {
    return appReady(host) ? 200 : 'not 200';
  } catch {
    return 'unreachable';
  }
}

/** Every process in the cluster's namespaces (each started by `up` or a test), then the namespaces. */
async function down() {
  const present = namespaces();
  const hosts = Object.keys(HOSTS).filter((host) => present.includes(ns(host)));
  const signal = (sig) => {
    let any = false;
    for (const host of hosts)
      for (const pid of pidsIn(host)) {
        try {
          process.kill(pid, sig);
          any = true;
        } catch {
          // gone already
        }
      }
    return any;
  };
  // The apps first, so that they stop cleanly while their database is still there.
  for (const host of APPS.filter((h) => hosts.includes(h)))
    for (const pid of pidsIn(host))
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // gone already
      }
  await waitFor('the app hosts to stop', () => APPS.every((h) => pidsIn(h).length === 0 || !hosts.includes(h)), {
    timeoutMs: 20_000,
  }).catch(() => undefined);
  signal('SIGTERM');
  await waitFor('every cluster process to stop', () => hosts.every((h) => pidsIn(h).length === 0), { timeoutMs: 20_000 }).catch(
    () => undefined,
  );
  signal('SIGKILL');
  await sleep(500);
  for (const name of present) run('ip', ['netns', 'del', name]);
  if (!process.argv.includes('--keep-data')) rmSync(STATE, { recursive: true, force: true });
  log(
    `down: removed ${present.length} namespaces${process.argv.includes('--keep-data') ? `; data and logs kept in ${STATE}` : ''}`,
  );
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === new URL(import.meta.url).pathname;
if (isMain) {
  const command = process.argv.slice(2).find((arg) => !arg.startsWith('--')) ?? 'up';
  const commands = { up, down, status };
  if (!(command in commands)) fail(`unknown command ${command}: up (the default), down, status`);
  try {
    await commands[command]();
  } catch (error) {
    // A half-made cluster is taken down again (its logs kept), so that the next `up` starts clean.
    if (command === 'up' && namespaces().length > 0) {
      process.argv.push('--keep-data');
      await down().catch(() => undefined);
    }
    fail(`${command} failed: ${error.message}`);
  }
}
