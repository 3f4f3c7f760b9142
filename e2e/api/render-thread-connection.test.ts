import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { pgPool } from '@/lib/db';
import { isDatabaseUnavailable } from '@/lib/db-errors';
import { connectionReader } from '@/lib/documents/package-bytes';
import { containerAndDaily, newAccount } from './support/api';

// The render thread's own connection (lib/documents/package-bytes.ts connectionReader), on the run's database: it
// reads the packages of the manifest it is given, in the manifest's order; it is closed when idle and replaced when
// the database ends it; a database that never answers is an outage (503), not a bug (500).

const applicationName = `render-reader-${randomUUID().slice(0, 8)}`;
const connections = async () =>
  (
    await pgPool().query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1`,
      [applicationName],
    )
  ).rows.map((row) => row.pid);

let containerId = '';
let containerNumbers: string[] = [];
let dailyId = '';
let dailyNumber = '';
const held = new Set<net.Socket>();
const silent = net.createServer((socket) => {
  held.add(socket);
  socket.on('close', () => held.delete(socket));
});

beforeAll(async () => {
  const shipper = await newAccount('ReaderConnection');
  ({ containerId, containerNumbers, dailyId, dailyNumber } = await containerAndDaily(shipper.tokens.test, 'R', 3));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  for (const socket of held) socket.destroy();
  await new Promise((resolve) => silent.close(resolve));
});

const numbersIn = (bytes: Uint8Array) =>
  (JSON.parse(new TextDecoder().decode(bytes)) as [{ TrackingNumber: string }, string, string, unknown][]).map(
    ([data]) => data.TrackingNumber,
  );

describe("the render thread's connection", () => {
  it('reads the packages of the manifest named, in its order, with house waybills when asked', async () => {
    const read = connectionReader(inject('databaseUrl'), { applicationName, idleCloseMs: 60_000 });
    expect(numbersIn(await read({ kind: 'container', manifestId: containerId, houseWaybills: false }))).toEqual(containerNumbers);
    const withHouse = JSON.parse(
      new TextDecoder().decode(await read({ kind: 'container', manifestId: containerId, houseWaybills: true })),
    ) as unknown[][];
    expect(withHouse.map((row) => typeof row[3])).toEqual(['string', 'string', 'string']);
    expect(numbersIn(await read({ kind: 'daily', manifestId: dailyId, houseWaybills: false }))).toContain(dailyNumber);
    // The other kind's table never holds the id: nothing, never another manifest's packages.
    expect(numbersIn(await read({ kind: 'daily', manifestId: containerId, houseWaybills: false }))).toEqual([]);
    // One connection, kept between reads.
    expect(await connections()).toHaveLength(1);
    const [pid] = await connections();
    await pgPool().query('SELECT pg_terminate_backend($1)', [pid]);
    await expect.poll(connections, { timeout: 5_000 }).toEqual([]);
    // Ended by the database while idle (its word perhaps not read yet): the next read gets its packages all the same.
    expect(numbersIn(await read({ kind: 'container', manifestId: containerId, houseWaybills: false }))).toEqual(containerNumbers);
    expect((await connections()).filter((other) => other !== pid)).toHaveLength(1);
    await pgPool().query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [await connections()]);
  });

  it('a connection idle for idleCloseMs is closed; the next read opens one', async () => {
    const read = connectionReader(inject('databaseUrl'), { applicationName, idleCloseMs: 300 });
    await expect.poll(connections, { timeout: 5_000 }).toEqual([]);
    await read({ kind: 'container', manifestId: containerId, houseWaybills: false });
    expect(await connections()).toHaveLength(1);
    await expect.poll(connections, { timeout: 5_000 }).toEqual([]);
    expect(numbersIn(await read({ kind: 'container', manifestId: containerId, houseWaybills: false }))).toEqual(containerNumbers);
  });

  it('a database that accepts and never answers times out as an outage (503), each read trying again', async () => {
    const { port } = silent.address() as net.AddressInfo;
    const read = connectionReader(`postgresql://carrier@127.0.0.1:${port}/none`, { connectTimeoutMs: 300 });
    for (let attempt = 0; attempt < 2; attempt++) {
      const started = performance.now();
      const failure: unknown = await read({ kind: 'container', manifestId: containerId, houseWaybills: false }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toMatchObject({ code: '08001' });
      expect(isDatabaseUnavailable(failure)).toBe(true);
      expect(performance.now() - started).toBeLessThan(3_000);
    }
  });
});
