import { request } from 'node:http';
import { existsSync } from 'node:fs';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { packageSample } from '../support/samples';
import { alive, listening, postmasterPid, removeEmbeddedLeftovers } from '../support/embedded';
import { seedAccount } from '../support/processes';
import {
  childPids,
  freePort,
  portalPids,
  workerPids,
  spawnProcess,
  waitForHttp,
  RATE_PREFLIGHT,
  type Spawned,
} from '../support/spawn';

// SIGTERM (docker stop, systemd) or SIGINT (Ctrl+C) sent to the process that `npm start` is, or to
// its whole process group, stops everything it started: the workers finish their requests in
// flight, the webhook workers their attempts, then the embedded PostgreSQL stops. Nothing is left
// running or listening, and the next start finds its port free.

const dataDirs: string[] = [];
let current: Spawned | undefined;

afterEach(async () => {
  await current?.stop('SIGKILL', { group: true });
  current = undefined;
  await removeEmbeddedLeftovers(dataDirs);
});

/** A package request whose headers and first bytes are sent now and the rest on `finish()`. */
function slowPackage(port: number, token: string, trackingNumber: string) {
  const body = JSON.stringify(packageSample(trackingNumber));
  const req = request({
    host: '127.0.0.1',
    port,
    path: '/version-test/api/1.1/wf/package',
    method: 'POST',
    headers: { authorization: `Token ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
  });
  const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.once('response', (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.once('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.once('error', reject);
  });
  answered.catch(() => undefined); // awaited by the test; a failure before that must not be "unhandled"
  req.write(body.slice(0, 40));
  return { answered, finish: () => req.end(body.slice(40)) };
}

async function startNpm(dataDir: string) {
  const port = await freePort();
  const pgPort = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    EMBEDDED_PG_DIR: dataDir,
    EMBEDDED_PG_PORT: String(pgPort),
    APP_WORKERS: '2',
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  };
  delete env.DATABASE_URL; // the embedded PostgreSQL, started and stopped by npm start
  // `npm start` itself, in a process group of its own as a shell would run it.
  current = spawnProcess({ name: 'npm start', command: 'npm', args: ['start'], env, group: true });
  await waitForHttp(current, `http://127.0.0.1:${port}${RATE_PREFLIGHT}`, { timeoutMs: 180_000 });
  // Both workers listening.
  const proc = current;
  const deadline = Date.now() + 60_000;
  while (proc.supervisor.filter((line) => line.includes('"msg":"worker listening"')).length < 2 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
  }
  const [supervisor] = childPids(proc.pid);
  const workers = workerPids(supervisor);
  // Forked with the second worker, once the first was ready.
  const portal = portalPids(supervisor);
  const postmaster = postmasterPid(dataDir);
  expect(workers).toHaveLength(2);
  expect(portal).toHaveLength(1);
  expect(alive(postmaster)).toBe(true);
  const url = `postgresql://postgres:postgres@127.0.0.1:${pgPort}/carrier`;
  return { proc, port, pgPort, url, supervisor, workers, portal, postmaster };
}

/** The log lines at warn level or above (pino's 40, 50, 60). */
const troubledLines = (output: string) => output.split('\n').filter((line) => /"level":(40|50|60)\b/.test(line));

async function stopsCleanly(signal: NodeJS.Signals, group: boolean) {
  const dataDir = `.data/stop-test-${process.pid}-${signal}`;
  dataDirs.push(dataDir);
  const app = await startNpm(dataDir);
  const { token } = await seedAccount(app.url);
  const trackingNumber = `STOP${signal}${Date.now()}`;
  const inFlight = slowPackage(app.port, token, trackingNumber);
  await new Promise((r) => setTimeout(r, 500)); // the worker has the request (headers read), not its whole body

  const signalledAt = Date.now();
  // Compared by line, not by offset: output() keeps only its last 200,000 characters, so an offset taken now could
  // point past the end later and leave nothing to check.
  const troubledBeforeStop = new Set(troubledLines(app.proc.output()));
  if (group) process.kill(-app.proc.pid, signal);
  else process.kill(app.proc.pid, signal);
  // Stopping: soon no new connection is taken, while the request in flight is still being served.
  const deadline = Date.now() + 10_000;
  while ((await listening(app.port)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  expect(await listening(app.port)).toBe(false);
  expect(app.proc.running()).toBe(true);
  inFlight.finish();
  const answer = await inFlight.answered;
  expect(answer.status).toBe(200);
  expect(JSON.parse(answer.body)).toMatchObject({ IsSuccess: true, TrackingNumber: trackingNumber });

  const code = await app.proc.exited;
  const stoppedIn = Date.now() - signalledAt;
  // Within the grace for requests in flight (APP_STOP_GRACE_MS, 10 s) and far within the 60 s request timeout.
  expect(stoppedIn).toBeLessThan(20_000);
  expect(app.proc.output()).toContain('"msg":"workers stopped"');
  // Each worker wrote its request log from a thread of its own (lib/request-log/thread.ts).
  expect(app.proc.output().split('"msg":"request log thread started"').length - 1).toBe(2);
  expect(app.proc.output()).not.toContain('stopping the database failed');
  // A stop asked for is not trouble: no warning or error from the signal on (an operator alerting on warnings would
  // be paged at every deploy; each webhook worker once said it had lost its heartbeat when the stop closed it).
  expect(troubledLines(app.proc.output()).filter((line) => !troubledBeforeStop.has(line))).toEqual([]);
  expect([0, 130, 143, 'SIGTERM', 'SIGINT']).toContain(code);

  // Nothing left: no supervisor, no worker, no portal, no postmaster, nothing on either port.
  for (const pid of [app.supervisor, ...app.workers, ...app.portal, app.postmaster])
    expect(alive(pid), `pid ${pid} still running`).toBe(false);
  expect(await listening(app.port)).toBe(false);
  expect(await listening(app.pgPort)).toBe(false);
  expect(existsSync(`${dataDir}/postmaster.pid`)).toBe(false);
  current = undefined;
  return { app, trackingNumber, dataDir };
}

describe('clean stops of npm start', () => {
  it("on SIGTERM to npm start's own process, finishes the request in flight, then stops workers and PostgreSQL", async () => {
    const { app, trackingNumber, dataDir } = await stopsCleanly('SIGTERM', false);
    // The package that was in flight is stored: start the database again to look.
    const { ensureDatabase } = await import('../../../scripts/database.mjs');
    const database = await ensureDatabase({ dataDir, port: app.pgPort, embedded: true });
    try {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      const { rows } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM packages WHERE tracking_number = $1', [
        trackingNumber,
      ]);
      // Its request log line too, answered a moment before the stop: the log's thread writes its last lines
      // before the worker exits (not at its next 100 ms flush, which never comes).
      const logged = await client.query<{ status: number }>(
        `SELECT status FROM request_logs WHERE path = '/wf/package' AND request_body LIKE $1`,
        [`%${trackingNumber}%`],
      );
      await client.end();
      expect(rows[0].n).toBe(1);
      expect(logged.rows).toEqual([{ status: 200 }]);
    } finally {
      await database.stop();
    }
  }, 300_000);

  it('on SIGINT to the whole group (Ctrl+C), the same: the request in flight completes and nothing is left', async () => {
    await stopsCleanly('SIGINT', true);
  }, 300_000);
});
