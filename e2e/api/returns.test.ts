import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { pgPool } from '@/lib/db';
import { baseUrl, call, expectError, newAccount, pathFor, tracking, type TestAccount } from './support/api';
import { containerSample, packageSample } from './support/samples';

// Returns: a new package from the recipient back to the shipper, linked both ways, labelled, priced and tracked like
// any package; one live return per package (retries and concurrent requests answer it), refused before the carrier is
// delivering, and never reachable from another account or environment.

let acme: TestAccount;
let rival: TestAccount;

beforeAll(async () => {
  [acme, rival] = await Promise.all([newAccount('Returns'), newAccount('Returns rival')]);
});

async function dailyPackage(account: TestAccount, status?: string): Promise<string> {
  const number = tracking('RT');
  const made = await call('/wf/package', { token: account.tokens.test, body: packageSample(number) });
  expect(made.status, made.text).toBe(200);
  if (status) {
    const walked = await call(`/packages/${number}/simulate`, { token: account.tokens.test, body: { status } });
    expect(walked.status, walked.text).toBe(200);
  }
  return number;
}

const read = (account: TestAccount, number: string) => call(`/packages/${number}`, { method: 'GET', token: account.tokens.test });

describe('POST /packages/{TrackingNumber}/return', () => {
  it('makes a return from the recipient to the shipper, linked both ways, priced, labelled and with its event', async () => {
    const original = await dailyPackage(acme, 'delivered');
    const made = await call(`/packages/${original.toLowerCase()}/return`, { token: acme.tokens.test });
    expect(made.status, made.text).toBe(200);
    expect(made.headers.get('idempotent-replayed')).toBeNull();
    const originalRead = (await read(acme, original)).json;
    expect(made.json).toMatchObject({
      object: 'package',
      status: 'manifested',
      manifest_type: 'daily',
      TrackingNumber: `RTN-${originalRead.carrier_barcode}-1`,
      // The recipient is now the sender, the shipper the recipient.
      FromName: 'Jane Doe',
      FromAddress1: '9 Palm Dr',
      FromCity: 'Beverly Hills',
      FromPostalCode: '90210',
      ToName: 'Dock 4',
      Consignee: 'Maple Goods',
      ToAddress1: '100 King St W',
      ToCity: 'Toronto',
      ToPostalCode: 'M5X 1A9',
      ServiceName: 'AirSkip',
      return_of: { tracking_number: original, carrier_barcode: originalRead.carrier_barcode },
      returns: [],
    });
    expect(made.json.carrier_barcode).toMatch(/^CB\d{13}$/);
    expect(made.json.carrier_barcode).not.toBe(originalRead.carrier_barcode);
    expect(made.json.charge).toMatchObject({ status: expect.any(String) });
    expect(originalRead.returns).toEqual([
      expect.objectContaining({
        tracking_number: made.json.TrackingNumber,
        carrier_barcode: made.json.carrier_barcode,
        status: 'manifested',
      }),
    ]);
    expect(originalRead.return_of).toBeNull();
    // Its label, by the label operation, and its timeline: a package like any other.
    const label = await fetch(baseUrl + pathFor('test', `/packages/${made.json.TrackingNumber}/label?format=zpl`), {
      headers: { authorization: `Token ${acme.tokens.test}` },
    });
    expect(label.status).toBe(200);
    expect(await label.text()).toContain(made.json.carrier_barcode.slice(2));
    const walked = await call(`/packages/${made.json.carrier_barcode}/simulate`, {
      token: acme.tokens.test,
      body: { status: 'in_transit' },
    });
    expect(walked.json.status).toBe('in_transit');
    const events = await pgPool().query<{ payload: Record<string, unknown> }>(
      `SELECT payload FROM webhook_events WHERE account_id = $1 AND event_type = 'package.return_created'`,
      [acme.accountId],
    );
    expect(events.rows.map((r) => r.payload)).toContainEqual({
      type: 'package.return_created',
      original: { tracking_number: original, carrier_barcode: originalRead.carrier_barcode },
      return: {
        tracking_number: made.json.TrackingNumber,
        carrier_barcode: made.json.carrier_barcode,
        manifest_id: made.json.ManifestID,
      },
    });
  });

  it('one return per package: a retry, an Idempotency-Key retry and eight at once answer the same one', async () => {
    const original = await dailyPackage(acme, 'out_for_delivery');
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => call(`/packages/${original}/return`, { token: acme.tokens.test })),
    );
    for (const answer of answers) expect(answer.status, answer.text).toBe(200);
    expect(new Set(answers.map((a) => a.json.TrackingNumber)).size).toBe(1);
    expect(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true')).toHaveLength(7);
    const key = randomUUID();
    const keyed = await call(`/packages/${original}/return`, { token: acme.tokens.test, headers: { 'idempotency-key': key } });
    const again = await call(`/packages/${original}/return`, { token: acme.tokens.test, headers: { 'idempotency-key': key } });
    expect(keyed.json.TrackingNumber).toBe(answers[0].json.TrackingNumber);
    expect(again.text).toBe(keyed.text);
    const links = await pgPool().query(`SELECT 1 FROM package_returns WHERE account_id = $1 AND original_barcode = $2`, [
      acme.accountId,
      answers[0].json.return_of.carrier_barcode,
    ]);
    expect(links.rowCount).toBe(1);
  });

  it('a cancelled return frees the package for a new one (-2), and the original lists both', async () => {
    const original = await dailyPackage(acme, 'delivered');
    const first = (await call(`/packages/${original}/return`, { token: acme.tokens.test })).json;
    const cancelled = await call(`/packages/${first.TrackingNumber}/cancel`, { token: acme.tokens.test });
    expect(cancelled.status, cancelled.text).toBe(200);
    const second = await call(`/packages/${original}/return`, { token: acme.tokens.test });
    expect(second.status, second.text).toBe(200);
    expect(second.json.TrackingNumber).toMatch(/-2$/);
    const returns = (await read(acme, original)).json.returns;
    expect(returns.map((r: { status: string }) => r.status)).toEqual(['cancelled', 'manifested']);
  });

  it('a body it does not read is accepted but named in `warnings`, on the return and on a cancel alike', async () => {
    const original = await dailyPackage(acme, 'delivered');
    const made = await call(`/packages/${original}/return`, {
      token: acme.tokens.test,
      body: { reason: 'too small', RMA: 'R-1' },
    });
    expect(made.status, made.text).toBe(200);
    expect(made.json.warnings).toEqual([
      { path: 'reason', message: 'is not a field of this operation: ignored, not stored' },
      { path: 'RMA', message: 'is not a field of this operation: ignored, not stored' },
    ]);
    const plain = await call(`/packages/${original}/return`, { token: acme.tokens.test });
    expect(plain.json.TrackingNumber).toBe(made.json.TrackingNumber);
    expect(plain.json).not.toHaveProperty('warnings');
    const cancelled = await call(`/packages/${made.json.TrackingNumber}/cancel`, { token: acme.tokens.test, body: [] });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.json.warnings).toEqual([{ path: '(body)', message: 'this operation reads no body: ignored' }]);
  });

  it('refuses a package before out for delivery, a cancelled one and a return itself: 409 not_returnable naming the status', async () => {
    for (const status of [undefined, 'received', 'in_transit', 'exception', 'cancelled']) {
      const number = await dailyPackage(acme, status === 'cancelled' ? undefined : status);
      if (status === 'cancelled') await call(`/packages/${number}/cancel`, { token: acme.tokens.test });
      const error = expectError(await call(`/packages/${number}/return`, { token: acme.tokens.test }), 409, 'not_returnable');
      const expected = status ?? 'manifested';
      expect(error).toMatchObject({ current_status: expected });
      expect(error.message).toContain(expected);
    }
    const original = await dailyPackage(acme, 'delivered');
    const made = (await call(`/packages/${original}/return`, { token: acme.tokens.test })).json;
    await call(`/packages/${made.TrackingNumber}/simulate`, { token: acme.tokens.test, body: { status: 'delivered' } });
    const again = expectError(
      await call(`/packages/${made.TrackingNumber}/return`, { token: acme.tokens.test }),
      409,
      'not_returnable',
    );
    expect(again.message).toContain('itself the return');
  });

  it("a container's package returns to the manifest header's sender", async () => {
    const numbers = [tracking('RTC')];
    const container = await call('/wf/manifest', {
      token: acme.tokens.test,
      body: containerSample(`ULD-${randomUUID().slice(0, 8)}`, numbers),
    });
    expect(container.status, container.text).toBe(200);
    await call(`/packages/${numbers[0]}/simulate`, { token: acme.tokens.test, body: { status: 'delivered' } });
    const made = await call(`/packages/${numbers[0]}/return`, { token: acme.tokens.test });
    if (made.status === 200) {
      expect(made.json.return_of.tracking_number).toBe(numbers[0]);
      expect(made.json.ToPostalCode).toBeTruthy();
    } else {
      // A container package without a weight or a sender address cannot make a label: refused, naming the fields.
      const error = expectError(made, 409, 'not_returnable');
      expect(error.details?.length).toBeGreaterThan(0);
    }
  });

  it("another account's or environment's package is a 404; hostile identifiers are a 4xx", async () => {
    const original = await dailyPackage(acme, 'delivered');
    expectError(await call(`/packages/${original}/return`, { token: rival.tokens.test }), 404, 'not_found');
    expectError(await call(`/packages/${original}/return`, { env: 'live', token: acme.tokens.live }), 404, 'not_found');
    const barcode = (await read(acme, original)).json.carrier_barcode;
    expectError(await call(`/packages/${barcode}/return`, { token: rival.tokens.test }), 404, 'not_found');
    for (const hostile of ['%00', 'a%00b', '..%2F..%2Fx', 'x'.repeat(300), '%F0%9F%93%A6', '%ED%A0%80']) {
      const answer = await call(`/packages/${hostile}/return`, { token: acme.tokens.test });
      expect(answer.status, `${hostile}: ${answer.text}`).toBeGreaterThanOrEqual(400);
      expect(answer.status, `${hostile}: ${answer.text}`).toBeLessThan(500);
    }
    const after = (await read(acme, original)).json;
    expect(after.returns).toEqual([]);
  });
});
