import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createOpsToken } from '@/lib/auth/ops-tokens';
import { pgPool } from '@/lib/db';
import { call, newAccount, tracking, type TestAccount } from './support/api';
import { airContainer, expressPackage, ledger } from './support/pricing';

let acme: TestAccount;
let ops: string;
const PUBLIC_URL = 'https://93.184.215.14/hooks/carrier';

beforeAll(async () => {
  acme = await newAccount('Adjustments');
  ops = (await createOpsToken({ name: 'adjustment tests' })).token;
  const endpoint = await call('/webhooks', { token: acme.tokens.test, body: { url: PUBLIC_URL, events: ['package.adjusted'] } });
  expect(endpoint.status, endpoint.text).toBe(201);
});

async function accept(extra: Record<string, unknown> = {}) {
  const tn = tracking('AD');
  const accepted = await call('/wf/package', { token: acme.tokens.test, body: expressPackage(tn, extra) });
  expect(accepted.status, accepted.text).toBe(200);
  const read = await call(`/packages/${tn}`, { method: 'GET', token: acme.tokens.test });
  return { tn, barcode: read.json.carrier_barcode as string, charge: accepted.json.charge };
}

function received(barcode: string, measured: Record<string, unknown> | undefined, scanId = `scan-${randomUUID()}`) {
  return {
    scan_id: scanId,
    carrier_barcode: barcode,
    event: 'received',
    location: 'JFK',
    occurred_at: new Date().toISOString(),
    ...(measured ? { measured } : {}),
  };
}

const scan = (scans: unknown[]) => call('/ops/scans', { token: ops, body: { scans } });

async function outbox(trackingNumber: string) {
  const { rows } = await pgPool().query<{ payload: Record<string, unknown> }>(
    `SELECT payload FROM webhook_events WHERE account_id = $1 AND event_type = 'package.adjusted' AND payload->>'tracking_number' = $2`,
    [acme.accountId, trackingNumber],
  );
  return rows.map((r) => r.payload);
}

describe('re-rating at received', () => {
  it('adjusts on a heavier measured weight: a ledger row, the charge, the timeline and a package.adjusted event', async () => {
    const pkg = await accept();
    const result = await scan([received(pkg.barcode, { weight: 12, weight_unit: 'lb' }, `w-${randomUUID()}`)]);
    expect(result.status, result.text).toBe(200);
    expect(result.json.results[0]).toMatchObject({ result: 'applied', status: 'received' });
    const entries = await ledger(acme.accountId, pkg.tn);
    expect(entries.map((e) => e.kind)).toEqual(['charge', 'adjustment']);
    const adjustment = entries[1];
    const read = await call(`/packages/${pkg.tn}`, { method: 'GET', token: acme.tokens.test });
    const after = read.json.charge.amount as string;
    expect(Number(after)).toBeGreaterThan(Number(pkg.charge.amount));
    expect(adjustment.amount).toBe((Math.round(Number(after) * 100 - Number(pkg.charge.amount) * 100) / 100).toFixed(2));
    expect(adjustment.detail).toMatchObject({
      before: pkg.charge.amount,
      after,
      reason: 'weight',
      card_version: 1,
      scan_id: adjustment.scan_id,
    });
    expect(read.json.charge.adjustments).toEqual([
      { amount: adjustment.amount, reason: 'weight', scan_id: adjustment.scan_id, occurred_at: expect.any(String) },
    ]);
    expect(read.json.charge.billable_weight).toBe('12');
    const events = await call(`/packages/${pkg.tn}/events`, { method: 'GET', token: acme.tokens.test });
    const adjusted = events.json.data.find((e: { type: string }) => e.type === 'package.adjusted');
    expect(adjusted).toMatchObject({
      status: 'received',
      scan_id: adjustment.scan_id,
      adjustment: { amount: adjustment.amount, reason: 'weight' },
    });
    const [payload] = await outbox(pkg.tn);
    expect(payload).toMatchObject({
      tracking_number: pkg.tn,
      carrier_barcode: pkg.barcode,
      adjustment: { amount: adjustment.amount, before: pkg.charge.amount, after },
    });
  });

  it('gives dimensions as the reason when the measured box is bigger', async () => {
    const pkg = await accept();
    await scan([received(pkg.barcode, { length: 24, width: 20, height: 18 })]);
    const [, adjustment] = await ledger(acme.accountId, pkg.tn);
    expect(adjustment?.detail).toMatchObject({ reason: 'dimensions' });
  });

  it('writes nothing when the hub measures what was declared (or sends no measurement)', async () => {
    const same = await accept();
    await scan([received(same.barcode, { weight: 3, weight_unit: 'lb', length: 10, width: 8, height: 6 })]);
    expect((await ledger(acme.accountId, same.tn)).map((e) => e.kind)).toEqual(['charge']);
    const none = await accept();
    await scan([received(none.barcode, undefined)]);
    expect((await ledger(acme.accountId, none.tn)).map((e) => e.kind)).toEqual(['charge']);
    expect(await outbox(same.tn)).toEqual([]);
  });

  it('adjusts once for a resent scan', async () => {
    const pkg = await accept();
    const body = received(pkg.barcode, { weight: 20, weight_unit: 'lb' });
    await scan([body]);
    const again = await scan([body]);
    expect(again.json.results[0]).toMatchObject({ result: 'duplicate' });
    expect((await ledger(acme.accountId, pkg.tn)).map((e) => e.kind)).toEqual(['charge', 'adjustment']);
    expect(await outbox(pkg.tn)).toHaveLength(1);
  });

  it('adjusts once for two concurrent received scans with different scan ids measuring the same', async () => {
    const pkg = await accept();
    const [a, b] = await Promise.all([
      scan([received(pkg.barcode, { weight: 15, weight_unit: 'lb' })]),
      scan([received(pkg.barcode, { weight: 15, weight_unit: 'lb' })]),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect([a.json.results[0].result, b.json.results[0].result].sort()).toEqual(['applied', 'recorded']);
    const entries = await ledger(acme.accountId, pkg.tn);
    expect(entries.map((e) => e.kind)).toEqual(['charge', 'adjustment']);
    const read = await call(`/packages/${pkg.tn}`, { method: 'GET', token: acme.tokens.test });
    expect(read.json.charge.amount).toBe(entries[1]?.detail.after);
  });

  it('re-rates a package priced at a quote with the same card version, from the quoted amount', async () => {
    const rate = await call('/wf/rate', {
      token: acme.tokens.test,
      body: {
        weight: 3,
        weight_unit: 'lb',
        from_zip: '10001',
        to_zip: '90210',
        service: 'Carrier Express',
        length: 10,
        width: 8,
        height: 6,
      },
    });
    const q = rate.json.rates[0];
    const pkg = await accept({ QuoteID: q.quote_id });
    expect(pkg.charge.quote_id).toBe(q.quote_id);
    await scan([received(pkg.barcode, { weight: 2, weight_unit: 'kg' })]);
    const [, adjustment] = await ledger(acme.accountId, pkg.tn);
    expect(adjustment?.detail).toMatchObject({ before: q.amount, card_version: q.card_version, reason: 'weight' });
  });

  it('lets the simulator report measured values, for a daily package and a container', async () => {
    const pkg = await accept();
    const walked = await call(`/packages/${pkg.tn}/simulate`, {
      token: acme.tokens.test,
      body: { status: 'in_transit', measured: { weight: 25, weight_unit: 'lb' } },
    });
    expect(walked.status, walked.text).toBe(200);
    expect(walked.json.charge.adjustments).toHaveLength(1);
    const numbers = [tracking('AK')];
    const created = await call('/wf/manifest', {
      token: acme.tokens.test,
      body: airContainer(`C-${randomUUID().slice(0, 8)}`, numbers),
    });
    const sim = await call(`/manifests/${created.json.ManifestID}/simulate`, {
      token: acme.tokens.test,
      body: { status: 'received', measured: { length: 20, width: 20, height: 20 } },
    });
    expect(sim.status, sim.text).toBe(200);
    const read = await call(`/packages/${numbers[0]}`, { method: 'GET', token: acme.tokens.test });
    expect(read.json.charge.adjustments).toEqual([expect.objectContaining({ reason: 'dimensions', scan_id: null })]);
  });
});
