import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { pgPool } from '@/lib/db';
import { queryRows, sql } from '@/lib/sql';
import { baseUrl, newAccount, pathFor } from './support/api';
import { insertEntries } from './support/ledger';
import { startApp, testServerEnv, type AppProcess } from './support/spawn';

// Exactly once with several instances: two servers of their own, on the run's database, each running the periodic
// invoice job every 200 ms, and the suite's server; a closed period is issued once, whoever gets there first, and a
// test-path close sent to both at once issues one invoice (the other answers null).

describe('two app instances issuing invoices', () => {
  const servers: AppProcess[] = [];
  beforeAll(async () => {
    const env = { ...testServerEnv(inject('databaseUrl'), process.env.TEST_SERVER ?? 'server'), INVOICE_INTERVAL_MS: '200' };
    servers.push(...(await Promise.all([startApp({ name: 'invoices one', env }), startApp({ name: 'invoices two', env })])));
  }, 120_000);
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
  });

  it("the periodic job on both issues a closed period's invoice once, with one number and one event", async () => {
    const account = await newAccount('Twice');
    const scope = { accountId: account.accountId, environment: 'live' as const };
    await insertEntries(
      scope,
      Array.from({ length: 2_000 }, (_, i) => ({
        kind: 'charge' as const,
        amount: '1.25',
        occurredAt: new Date(Date.UTC(2026, 7, 1 + (i % 28), 12)),
      })),
    );
    let invoices: { number: number; total: string; line_count: number }[] = [];
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      invoices = await queryRows(
        pgPool(),
        sql<{ number: number; total: string; line_count: number }>`SELECT number, total::text AS total, line_count FROM invoices
          WHERE account_id = ${account.accountId}::uuid AND environment = 'live'`,
      );
      if (invoices.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Both jobs keep running meanwhile: give them time to (wrongly) issue a second one.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    invoices = await queryRows(
      pgPool(),
      sql<{ number: number; total: string; line_count: number }>`SELECT number, total::text AS total, line_count FROM invoices
        WHERE account_id = ${account.accountId}::uuid AND environment = 'live'`,
    );
    expect(invoices).toEqual([{ number: 1, total: '2500.00', line_count: 2_000 }]);
    const events = await queryRows(
      pgPool(),
      sql`SELECT id FROM webhook_events WHERE account_id = ${account.accountId}::uuid AND event_type = 'invoice.created'`,
    );
    expect(events).toHaveLength(1);
    for (const server of servers) expect(server.unexpected, `errors ${server.name} did not expect`).toEqual([]);
  });

  it('a test-path close sent to three instances at once issues one invoice; the others answer null', async () => {
    const account = await newAccount('Close race');
    const scope = { accountId: account.accountId, environment: 'test' as const };
    await insertEntries(
      scope,
      Array.from({ length: 500 }, () => ({ kind: 'charge' as const, amount: '0.99', occurredAt: new Date(Date.now() - 10_000) })),
    );
    const bases = [baseUrl, ...servers.map((server) => server.baseUrl)];
    const answers = await Promise.all(
      [...bases, ...bases].map((base) =>
        fetch(base + pathFor('test', '/invoices/close'), {
          method: 'POST',
          headers: { authorization: `Token ${account.tokens.test}`, 'content-type': 'application/json' },
          body: '{}',
        }).then(async (r) => ({
          status: r.status,
          json: (await r.json()) as { invoice: { number: number; total: string } | null },
        })),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    const issued = answers.filter((a) => a.json.invoice !== null);
    expect(issued).toHaveLength(1);
    expect(issued[0]?.json.invoice).toMatchObject({ number: 1, total: '495.00' });
  });
});
