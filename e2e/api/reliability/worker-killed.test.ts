import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { packageSample } from '../support/samples';
import { dropFreshDatabase, freshDatabase, seedAccount, startApiServer, type ServerProcess } from '../support/processes';
import { WebhookReceiver, waitFor } from '../support/webhook-receiver';

// A delivery worker killed (SIGKILL) while it holds messages in flight: another worker sends them
// again within 5 s, not after the claims' 60 s lease: its heartbeat connection's backend is gone, and
// any live worker frees the claims of a dead one (webhook_workers; lib/webhooks/worker.ts, heartbeats).
// Production timings: 60 s lease, 10 s timeout, 1 s poll, 500 ms heartbeat, 10 s staleness.

const SECRET = `whsec_${Buffer.from(randomUUID()).toString('base64')}`;
const IN_FLIGHT = 20;
const PRODUCTION_TIMINGS = {
  WEBHOOK_LEASE_MS: '60000',
  WEBHOOK_TIMEOUT_MS: '10000',
  WEBHOOK_POLL_MS: undefined,
  WEBHOOK_HEARTBEAT_MS: undefined,
  WEBHOOK_WORKER_STALE_MS: undefined,
};
const servers: ServerProcess[] = [];
const databases: string[] = [];
let receiver: WebhookReceiver;

beforeEach(() => {
  receiver = new WebhookReceiver();
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.kill('SIGKILL')));
  await receiver.stop();
  await Promise.all(databases.splice(0).map(dropFreshDatabase));
});

describe('worker killed mid-delivery', () => {
  it('resumes every in-flight delivery of a SIGKILLed worker within 5 s, with the same webhook-id, never twice at once', async () => {
    const url = await freshDatabase(inject('databaseUrl'), 'killed');
    databases.push(url);
    await receiver.start();
    // The first IN_FLIGHT attempts are held open (the worker is mid-delivery); later ones succeed.
    receiver.on('/hook', SECRET, (n) => (n < IN_FLIGHT ? { hold: true } : { status: 200 }));
    const { token } = await seedAccount(url, { webhookUrl: receiver.url('/hook'), secret: SECRET });
    const doomed = await startApiServer(url, PRODUCTION_TIMINGS);
    servers.push(doomed);

    const trackingNumbers = Array.from(
      { length: IN_FLIGHT },
      (_, i) => `K${randomUUID().slice(0, 6).toUpperCase()}${String(i).padStart(4, '0')}`,
    );
    const statuses = await Promise.all(
      trackingNumbers.map(async (tn) => {
        const response = await fetch(`${doomed.baseUrl}/version-test/api/1.1/wf/package`, {
          method: 'POST',
          headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(packageSample(tn)),
        });
        return response.status;
      }),
    );
    expect(statuses).toEqual(trackingNumbers.map(() => 200));
    await waitFor(() => receiver.at('/hook').length === IN_FLIGHT, {
      timeoutMs: 30_000,
      what: 'every first attempt to be in flight',
    });

    // A second worker, started now, so that every message is held by the doomed one.
    const survivor = await startApiServer(url, PRODUCTION_TIMINGS);
    servers.push(survivor);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    let claims: { status: string; locked_by: string; lease_left_ms: number }[];
    try {
      claims = (
        await client.query<{ status: string; locked_by: string; lease_left_ms: number }>(
          `SELECT status, locked_by, (extract(epoch FROM locked_until - now()) * 1000)::int AS lease_left_ms FROM webhook_messages`,
        )
      ).rows;
    } finally {
      await client.end();
    }
    expect(claims).toHaveLength(IN_FLIGHT);
    // The claims name the worker process that delivers (the supervisor's one worker), not the supervisor.
    const [doomedPid] = doomed.workerPids();
    expect(doomedPid).toBeDefined();
    expect(
      claims.filter((c) => !(c.status === 'delivering' && c.locked_by?.includes(`:${doomedPid}:`))),
      `claims not held by the doomed worker (pid ${doomedPid}); its log:\n${doomed.output().slice(-3000)}`,
    ).toEqual([]);
    const leaseLeftMs = Math.min(...claims.map((c) => c.lease_left_ms));
    expect(leaseLeftMs).toBeGreaterThan(30_000); // the lease alone would keep them for half a minute more

    const killedAt = Date.now();
    await doomed.kill('SIGKILL');
    await waitFor(() => receiver.at('/hook').length >= 2 * IN_FLIGHT, {
      timeoutMs: 30_000,
      what: 'every in-flight message to be sent again',
    });

    const requests = receiver.at('/hook');
    const first = requests.slice(0, IN_FLIGHT);
    const again = requests.slice(IN_FLIGHT);
    const resumedMs = again.map((r) => r.at - killedAt).sort((a, b) => a - b);
    console.log(
      `[reliability] worker SIGKILLed holding ${IN_FLIGHT} deliveries (lease left ${Math.round(leaseLeftMs / 1000)} s): ` +
        `resumed after ${resumedMs[0]}–${resumedMs.at(-1)} ms (limit 5,000 ms)`,
    );
    expect(resumedMs.at(-1)!).toBeLessThan(5_000);
    // The same messages, the same webhook-ids, each sent again exactly once, never while its first attempt was open.
    const ids = (list: typeof requests) => list.map((r) => String(r.headers['webhook-id'])).sort();
    expect(ids(again)).toEqual(ids(first));
    expect(new Set(ids(first)).size).toBe(IN_FLIGHT);
    expect(again.flatMap((r) => (JSON.parse(r.body) as { tracking_numbers: string[] }).tracking_numbers).sort()).toEqual(
      [...trackingNumbers].sort(),
    );
    expect(requests.every((r) => r.verifyError === null)).toBe(true);
    expect(receiver.concurrentDuplicates).toEqual([]);
    await new Promise((r) => setTimeout(r, 1_000)); // room for a third send to show up
    expect(receiver.at('/hook')).toHaveLength(2 * IN_FLIGHT);
    expect(survivor.unexpected).toEqual([]);
  }, 120_000);

  it('resumes the deliveries in flight within 5 s of the kill when the whole instance is killed and started again', async () => {
    const url = await freshDatabase(inject('databaseUrl'), 'restarted');
    databases.push(url);
    await receiver.start();
    receiver.on('/hook', SECRET, (n) => (n < IN_FLIGHT ? { hold: true } : { status: 200 }));
    const { token } = await seedAccount(url, { webhookUrl: receiver.url('/hook'), secret: SECRET });
    // As an instance runs: a worker per core (APP_WORKERS unset), production timings. No other instance.
    const instance = { ...PRODUCTION_TIMINGS, APP_WORKERS: undefined };
    const doomed = await startApiServer(url, instance);
    servers.push(doomed);
    const trackingNumbers = Array.from(
      { length: IN_FLIGHT },
      (_, i) => `R${randomUUID().slice(0, 6).toUpperCase()}${String(i).padStart(4, '0')}`,
    );
    const statuses = await Promise.all(
      trackingNumbers.map(async (tn) => {
        const response = await fetch(`${doomed.baseUrl}/version-test/api/1.1/wf/package`, {
          method: 'POST',
          headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(packageSample(tn)),
        });
        return response.status;
      }),
    );
    expect(statuses).toEqual(trackingNumbers.map(() => 200));
    await waitFor(() => receiver.at('/hook').length === IN_FLIGHT, {
      timeoutMs: 30_000,
      what: 'every first attempt to be in flight',
    });

    // The whole instance (supervisor and workers) killed, and started again at once, as systemd or Kubernetes would.
    const killedAt = Date.now();
    await doomed.kill('SIGKILL');
    const restarted = await startApiServer(url, instance);
    servers.push(restarted);
    await waitFor(() => receiver.at('/hook').length >= 2 * IN_FLIGHT, {
      timeoutMs: 30_000,
      what: 'every in-flight message to be sent again by the new instance',
    });
    const requests = receiver.at('/hook');
    const again = requests.slice(IN_FLIGHT);
    const resumedMs = again.map((r) => r.at - killedAt).sort((a, b) => a - b);
    console.log(
      `[reliability] instance SIGKILLed holding ${IN_FLIGHT} deliveries and started again: resumed after ${resumedMs[0]}–${resumedMs.at(-1)} ms (limit 5,000 ms)`,
    );
    expect(resumedMs.at(-1)!).toBeLessThan(5_000);
    const ids = (list: typeof requests) => list.map((r) => String(r.headers['webhook-id'])).sort();
    expect(ids(again)).toEqual(ids(requests.slice(0, IN_FLIGHT)));
    expect(requests.every((r) => r.verifyError === null)).toBe(true);
    expect(receiver.concurrentDuplicates).toEqual([]);
    await new Promise((r) => setTimeout(r, 1_000)); // room for a third send to show up
    expect(receiver.at('/hook')).toHaveLength(2 * IN_FLIGHT);
    expect(restarted.unexpected).toEqual([]);
  }, 120_000);

  it('a live worker that cannot renew its heartbeat cuts its attempt short before another worker sends the message', async () => {
    const url = await freshDatabase(inject('databaseUrl'), 'fenced');
    databases.push(url);
    await receiver.start();
    receiver.on('/hook', SECRET, (n) => (n === 0 ? { hold: true } : { status: 200 }));
    const { token } = await seedAccount(url, { webhookUrl: receiver.url('/hook'), secret: SECRET });
    const stuck = await startApiServer(url, PRODUCTION_TIMINGS);
    servers.push(stuck);
    const response = await fetch(`${stuck.baseUrl}/version-test/api/1.1/wf/package`, {
      method: 'POST',
      headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(packageSample(`F${randomUUID().slice(0, 8).toUpperCase()}`)),
    });
    expect(response.status).toBe(200);
    await waitFor(() => receiver.at('/hook').length === 1, { timeoutMs: 30_000, what: 'the first attempt to be in flight' });
    const other = await startApiServer(url, PRODUCTION_TIMINGS);
    servers.push(other);

    // Its heartbeat blocks on a row lock: the process is alive and its attempt still open, but it cannot beat.
    const locker = new pg.Client({ connectionString: url });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      const [stuckPid] = stuck.workerPids();
      const locked = await locker.query(`SELECT id FROM webhook_workers WHERE id LIKE $1 FOR UPDATE`, [`%:${stuckPid}:%`]);
      expect(locked.rowCount).toBeGreaterThanOrEqual(1); // every id it has had (one, unless it already lost a heartbeat)
      const lockedAt = Date.now();
      await waitFor(() => receiver.at('/hook').length === 2, {
        timeoutMs: 30_000,
        what: 'the message to be sent by the other worker',
      });
      const [first, second] = receiver.at('/hook');
      console.log(
        `[reliability] worker unable to beat: its attempt was cut short and the message resent ${second.at - lockedAt} ms after its heartbeat blocked`,
      );
      expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
      // The first attempt's connection was closed before the second arrived: never twice at once.
      expect(receiver.concurrentDuplicates).toEqual([]);
      // Cut short 5 s (half the 10 s staleness) after its last heartbeat; sent again after the 5 s retry step or when freed.
      expect(second.at - lockedAt).toBeLessThan(20_000);
      expect(stuck.output()).toContain('webhook worker lost its heartbeat');
    } finally {
      await locker.query('ROLLBACK').catch(() => undefined);
      await locker.end();
    }
    // It recovers under a new id and delivers again; nothing is sent a third time.
    await new Promise((r) => setTimeout(r, 2_000));
    expect(receiver.at('/hook')).toHaveLength(2);
    expect(stuck.child.exitCode).toBeNull();
    expect([...stuck.unexpected, ...other.unexpected]).toEqual([]);
  }, 120_000);
});
