import { beforeAll, describe, expect, it } from 'vitest';
import { pgPool } from '@/lib/db';
import { execute, sql } from '@/lib/sql';
import { call, newAccount, tracking, type TestAccount } from './support/api';
import { packageSample } from './support/samples';

// A package's timeline is in the order its events happened, and among events of one instant (one transaction, one
// scan batch) in the order they were written: by the event's id as a number. Ids across a power of ten are the case
// where ordering by the id's text (100 before 99) put them out of order.

let acme: TestAccount;
beforeAll(async () => {
  acme = await newAccount('Event order');
});

describe('GET /packages/{TrackingNumber}/events', () => {
  it('lists events of one instant in the order written, ids across a power of ten included', async () => {
    const number = tracking('EVO');
    const made = await call('/wf/package', { token: acme.tokens.test, body: packageSample(number) });
    expect(made.status, made.text).toBe(200);
    const read = await call(`/packages/${number}`, { method: 'GET', token: acme.tokens.test });
    const { ManifestID: manifestId, carrier_barcode: barcode } = read.json as { ManifestID: string; carrier_barcode: string };
    const at = '2030-01-01T00:00:00.000Z';
    const written = [
      [10n ** 13n - 2n, 'received', 'manifested'],
      [10n ** 13n - 1n, 'in_transit', 'received'],
      [10n ** 13n, 'out_for_delivery', 'in_transit'],
      [10n ** 13n + 1n, 'delivered', 'out_for_delivery'],
    ] as const;
    for (const [id, status, previous] of written) {
      await execute(
        pgPool(),
        sql`INSERT INTO lifecycle_events (id, account_id, environment, subject_type, manifest_id, tracking_number, carrier_barcode,
                                          type, status, previous_status, applied, occurred_at, source)
            VALUES (${id.toString()}::bigint, ${acme.accountId}::uuid, 'test', 'package', ${manifestId}, ${number}, ${barcode},
                    ${`package.${status}`}, ${status}, ${previous}, true, ${at}::timestamptz, 'scan')`,
      );
    }
    const events = await call(`/packages/${number}/events`, { method: 'GET', token: acme.tokens.test });
    expect(events.status, events.text).toBe(200);
    const last = (events.json.data as { id: string; occurred_at: string }[]).filter((e) => e.occurred_at === at);
    expect(last.map((e) => e.id)).toEqual(written.map(([id]) => `lev_${id}`));
  });
});
