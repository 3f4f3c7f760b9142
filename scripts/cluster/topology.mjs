// The cluster `npm run cluster` builds on one Linux machine (docs/deploy.md, "The cluster on one machine"):
// every host a network namespace, joined by veth links to two bridges in a switch namespace of their own.
// Nothing here has an address outside those namespaces, so no packet leaves them: the root namespace gets
// no interface, and no namespace gets a default route.
//
//   front 10.238.1.0/24  clients, the load balancer, the app hosts
//   back  10.238.2.0/24  the app hosts, the database hosts, the etcd hosts
//
// Shared by scripts/cluster/cluster.mjs (up, down) and the failure tests (e2e/cluster/).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Data, configuration and logs of every host. Under /var/lib so that the postgres user can enter it. */
export const STATE = process.env.CLUSTER_DIR ?? '/var/lib/carrier-cluster';
export const PG_BIN = process.env.CLUSTER_PG_BIN ?? '/usr/lib/postgresql/15/bin';
export const PREFIX = 'cc-';
export const SWITCH = `${PREFIX}sw`;

export const FRONT = '10.238.1';
export const BACK = '10.238.2';

/** name → its addresses on each network. */
export const HOSTS = {
  lb: { front: `${FRONT}.2` },
  ops: { front: `${FRONT}.100`, back: `${BACK}.100` },
  app1: { front: `${FRONT}.11`, back: `${BACK}.11` },
  app2: { front: `${FRONT}.12`, back: `${BACK}.12` },
  db1: { back: `${BACK}.21` },
  db2: { back: `${BACK}.22` },
  db3: { back: `${BACK}.23` },
  dcs1: { back: `${BACK}.31` },
  dcs2: { back: `${BACK}.32` },
  dcs3: { back: `${BACK}.33` },
};
export const APPS = ['app1', 'app2'];
export const DBS = ['db1', 'db2', 'db3'];
export const DCS = ['dcs1', 'dcs2', 'dcs3'];

export const LB_URL = `http://${HOSTS.lb.front}`;
export const APP_PORT = 3000;
export const METRICS_PORT = 9464;
export const PATRONI_PORT = 8008;
/** On each app host, its own HAProxy: the current primary on 5432, the replicas on 5433. */
export const LOCAL_PRIMARY_PORT = 5432;
export const LOCAL_REPLICA_PORT = 5433;
export const RECEIVER_PORT = 8099;

export const ns = (host) => `${PREFIX}${host}`;
/** The veth end in the switch namespace that links `host` to `net` ('front' | 'back'): down = the link is cut. */
export const port = (host, net) => `${net[0]}-${host}`;

/** Runs a command, returns its stdout; throws with its stderr on failure. */
export function run(command, args, options = {}) {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options });
  } catch (error) {
    const stderr = error.stderr?.toString().trim();
    throw new Error(`${command} ${args.join(' ')}: ${stderr || error.message}`);
  }
}

/** The same, inside the namespace of `host`. */
export const inHost = (host, command, args, options) => run('ip', ['netns', 'exec', ns(host), command, ...args], options);

export function namespaces() {
  return run('ip', ['netns', 'list'])
    .split('\n')
    .map((line) => line.split(' ')[0])
    .filter((name) => name.startsWith(PREFIX));
}

/** The pids of every process in `host`'s namespace: all of them were started by this cluster. */
export function pidsIn(host) {
  try {
    return run('ip', ['netns', 'pids', ns(host)])
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

export const hostDir = (host) => path.join(STATE, host);

/**
 * Starts `argv` in `host`'s namespace, detached (its own session, so it outlives this script), its output
 * appended to `<host>/<name>.log`. `user`: run as that OS user (PostgreSQL refuses root).
 */
export function startDaemon(host, name, argv, { user, env = process.env, cwd = ROOT } = {}) {
  mkdirSync(hostDir(host), { recursive: true });
  const logFile = path.join(hostDir(host), `${name}.log`);
  const out = openSync(logFile, 'a');
  const command = ['netns', 'exec', ns(host), ...(user ? ['runuser', '-u', user, '--'] : []), ...argv];
  const child = spawn('ip', command, { detached: true, stdio: ['ignore', out, out], env, cwd });
  child.unref();
  writeFileSync(path.join(hostDir(host), `${name}.pid`), `${child.pid}\n`);
  return child.pid;
}

/** Secrets made once per cluster (`up`), read by the tests. */
export function secrets() {
  const file = path.join(STATE, 'secrets.json');
  if (!existsSync(file)) throw new Error(`no cluster secrets at ${file}: is the cluster up? (npm run cluster)`);
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** The database URL from an app host (its local HAProxy) or from ops (straight to a database host). */
export function databaseUrl({ host = '127.0.0.1', port: pgPort = LOCAL_PRIMARY_PORT, user = 'carrier' } = {}) {
  const s = secrets();
  const password = user === 'carrier' ? s.appPassword : s.superPassword;
  return `postgresql://${user}:${encodeURIComponent(password)}@${host}:${pgPort}/carrier`;
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` (truthy = done) every `everyMs` until `timeoutMs`; throws naming `what`. */
export async function waitFor(what, check, { timeoutMs = 120_000, everyMs = 500 } = {}) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}${last ? `: ${last.message}` : ''}`);
    await sleep(everyMs);
  }
}
