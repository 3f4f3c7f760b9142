import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createOpsToken } from '@/lib/auth/ops-tokens';
import { issueQuoteId, quoteKeyFrom } from '@/lib/billing/quote-id';
import { baseUrl, call, expectError, newAccount, pathFor, tracking, type TestAccount } from './support/api';
import { expressPackage, ledger, quote } from './support/pricing';

let owner: TestAccount;
let stranger: TestAccount;
let ops: string;

beforeAll(async () => {
  owner = await newAccount('Hostile pricing');
  stranger = await newAccount('Hostile pricing stranger');
  ops = (await createOpsToken({ name: 'hostile pricing' })).token;
});

const send = (account: TestAccount, body: unknown, env: 'test' | 'live' = 'test') =>
  call('/wf/package', { env, token: account.tokens[env], body });

/** Accepted all the same, priced at the card, the warning naming the reason. */
async function pricedAfresh(account: TestAccount, quoteId: unknown, why: RegExp, env: 'test' | 'live' = 'test') {
  const tn = tracking('HQ');
  const accepted = await send(account, expressPackage(tn, { QuoteID: quoteId }), env);
  expect(accepted.status, accepted.text).toBe(200);
  expect(accepted.json.IsSuccess).toBe(true);
  expect(accepted.json.charge).toMatchObject({ status: 'priced', quote_id: null });
  expect(accepted.json.warnings).toEqual([{ path: 'package.QuoteID', message: expect.stringMatching(why) }]);
  return accepted;
}

describe('quote ids that do not hold', () => {
  it("another account's quote id prices afresh, saying so", async () => {
    const q = await quote(owner);
    await pricedAfresh(stranger, q.quote_id, /issued to another account/);
  });

  it("the other environment's quote id prices afresh, saying so", async () => {
    const q = await quote(owner, undefined, 'live');
    await pricedAfresh(owner, q.quote_id, /other environment/);
  });

  it('an expired quote id prices afresh, saying so', async () => {
    // Minted here under the servers' key (the suite's runner shares WEBHOOK_SECRETS_KEY): a genuine quote, a day old.
    const key = quoteKeyFrom(process.env.WEBHOOK_SECRETS_KEY ?? '');
    const expired = issueQuoteId(key, owner.accountId, {
      environment: 'test',
      service: 'Carrier Express',
      cardVersion: 1,
      amount: '0.01',
      weightLb: '3',
      length: '10',
      width: '8',
      height: '6',
      from: '10001',
      to: '90210',
      expiresAt: new Date(Date.now() - 60_000),
    });
    const accepted = await pricedAfresh(owner, expired, /expired/);
    expect(accepted.json.charge.amount).not.toBe('0.01');
  });

  it('a forged quote id (a cheaper amount, a later expiry) prices afresh as not verifying', async () => {
    const q = await quote(owner);
    const [payload, mac] = q.quote_id.slice(3).split('.') as [string, string];
    const cheaper = Buffer.from(Buffer.from(payload, 'base64url').toString().replace(`|${q.amount}|`, '|0.01|')).toString(
      'base64url',
    );
    const accepted = await pricedAfresh(owner, `qt_${cheaper}.${mac}`, /does not verify/);
    expect(accepted.json.charge.amount).toBe(q.amount);
    const otherKey = issueQuoteId(quoteKeyFrom(Buffer.alloc(32, 1)), owner.accountId, {
      environment: 'test',
      service: 'Carrier Express',
      cardVersion: 1,
      amount: '0.01',
      weightLb: '3',
      length: '10',
      width: '8',
      height: '6',
      from: '10001',
      to: '90210',
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    await pricedAfresh(owner, otherKey, /does not verify/);
  });

  it.each([
    ['not a quote id', 'hello'],
    ['an empty id', 'qt_'],
    ['a number', 12345],
    ['unicode', 'qt_💸.AAAAAAAAAAAAAAAAAAAAAA'],
    ['700 characters', `qt_${'A'.repeat(697)}`],
  ])('garbage (%s) prices afresh as not a quote id', async (_name, garbage) => {
    await pricedAfresh(owner, garbage, /not a quote id|does not verify/);
  });

  it('refuses a QuoteID that is no storable text (NUL, 701 characters, an object) with 422 naming the field', async () => {
    for (const bad of ['qt_\u0000abc', `qt_${'A'.repeat(698)}`, { id: 'qt_x' }]) {
      const result = await send(owner, expressPackage(tracking('HB'), { QuoteID: bad }));
      expectError(result, 422, 'validation_failed');
      expect(result.json.IsSuccess).toBe(false);
      expect(result.json.error.details.map((d: { path: string }) => d.path)).toEqual(['package.QuoteID']);
    }
  });

  it('a container detail with a stranger quote id is accepted, warned per package', async () => {
    const q = await quote(owner, {
      weight: 2.5,
      weight_unit: 'lb',
      service: 'AirSkip',
      length: 10,
      width: 8,
      height: 4,
      origin: 'EWR',
      destination: 'LAX',
    });
    const { airContainer } = await import('./support/pricing');
    const body = airContainer(`C-${randomUUID().slice(0, 8)}`, [tracking('HC')]);
    body.ContainerDetails[0] = { ...body.ContainerDetails[0], QuoteID: q.quote_id } as (typeof body.ContainerDetails)[0];
    const created = await call('/wf/manifest', { token: stranger.tokens.test, body });
    expect(created.status, created.text).toBe(200);
    expect(created.json.warnings).toEqual([
      { path: 'ContainerDetails[0].QuoteID', message: expect.stringMatching(/another account/) },
    ]);
  });
});

/**
 * POST /ops/scans without the suite's contract check: a batch answers 200 whatever one scan holds, so a scan the
 * document refuses (a negative weight) is what these tests send on purpose.
 */
async function sendScans(scans: unknown[]) {
  const response = await fetch(baseUrl + pathFor('test', '/ops/scans'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Token ${ops}` },
    body: JSON.stringify({ scans }),
  });
  return {
    status: response.status,
    json: (await response.json()) as { results: { result: string; error: { code: string; details: { path: string }[] } }[] },
  };
}

describe('measurements that are not measurements', () => {
  async function barcodeOf() {
    const tn = tracking('HM');
    await send(owner, expressPackage(tn));
    const read = await call(`/packages/${tn}`, { method: 'GET', token: owner.tokens.test });
    return { tn, barcode: read.json.carrier_barcode as string };
  }

  it.each([
    ['NUL', { weight: '1\u0000', weight_unit: 'lb' }, 'measured.weight'],
    ['negative', { weight: -2, weight_unit: 'lb' }, 'measured.weight'],
    ['zero', { weight: 0, weight_unit: 'lb' }, 'measured.weight'],
    ['1e308', { weight: 1e308, weight_unit: 'lb' }, 'measured.weight'],
    ['too many decimals', { weight: 1.2345, weight_unit: 'lb' }, 'measured.weight'],
    ['inches with 3 decimals', { length: 1.234, width: 1, height: 1 }, 'measured.length'],
    ['an unknown unit', { weight: 2, weight_unit: 'stone' }, 'measured.weight_unit'],
    ['a weight without a unit', { weight: 2 }, 'measured.weight_unit'],
    ['an unknown field', { weight: 2, weight_unit: 'lb', volume: 3 }, 'measured'],
  ])('a scan measuring %s is refused alone, naming the field; nothing is adjusted', async (_name, measured, path) => {
    const { tn, barcode } = await barcodeOf();
    const good = {
      scan_id: `ok-${randomUUID()}`,
      carrier_barcode: barcode,
      event: 'received',
      location: 'JFK',
      occurred_at: new Date().toISOString(),
    };
    const result = await sendScans([{ ...good, scan_id: `bad-${randomUUID()}`, measured }, good]);
    expect(result.status).toBe(200);
    expect(result.json.results[0]).toMatchObject({ result: 'refused', error: { code: 'validation_failed' } });
    expect(result.json.results[0].error.details.map((d: { path: string }) => d.path)).toContain(path);
    expect(result.json.results[1]).toMatchObject({ result: 'applied' });
    expect((await ledger(owner.accountId, tn)).map((e) => e.kind)).toEqual(['charge']);
  });

  it('refuses measured values on a scan that is not received', async () => {
    const { barcode } = await barcodeOf();
    const result = await call('/ops/scans', {
      token: ops,
      body: {
        scans: [
          {
            scan_id: `x-${randomUUID()}`,
            carrier_barcode: barcode,
            event: 'in_transit',
            location: 'JFK',
            occurred_at: new Date().toISOString(),
            measured: { weight: 9, weight_unit: 'lb' },
          },
        ],
      },
    });
    expect(result.json.results[0].error.details.map((d: { path: string }) => d.path)).toEqual(['measured']);
  });

  it('the simulator answers 422 naming the measured field', async () => {
    const { tn } = await barcodeOf();
    for (const [measured, path] of [
      [{ weight: -1, weight_unit: 'lb' }, 'measured.weight'],
      [{ weight: 1e308, weight_unit: 'lb' }, 'measured.weight'],
      [{ weight: '2\u0000', weight_unit: 'lb' }, 'measured.weight'],
    ] as const) {
      const result = await call(`/packages/${tn}/simulate`, { token: owner.tokens.test, body: { status: 'received', measured } });
      expectError(result, 422, 'validation_failed');
      expect(result.json.error.details.map((d: { path: string }) => d.path)).toEqual([path]);
    }
  });
});

describe("another account's package", () => {
  it('cannot be cancelled, simulated or read by a stranger, and its charge stays', async () => {
    const tn = tracking('HS');
    await send(owner, expressPackage(tn));
    expectError(await call(`/packages/${tn}/cancel`, { token: stranger.tokens.test }), 404, 'not_found');
    expectError(
      await call(`/packages/${tn}/simulate`, {
        token: stranger.tokens.test,
        body: { status: 'received', measured: { weight: 50, weight_unit: 'lb' } },
      }),
      404,
      'not_found',
    );
    expectError(await call(`/packages/${tn}`, { method: 'GET', token: stranger.tokens.test }), 404, 'not_found');
    const entries = await ledger(owner.accountId, tn);
    expect(entries.map((e) => [e.kind, e.voided_at])).toEqual([['charge', null]]);
  });
});
