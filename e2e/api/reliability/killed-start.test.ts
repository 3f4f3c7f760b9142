import { existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { removeEmbeddedDatabase } from '../../../scripts/database.mjs';
import { childPids, freePort, spawnProcess, waitForHttp, RATE_PREFLIGHT, type Spawned } from '../support/spawn';

// `npm start` killed with SIGKILL, all of its process group at once: what Playwright does to its
// webServer when no graceful shutdown is configured, and what `kill -9 -<pgid>` does. Nothing can
// catch that signal, and the embedded PostgreSQL (in a process group of its own, so that a Ctrl+C
// reaches the app first) used to be left running: the next start reused it, and nobody ever stopped
// it. Now a watchdog (scripts/database.mjs, watchPostmaster) asks it to stop when the process that
// started it is gone, however it went.

const dataDirs: string[] = [];
let current: Spawned | undefined;

function clusterDir(dataDir: string): string {
  const memory = `${dataDir}.json`;
  const placed = existsSync(memory) ? (JSON.parse(readFileSync(memory, 'utf8')) as { dataDir?: string }).dataDir : undefined;
  return placed ?? dataDir;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    // A zombie (exited, not yet reaped by its new parent) is not running.
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return true; // no /proc: the signal check says it exists
  }
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return condition();
}

afterEach(async () => {
  await current?.stop('SIGKILL', { group: true });
  current = undefined;
  for (const dataDir of dataDirs.splice(0)) {
    const pidFile = `${clusterDir(dataDir)}/postmaster.pid`;
    if (existsSync(pidFile)) {
      try {
        process.kill(Number(readFileSync(pidFile, 'utf8').split('\n')[0]), 'SIGINT');
      } catch {
        // gone
      }
      await new Promise((r) => setTimeout(r, 2_000));
    }
    await removeEmbeddedDatabase(dataDir);
  }
});

describe('npm start killed with SIGKILL (its whole process group, as Playwright stops its webServer)', () => {
  it('leaves no embedded PostgreSQL running: it stops within seconds and its port is free', async () => {
    const dataDir = `.data/test-killed-start-${process.pid}-${Date.now()}`;
    dataDirs.push(dataDir);
    const port = await freePort();
    const pgPort = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      EMBEDDED_PG_DIR: dataDir,
      EMBEDDED_PG_PORT: String(pgPort),
      APP_WORKERS: '1',
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
    };
    delete env.DATABASE_URL; // the embedded PostgreSQL, started by npm start
    // `npm start` itself, in a process group of its own, as Playwright's webServer runs it.
    current = spawnProcess({ name: 'npm start', command: 'npm', args: ['start'], env, group: true });
    await waitForHttp(current, `http://127.0.0.1:${port}${RATE_PREFLIGHT}`, { timeoutMs: 180_000 });
    const [supervisor] = childPids(current.pid);
    const postmaster = Number(readFileSync(`${clusterDir(dataDir)}/postmaster.pid`, 'utf8').split('\n')[0]);
    expect(supervisor).toBeGreaterThan(0);
    expect(alive(postmaster)).toBe(true);
    expect(await listening(pgPort)).toBe(true);

    await current.stop('SIGKILL', { group: true });
    current = undefined;
    // The group's SIGKILL lands at once, but a loaded machine may take a moment to reap the supervisor.
    expect(await until(() => !alive(supervisor), 10_000)).toBe(true);
    // A fast shutdown takes well under a second; 15 s for a busy machine.
    expect(await until(() => !alive(postmaster), 15_000)).toBe(true);
    expect(await listening(pgPort)).toBe(false);
    expect(existsSync(`${clusterDir(dataDir)}/postmaster.pid`)).toBe(false);
  }, 240_000);
});
