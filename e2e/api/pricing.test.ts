import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgPool } from '@/lib/db';
import { call, newAccount, tracking, type TestAccount } from './support/api';
import { packageSample } from './support/samples';
import { airContainer, expressPackage, EXPRESS_RATE, ledger, quote } from './support/pricing';

let acme: TestAccount;
const V2_FROM = '2031-01-01T00:00:00Z';

beforeAll(async () => {
  acme = await newAccount('Pricing');
  // Version 2 of Carrier Express, every table price doubled, in force from 2031: only packages manifested then see it.
  await pgPool().query(
    `INSERT INTO rate_cards (id, service, version, effective_from, carrier, active, location_kind, dim_divisor, weight_step_lb, max_weight_lb,
                             zones, weight_breaks, surcharges, delivery_days, sort_order)
     SELECT gen_random_uuid(), service, 2, $1, carrier, active, location_kind, dim_divisor, weight_step_lb, max_weight_lb, zones,
            (SELECT jsonb_agg(jsonb_build_object('maxLb', b->'maxLb', 'prices',
                    (SELECT jsonb_agg(to_char((p #>> '{}')::numeric * 2, 'FM999990.00')) FROM jsonb_array_elements(b->'prices') p)))
             FROM jsonb_array_elements(weight_breaks) b),
            surcharges, delivery_days, sort_order
     FROM rate_cards WHERE service = 'Carrier Express' AND version = 1`,
    [V2_FROM],
  );
});

afterAll(async () => {
  await pgPool().query(`DELETE FROM rate_cards WHERE service = 'Carrier Express' AND version = 2`);
});

const send = (body: unknown, account = acme, env: 'test' | 'live' = 'test') =>
  call('/wf/package', { env, token: account.tokens[env], body });

describe('pricing at acceptance', () => {
  it('prices a daily package by the card in force on its ManifestDate, the same as its quote, and writes one ledger charge', async () => {
    const q = await quote(acme);
    const tn = tracking('PR');
    const accepted = await send(expressPackage(tn));
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.json.charge).toMatchObject({
      status: 'priced',
      amount: q.amount,
      currency: 'USD',
      service: 'Carrier Express',
      card_version: 1,
      zone: 8,
      quote_id: null,
      reason: null,
    });
    expect(accepted.json.warnings).toBeUndefined();
    const read = await call(`/packages/${tn}`, { method: 'GET', token: acme.tokens.test });
    expect(read.json.charge).toEqual(accepted.json.charge);
    const entries = await ledger(acme.accountId, tn);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      kind: 'charge',
      amount: q.amount,
      currency: 'USD',
      service: 'Carrier Express',
      manifest_id: accepted.json.ManifestID,
      carrier_barcode: read.json.carrier_barcode,
      voided_at: null,
      invoice_id: null,
    });
    // The identical resend changes nothing and charges nothing twice.
    const again = await send(expressPackage(tn));
    expect(again.status).toBe(200);
    expect(await ledger(acme.accountId, tn)).toHaveLength(1);
  });

  it('prices at the quote the package names, and says nothing', async () => {
    const q = await quote(acme);
    expect(q.quote_id).toMatch(/^qt_/);
    const tn = tracking('PQ');
    const accepted = await send(expressPackage(tn, { QuoteID: q.quote_id }));
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.json.charge).toMatchObject({ status: 'priced', amount: q.amount, quote_id: q.quote_id, card_version: 1 });
    expect(accepted.json.warnings).toBeUndefined();
    // The ledger's charge row has no detail: the package's charge keeps the quote and the card version.
    const read = await call(`/packages/${tn}`, { method: 'GET', token: acme.tokens.test });
    expect(read.json.charge).toMatchObject({ quote_id: q.quote_id, card_version: 1 });
    expect((await ledger(acme.accountId, tn))[0]).toMatchObject({ amount: q.amount, detail: {} });
  });

  it('prices afresh when the package no longer matches its quote, and the warning says what differs', async () => {
    const q = await quote(acme);
    const tn = tracking('PM');
    const accepted = await send(expressPackage(tn, { QuoteID: q.quote_id, PackageWeight: 7 }));
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.json.charge).toMatchObject({ status: 'priced', quote_id: null });
    expect(accepted.json.charge.amount).not.toBe(q.amount);
    expect(accepted.json.warnings).toEqual([
      {
        path: 'package.QuoteID',
        message: expect.stringMatching(/was for 3 lb, the package weighs 7 lb; priced at the rate card in force/),
      },
    ]);
  });

  it('prices a package manifested once a new card version is in force by that version', async () => {
    const now = await send(expressPackage(tracking('PV')));
    const later = await send(expressPackage(tracking('PV'), {}, '2031-02-01T08:00:00Z'));
    expect(later.status, later.text).toBe(200);
    expect(later.json.charge.card_version).toBe(2);
    expect(now.json.charge.card_version).toBe(1);
    expect(Number(later.json.charge.base)).toBeCloseTo(2 * Number(now.json.charge.base), 2);
    // Quoting now still uses version 1.
    expect((await quote(acme)).card_version).toBe(1);
  });

  it('accepts what no card prices, unpriced with the reason and no ledger line: AirSkip without airports, an unknown service', async () => {
    const air = tracking('PA');
    const airSkip = await send(packageSample(air));
    expect(airSkip.status, airSkip.text).toBe(200);
    expect(airSkip.json.charge).toMatchObject({ status: 'unpriced', amount: null, reason: expect.stringMatching(/airports/) });
    const pigeon = tracking('PP');
    const unknown = await send(expressPackage(pigeon, { ServiceName: 'Pigeon Post' }));
    expect(unknown.status, unknown.text).toBe(200);
    expect(unknown.json.charge).toMatchObject({ status: 'unpriced', reason: "no rate card for service 'Pigeon Post'" });
    expect(await ledger(acme.accountId, air)).toEqual([]);
    expect(await ledger(acme.accountId, pigeon)).toEqual([]);
  });

  it('prices each container package (AirSkip by the container airports), totals them, and honours a header QuoteID', async () => {
    const q = await quote(acme, {
      weight: 2.5,
      weight_unit: 'lb',
      service: 'AirSkip',
      length: 10,
      width: 8,
      height: 4,
      origin: 'EWR',
      destination: 'LAX',
    });
    const numbers = [tracking('PC'), tracking('PC'), tracking('PC')];
    const body = airContainer(`C-${randomUUID().slice(0, 8)}`, numbers, { QuoteID: q.quote_id });
    body.ContainerDetails[2] = { ...body.ContainerDetails[2], PackageWeight: 9 };
    const created = await call('/wf/manifest', { token: acme.tokens.test, body });
    expect(created.status, created.text).toBe(200);
    const amounts = await Promise.all(
      numbers.map(async (n) => (await call(`/packages/${n}`, { method: 'GET', token: acme.tokens.test })).json.charge),
    );
    expect(amounts[0]).toMatchObject({ status: 'priced', amount: q.amount, quote_id: q.quote_id, service: 'AirSkip' });
    expect(amounts[2]).toMatchObject({ status: 'priced', quote_id: null });
    const total = amounts.reduce((sum, c) => sum + Math.round(Number(c.amount) * 100), 0);
    expect(created.json).toMatchObject({ IsSuccess: 'true', PackageCount: 3, Currency: 'USD', PricedCount: 3, UnpricedCount: 0 });
    expect(created.json.ChargeTotal).toBe((total / 100).toFixed(2));
    expect(created.json.warnings).toEqual([
      {
        path: 'QuoteID',
        message: expect.stringMatching(/was for 2\.5 lb, the package weighs 9 lb.*\(1 package\(s\): ContainerDetails\[2\]\)/),
      },
    ]);
    const entries = await ledger(acme.accountId);
    expect(entries.filter((e) => e.manifest_id === created.json.ManifestID && e.kind === 'charge')).toHaveLength(3);
    // The manifest's package list and the package list carry the charge too.
    const page = await call(`/manifests/${created.json.ManifestID}/packages`, { method: 'GET', token: acme.tokens.test });
    expect(page.json.data.map((p: { charge: { amount: string } }) => p.charge.amount)).toEqual(amounts.map((c) => c.amount));
    const list = await call(`/packages?manifest_id=${created.json.ManifestID}`, { method: 'GET', token: acme.tokens.test });
    expect(list.json.data.every((p: { charge: { status: string } }) => p.charge.status === 'priced')).toBe(true);
    // The identical resend answers the same totals.
    const again = await call('/wf/manifest', { token: acme.tokens.test, body });
    expect(again.json).toMatchObject({
      ManifestID: created.json.ManifestID,
      ChargeTotal: created.json.ChargeTotal,
      PricedCount: 3,
    });
  });

  it('marks a container without airports unpriced (AirSkip), and its total is zero', async () => {
    const body = airContainer(`C-${randomUUID().slice(0, 8)}`, [tracking('PU')], { OriginAirport: '', DestinationAirport: '' });
    const created = await call('/wf/manifest', { token: acme.tokens.test, body });
    expect(created.status, created.text).toBe(200);
    expect(created.json).toMatchObject({ ChargeTotal: '0.00', PricedCount: 0, UnpricedCount: 1 });
  });
});

describe('voiding on cancel', () => {
  it('voids an un-invoiced charge (voided_at, never billed) and shows the charge voided', async () => {
    const tn = tracking('PX');
    expect((await send(expressPackage(tn))).status).toBe(200);
    const cancelled = await call(`/packages/${tn}/cancel`, { token: acme.tokens.test });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.json.charge).toMatchObject({ status: 'voided', voided_at: expect.any(String) });
    const entries = await ledger(acme.accountId, tn);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ kind: 'charge', invoice_id: null });
    expect(entries[0]?.voided_at).toBeInstanceOf(Date);
    // Cancelling again is a safe retry: nothing more is written.
    expect((await call(`/packages/${tn}/cancel`, { token: acme.tokens.test })).status).toBe(200);
    expect(await ledger(acme.accountId, tn)).toHaveLength(1);
  });

  it('credits a charge already invoiced with a void row of the negative amount', async () => {
    const tn = tracking('PI');
    const accepted = await send(expressPackage(tn));
    await pgPool().query(`UPDATE billing_entries SET invoice_id = $2 WHERE account_id = $1 AND tracking_number = $3`, [
      acme.accountId,
      `inv_test_${randomUUID()}`,
      tn,
    ]);
    expect((await call(`/packages/${tn}/cancel`, { token: acme.tokens.test })).status).toBe(200);
    const entries = await ledger(acme.accountId, tn);
    expect(entries.map((e) => [e.kind, e.amount])).toEqual([
      ['charge', accepted.json.charge.amount],
      ['void', `-${accepted.json.charge.amount}`],
    ]);
    expect(entries[0]?.voided_at).toBeNull();
  });

  it('voids every priced package of a cancelled container', async () => {
    const numbers = [tracking('PK'), tracking('PK')];
    const created = await call('/wf/manifest', {
      token: acme.tokens.test,
      body: airContainer(`C-${randomUUID().slice(0, 8)}`, numbers),
    });
    expect((await call(`/manifests/${created.json.ManifestID}/cancel`, { token: acme.tokens.test })).status).toBe(200);
    const entries = (await ledger(acme.accountId)).filter((e) => e.manifest_id === created.json.ManifestID);
    expect(entries).toHaveLength(2);
    expect(entries.every((e) => e.voided_at !== null)).toBe(true);
  });
});

describe('quotes', () => {
  it('quote ids are valid for the body they were issued for only: the rate body with another weight gets another id', async () => {
    const a = await quote(acme);
    const b = await quote(acme, { ...EXPRESS_RATE, weight: 4 });
    expect(a.quote_id).not.toBe(b.quote_id);
    expect(a.currency).toBe('USD');
  });
});

describe('the ledger without a foreign key to accounts', () => {
  it("an account's deletion deletes its ledger rows, as the cascade did", async () => {
    const gone = await newAccount('Pricing gone');
    const tn = tracking('PG');
    expect((await send(expressPackage(tn), gone)).status).toBe(200);
    expect(await ledger(gone.accountId, tn)).toHaveLength(1);
    await pgPool().query('DELETE FROM accounts WHERE id = $1', [gone.accountId]);
    expect(await ledger(gone.accountId)).toEqual([]);
  });
});
