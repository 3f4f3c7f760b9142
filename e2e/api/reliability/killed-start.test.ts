import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { clusterDir, listening, postmasterPid, removeEmbeddedLeftovers, running } from '../support/embedded';
import { childPids, freePort, spawnProcess, waitForHttp, RATE_PREFLIGHT, type Spawned } from '../support/spawn';

// `npm start` killed with SIGKILL, all of its process group at once: what Playwright does to its
// webServer when no graceful shutdown is configured, and what `kill -9 -<pgid>` does. Nothing can
// catch that signal, and the embedded PostgreSQL (in a process group of its own, so that a Ctrl+C
// reaches the app first) would be left running, reused by the next start and never stopped. A
// watchdog (scripts/database.mjs, watchPostmaster) asks it to stop when the process that started it
// is gone, however it went.

const dataDirs: string[] = [];
let current: Spawned | undefined;

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
  await removeEmbeddedLeftovers(dataDirs);
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
    const postmaster = postmasterPid(dataDir);
    expect(supervisor).toBeGreaterThan(0);
    expect(running(postmaster)).toBe(true);
    expect(await listening(pgPort)).toBe(true);

    await current.stop('SIGKILL', { group: true });
    current = undefined;
    // The group's SIGKILL lands at once, but a loaded machine may take a moment to reap the supervisor.
    expect(await until(() => !running(supervisor), 10_000)).toBe(true);
    // A fast shutdown takes well under a second; 15 s for a busy machine.
    expect(await until(() => !running(postmaster), 15_000)).toBe(true);
    expect(await listening(pgPort)).toBe(false);
    expect(existsSync(`${clusterDir(dataDir)}/postmaster.pid`)).toBe(false);
  }, 240_000);
});
