import { beforeAll, describe, expect, it } from 'vitest';
import { db, pgPool, pgTransaction } from '@/lib/db';
import { newId } from '@/lib/ids';
import { execute, queryRow, queryRows, sql } from '@/lib/sql';
import { enqueueEvent } from '@/lib/webhooks/enqueue-event';
import { newAccount, type TestAccount } from './support/api';

// The one SQL helper (lib/sql.ts) and the one outbox writer (lib/webhooks/enqueue-event.ts) against
// PostgreSQL: hostile values arrive as data, never as SQL; enqueueEvent writes exactly the deliveries
// it should, inside a caller's transaction or alone. docs/decisions/data-access.md.

const HOSTILE = [
  "'; DROP TABLE accounts; --",
  "x' OR '1'='1",
  '$1',
  '$$; DROP TABLE accounts; $$',
  "E'\\047'",
  '\\',
  '"; DROP TABLE accounts; --',
  '/* unterminated',
  '%00 %zz %',
  'ünïcødé ✓ 🚚',
  ' '.repeat(3) + 'x'.repeat(10_000),
];

/** A row that an injected DROP/DELETE would take with it. */
let canary: TestAccount;
const canaryAlive = async () => (await db.account.count({ where: { id: canary.accountId } })) === 1;
beforeAll(async () => {
  canary = await newAccount('Canary');
});

describe('sql`` on PostgreSQL', () => {
  it.each(HOSTILE.map((value) => ({ value, label: JSON.stringify(value).slice(0, 40) })))(
    'sends $label as a parameter and gets it back unchanged',
    async ({ value }) => {
      const row = await queryRow(
        pgPool(),
        sql<{ v: string; n: number }>`SELECT ${value}::text AS v, length(${value}::text)::int AS n`,
      );
      expect(row).toEqual({ v: value, n: [...value].length });
      expect(await canaryAlive()).toBe(true);
    },
  );

  it('refuses a NUL in text as PostgreSQL data error 22021, leaving every table as it was', async () => {
    const error = await queryRow(pgPool(), sql`SELECT ${"a\u0000'; DELETE FROM accounts; --"}::text AS v`).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: '22021' });
    expect(await canaryAlive()).toBe(true);
  });

  it('sends arrays as one parameter each, hostile elements included', async () => {
    const values = ["a'b", 'c,d', '{e}', '"f"', 'g\\h', 'NULL', ''];
    const rows = await queryRows(
      pgPool(),
      sql<{ v: string | null; i: number }>`
      SELECT v, i::int FROM unnest(${values}::text[], ${values.map((_, i) => i)}::int[]) AS t(v, i) ORDER BY i`,
    );
    expect(rows.map((r) => r.v)).toEqual(values);
    const nulls = await queryRow(
      pgPool(),
      sql<{ n: number }>`SELECT count(*)::int AS n FROM unnest(${['x', null]}::text[]) v WHERE v IS NULL`,
    );
    expect(nulls?.n).toBe(1);
  });

  it('splices nested fragments with their parameters in order', async () => {
    const inner = sql`${'b'}::text`;
    const condition = sql`v = ${'a'}::text OR v = ${inner}`;
    const rows = await queryRows(
      pgPool(),
      sql<{ v: string }>`
      SELECT v FROM unnest(${['a', 'b', 'c']}::text[]) AS v WHERE ${condition} ${sql.empty} ORDER BY v LIMIT ${10}::int`,
    );
    expect(rows).toEqual([{ v: 'a' }, { v: 'b' }]);
  });

  it('quotes an identifier that holds quotes and SQL', async () => {
    await pgTransaction(async (client) => {
      const table = sql.id(`data_access_${Date.now()}`);
      const column = sql.id('we"ird; DROP TABLE accounts; --');
      await execute(client, sql`CREATE TEMP TABLE ${table} (${column} text) ON COMMIT DROP`);
      expect(await execute(client, sql`INSERT INTO ${table} (${column}) VALUES (${'one'}), (${'two'})`)).toBe(2);
      const rows = await queryRows(client, sql<{ v: string }>`SELECT ${column} AS v FROM ${table} ORDER BY 1`);
      expect(rows).toEqual([{ v: 'one' }, { v: 'two' }]);
    });
    expect(await canaryAlive()).toBe(true);
  });

  it('runs a prepared statement again with other values', async () => {
    const find = (value: number) => sql<{ v: number }>`SELECT ${value}::int + 1 AS v`.prepared('data_access_plus_one');
    const results = await Promise.all([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((n) => queryRow(pgPool(), find(n))));
    expect(results.map((r) => r?.v)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
  });
});

describe('enqueueEvent', () => {
  let shipper: TestAccount;
  let other: TestAccount;
  const endpoint = (account: TestAccount, data: { environment?: 'test' | 'live'; enabled?: boolean; events?: string[] } = {}) =>
    db.webhookEndpoint.create({
      data: {
        id: newId('we'),
        accountId: account.accountId,
        environment: data.environment ?? 'test',
        url: 'http://127.0.0.1:9/hook',
        events: data.events ?? ['package.sorting'],
        enabled: data.enabled ?? true,
        secret: 'whsec_dGVzdHNlY3JldHRlc3RzZWNyZXQ=',
      },
    });
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    shipper = await newAccount('Outbox');
    other = await newAccount('Outbox other');
    ids.one = (await endpoint(shipper)).id;
    ids.two = (await endpoint(shipper, { events: ['shipment.delivered', 'package.sorting'] })).id;
    ids.disabled = (await endpoint(shipper, { enabled: false })).id;
    ids.live = (await endpoint(shipper, { environment: 'live' })).id;
    ids.otherEvent = (await endpoint(shipper, { events: ['shipment.delivered'] })).id;
    ids.otherAccount = (await endpoint(other)).id;
  });

  const deliveries = (eventId: string) =>
    db.webhookMessage.findMany({
      where: { eventId },
      select: { id: true, endpointId: true, attemptCount: true },
      orderBy: { id: 'asc' },
    });

  it('stores the event and one pending delivery per enabled endpoint of its account and environment subscribed to it', async () => {
    const payload = { manifest_id: 'MAN-X', package_count: 1, tracking_numbers: ['T\'1"; --'] };
    const { eventId, messageIds } = await enqueueEvent(pgPool(), {
      accountId: shipper.accountId,
      environment: 'test',
      eventType: 'package.sorting',
      payload,
    });
    expect(eventId).toMatch(/^evt_[0-9a-z]{24}$/);
    const event = await db.webhookEvent.findUniqueOrThrow({ where: { id: eventId } });
    expect(event).toMatchObject({
      accountId: shipper.accountId,
      environment: 'test',
      eventType: 'package.sorting',
      payload,
      isTest: false,
    });
    const rows = await deliveries(eventId);
    expect(rows.map((r) => r.endpointId).sort()).toEqual([ids.one, ids.two].sort());
    expect(rows.map((r) => r.id)).toEqual(messageIds);
    // Ids without a round trip: the event's random part and the endpoint's ordinal (the hot path's scheme).
    for (const id of messageIds) expect(id).toMatch(new RegExp(`^msg_${eventId.slice(4)}[12]$`));
    expect(new Set(messageIds).size).toBe(2);
  });

  it('stores an event nobody is subscribed to, with no deliveries', async () => {
    const { eventId, messageIds } = await enqueueEvent(pgPool(), {
      accountId: shipper.accountId,
      environment: 'live',
      eventType: 'shipment.delivered',
      payload: {},
    });
    expect(messageIds).toEqual([]);
    expect(await db.webhookEvent.count({ where: { id: eventId } })).toBe(1);
    expect(await deliveries(eventId)).toEqual([]);
  });

  it("with endpointId, delivers to that endpoint alone, and to nobody if it is disabled or another account's", async () => {
    const base = {
      accountId: shipper.accountId,
      environment: 'test' as const,
      eventType: 'package.sorting',
      payload: {},
      isTest: true,
    };
    const alone = await enqueueEvent(pgPool(), { ...base, endpointId: ids.two });
    expect((await deliveries(alone.eventId)).map((r) => r.endpointId)).toEqual([ids.two]);
    expect((await db.webhookEvent.findUniqueOrThrow({ where: { id: alone.eventId } })).isTest).toBe(true);
    for (const endpointId of [ids.disabled, ids.otherAccount, ids.live, ids.otherEvent, "x' OR true; --"]) {
      const none = await enqueueEvent(pgPool(), { ...base, endpointId: endpointId ?? '' });
      expect(none.messageIds).toEqual([]);
    }
  });

  it("commits and rolls back with the caller's transaction", async () => {
    let rolledBack = '';
    await expect(
      pgTransaction(async (client) => {
        rolledBack = (
          await enqueueEvent(client, {
            accountId: shipper.accountId,
            environment: 'test',
            eventType: 'package.sorting',
            payload: {},
          })
        ).eventId;
        throw new Error('the change the event reports failed');
      }),
    ).rejects.toThrow('the change the event reports failed');
    expect(await db.webhookEvent.count({ where: { id: rolledBack } })).toBe(0);
    expect(await db.webhookMessage.count({ where: { eventId: rolledBack } })).toBe(0);

    const committed = await pgTransaction((client) =>
      enqueueEvent(client, {
        accountId: shipper.accountId,
        environment: 'test',
        eventType: 'package.sorting',
        payload: { n: 1 },
      }),
    );
    expect(await db.webhookMessage.count({ where: { eventId: committed.eventId } })).toBe(2);
  });
});
