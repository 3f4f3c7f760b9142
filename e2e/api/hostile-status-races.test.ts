import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgPool } from '@/lib/db';
import { tracking } from './support/api';
import {
  api,
  auth,
  count,
  createContainer,
  createDaily,
  envelope,
  jsonBody,
  ok,
  ops,
  owner,
  ownerTest,
  raw,
  reportAttacks,
  setUpAttackedAccounts,
} from './support/hostile-shipments';

// Status changes two (or more) at once: parallel cancels of a package and of a container manifest, a cancel racing a
// scan, simulate calls racing each other, the same scan batch sent twice at once. One winner, a legal chain of events,
// never a 5xx. support/hostile-shipments.ts has the raw HTTP and the attacked accounts.

beforeAll(setUpAttackedAccounts);
afterAll(() => reportAttacks('hostile-status-races'));

describe('two at once', () => {
  async function events(n: string) {
    const { rows } = await pgPool().query<{ status: string; previous_status: string; applied: boolean; source: string }>(
      `SELECT status, previous_status, applied, source FROM lifecycle_events WHERE account_id = $1 AND tracking_number = $2 ORDER BY occurred_at, id`,
      [owner.accountId, n],
    );
    return rows;
  }

  it('two parallel cancels of a package: both 200 cancelled, one cancel event', async () => {
    for (let round = 0; round < 5; round++) {
      const n = tracking('AT2');
      await createDaily(ownerTest.get(), n);
      const answers = await Promise.all(
        [1, 2, 3].map(() => raw('POST', api('test', `/packages/${n}/cancel`), { headers: auth(ownerTest.get()) })),
      );
      count('concurrency', 3);
      for (const a of answers) expect(ok(a).status).toBe('cancelled');
      expect((await events(n)).map((e) => `${e.previous_status}>${e.status}`)).toEqual(['manifested>cancelled']);
    }
  });

  it('two parallel cancels of a container manifest: both 200, every package cancelled once', async () => {
    for (let round = 0; round < 3; round++) {
      const numbers = [tracking('ATK'), tracking('ATK')];
      const { manifestId } = await createContainer(ownerTest.get(), numbers);
      const answers = await Promise.all(
        [1, 2].map(() => raw('POST', api('test', `/manifests/${manifestId}/cancel`), { headers: auth(ownerTest.get()) })),
      );
      count('concurrency', 2);
      for (const a of answers) expect(ok(a)).toMatchObject({ status: 'cancelled', totals: { by_status: { cancelled: 2 } } });
      for (const n of numbers) expect((await events(n)).map((e) => e.status)).toEqual(['cancelled']);
    }
  });

  it('cancel racing a scan of the same package: exactly one wins, and a scan of the container too', async () => {
    for (let round = 0; round < 4; round++) {
      const numbers = [tracking('ATR')];
      const { manifestId, containerId } = await createContainer(ownerTest.get(), numbers);
      const [cancel, scanned] = await Promise.all([
        raw('POST', api('test', `/manifests/${manifestId}/cancel`), { headers: auth(ownerTest.get()) }),
        raw('POST', api('test', '/ops/scans'), {
          headers: auth(ops),
          body: jsonBody({
            scans: [
              {
                scan_id: `atk-${randomUUID()}`,
                container_id: containerId,
                event: 'received',
                location: 'JFK',
                occurred_at: new Date().toISOString(),
              },
            ],
          }),
        }),
      ]);
      count('concurrency', 2);
      const scanWon = ok(scanned).results[0].result === 'applied';
      if (scanWon) envelope(cancel, 409, 'not_cancellable');
      else {
        expect(ok(cancel).status).toBe('cancelled');
        expect(scanned.json.results[0]).toMatchObject({
          result: 'refused',
          error: { code: 'illegal_transition', current_status: 'cancelled' },
        });
      }
    }
  });

  it('two simulate calls at once: at most one walk, a legal chain of events, 200 or 409, never a 5xx', async () => {
    for (let round = 0; round < 4; round++) {
      const n = tracking('ATM');
      await createDaily(ownerTest.get(), n);
      const answers = await Promise.all(
        ['delivered', 'delivered', 'exception'].map((status) =>
          raw('POST', api('test', `/packages/${n}/simulate`), { headers: auth(ownerTest.get()), body: jsonBody({ status }) }),
        ),
      );
      count('concurrency', 3);
      for (const a of answers) {
        expect([200, 409], a.text).toContain(a.status);
        if (a.status === 409) envelope(a, 409, 'illegal_transition');
      }
      expect(answers.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(1);
      const chain = await events(n);
      let current = 'manifested';
      for (const e of chain) {
        expect(e.previous_status).toBe(current);
        current = e.status;
      }
      const final = ok(await raw('GET', api('test', `/packages/${n}`), { headers: auth(ownerTest.get()) }));
      expect(final.status).toBe(current);
      // Each status of the walk once: no doubled intermediate steps.
      expect(new Set(chain.map((e) => e.status)).size).toBe(chain.length);
    }
  });

  it('two manifest simulates at once on a container: one walk, its packages carried once', async () => {
    const numbers = [tracking('ATW'), tracking('ATW')];
    const { manifestId } = await createContainer(ownerTest.get(), numbers);
    const answers = await Promise.all(
      [1, 2].map(() =>
        raw('POST', api('test', `/manifests/${manifestId}/simulate`), {
          headers: auth(ownerTest.get()),
          body: jsonBody({ status: 'arrived' }),
        }),
      ),
    );
    count('concurrency', 2);
    for (const a of answers) {
      expect([200, 409], a.text).toContain(a.status);
      if (a.status === 200) expect(a.json.status).toBe('arrived');
    }
    for (const n of numbers) {
      const chain = await events(n);
      expect(new Set(chain.map((e) => e.status)).size, JSON.stringify(chain)).toBe(chain.length);
    }
  });

  it('the same scan batch sent twice at once (and reversed): each scan applied once, the rest duplicates, never a 5xx', async () => {
    for (let round = 0; round < 3; round++) {
      const numbers = Array.from({ length: 20 }, () => tracking('ATQ'));
      for (const n of numbers) await createDaily(ownerTest.get(), n);
      const batch = numbers.map((n) => ({
        scan_id: `atk-${randomUUID()}`,
        tracking_number: n,
        event: 'received',
        location: 'JFK',
        occurred_at: new Date(Date.now() - 1_000).toISOString(),
      }));
      const reversed = [...batch].reverse();
      const answers = await Promise.all(
        [batch, batch, reversed, reversed].map((scans) =>
          raw('POST', api('test', '/ops/scans'), { headers: auth(ops), body: jsonBody({ scans }) }),
        ),
      );
      count('concurrency', 4);
      for (const a of answers) expect(a.status, a.text.slice(0, 300)).toBe(200);
      const applied = new Map<string, number>();
      for (const a of answers)
        for (const r of a.json.results) if (r.result === 'applied') applied.set(r.scan_id, (applied.get(r.scan_id) ?? 0) + 1);
      expect(applied.size).toBe(batch.length);
      expect([...applied.values()].every((v) => v === 1)).toBe(true);
      for (const a of answers) for (const r of a.json.results) expect(['applied', 'duplicate']).toContain(r.result);
      for (const n of numbers.slice(0, 3)) expect((await events(n)).map((e) => e.status)).toEqual(['received']);
    }
  });
});
