import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { call, expectError, newAccount, type TestAccount } from './support/api';
import { rateSampleAirSkip, rateSampleAll, rateSampleExpress } from './support/samples';

let acme: TestAccount;
beforeAll(async () => {
  acme = await newAccount('Acme');
});

const rate = (body: unknown, env: 'test' | 'live' = 'test') => call('/wf/rate', { env, token: acme.tokens[env], body });
/** The quotes without their quote ids, which name the request's account, environment and instant. */
const priced = (rates: Record<string, unknown>[]) => rates.map(({ quote_id: _id, quote_expires_at: _at, ...rest }) => rest);

describe('POST /wf/rate', () => {
  it('quotes every card for the all-services sample, amounts as two-decimal text', async () => {
    const result = await rate(rateSampleAll());
    expect(result.status).toBe(200);
    // 5 lb, 10×8×6 in; 10001→90210 is zone 8 by ZIP distance, JFK→LAX zone 6 by airport distance.
    expect(Object.keys(result.json)).toEqual(['rates']);
    const money = { currency: 'USD', card_version: 1 };
    expect(priced(result.json.rates)).toEqual([
      {
        carrier: 'Carrier',
        service: 'Carrier Ground',
        amount: '28.12',
        zone: 8,
        billable_weight: '5',
        delivery_days: 7,
        ...money,
      },
      {
        carrier: 'Carrier',
        service: 'Carrier Express',
        amount: '71.15',
        zone: 8,
        billable_weight: '5',
        delivery_days: 3,
        ...money,
      },
      { carrier: 'Carrier', service: 'AirSkip', amount: '80.53', zone: 6, billable_weight: '5', delivery_days: 2, ...money },
    ]);
    for (const quote of result.json.rates) {
      expect(quote.quote_id).toMatch(/^qt_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
      expect(Date.parse(quote.quote_expires_at) - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
    }
  });

  it('quotes one service when it is named (the Express sample)', async () => {
    const result = await rate(rateSampleExpress());
    expect(result.status).toBe(200);
    expect(result.json.rates).toHaveLength(1);
    expect(result.json.rates[0]).toMatchObject({
      carrier: 'Carrier',
      service: 'Carrier Express',
      amount: expect.stringMatching(/^\d+\.\d{2}$/),
    });
  });

  it('prices AirSkip by airports alone, with no ZIPs (the AirSkip sample)', async () => {
    const result = await rate(rateSampleAirSkip());
    expect(result.status).toBe(200);
    expect(result.json.rates).toEqual([expect.objectContaining({ service: 'AirSkip', zone: 6 })]);
    // 3 kg = 6.61386 lb; 14×10×8/139 = 8.06 lb dimensional wins, rounded up to 9.
    expect(result.json.rates[0].billable_weight).toBe('9');
  });

  it('leaves out a card that lacks its inputs and says why, when no service is named', async () => {
    const { origin: _o, destination: _d, ...zipsOnly } = rateSampleAll();
    const result = await rate(zipsOnly);
    expect(result.status).toBe(200);
    expect(result.json.rates.map((r: { service: string }) => r.service)).toEqual(['Carrier Ground', 'Carrier Express']);
    expect(result.json.messages).toEqual([{ service: 'AirSkip', message: expect.stringMatching(/origin.*destination/) }]);
  });

  it("rates the contract's Canadian sender (M5X 1A9) by its postal code, in any spelling", async () => {
    const body = { ...rateSampleAll(), from_zip: 'M5X 1A9', to_zip: '90210', origin: '', destination: '' };
    const result = await rate(body);
    expect(result.status).toBe(200);
    expect(result.json.rates.map((r: { service: string }) => r.service)).toEqual(['Carrier Ground', 'Carrier Express']);
    // Toronto → Beverly Hills is a long way, but nearer than New York → Beverly Hills (zone 8).
    expect(result.json.rates[0]).toMatchObject({ zone: expect.any(Number), amount: expect.stringMatching(/^\d+\.\d{2}$/) });
    expect(result.json.rates[0].zone).toBeGreaterThan(1);
    expect(priced((await rate({ ...body, from_zip: 'm5x1a9' })).json.rates)).toEqual(priced(result.json.rates));
    const bad = await rate({ ...body, from_zip: 'M5X 1A' });
    expectError(bad, 422, 'validation_failed');
    expect(bad.json.error.details).toEqual([{ path: 'from_zip', message: expect.stringContaining('Canadian postal code') }]);
  });

  it('is the same in the live environment', async () => {
    const live = await call('/wf/rate', { env: 'live', token: acme.tokens.live, body: rateSampleAll() });
    const test = await rate(rateSampleAll());
    expect(priced(live.json.rates)).toEqual(priced(test.json.rates));
    // Each environment's quote ids are its own.
    expect(live.json.rates[0].quote_id).not.toBe(test.json.rates[0].quote_id);
  });

  it('grows with weight, and converts kg and oz exactly', async () => {
    const amounts = [];
    for (const weight of [1, 10, 40, 90]) {
      amounts.push(Number((await rate({ ...rateSampleExpress(), weight })).json.rates[0].amount));
    }
    expect([...amounts].sort((a, b) => a - b)).toEqual(amounts);
    // Small box, so actual weight decides: 5 kg = 11.0231 lb and 176.37 oz = 11.023 lb bill as 12 lb.
    const small = { ...rateSampleExpress(), lenght: 1, width: 1, height: 1 };
    const inKg = await rate({ ...small, weight: 5, weight_unit: 'kg' });
    const inOz = await rate({ ...small, weight: 176.37, weight_unit: 'oz' });
    const inLb = await rate({ ...small, weight: 11.023, weight_unit: 'lb' });
    const lighter = await rate({ ...small, weight: 11, weight_unit: 'lb' });
    expect([inKg, inOz, inLb].map((r) => r.json.rates[0].billable_weight)).toEqual(['12', '12', '12']);
    expect(inKg.json.rates[0].amount).toBe(inLb.json.rates[0].amount);
    expect(lighter.json.rates[0].billable_weight).toBe('11');
  });

  it('prices from the database: a card edited there is used on the next request', async () => {
    const before = (await rate(rateSampleAll())).json.rates.find((r: { service: string }) => r.service === 'Carrier Ground');
    const card = await db.rateCard.findUniqueOrThrow({ where: { service_version: { service: 'Carrier Ground', version: 1 } } });
    const surcharges = card.surcharges as { code: string; amount: string }[];
    await db.rateCard.update({
      where: { id: card.id },
      data: {
        surcharges: surcharges.map((s) => (s.code === 'residential' ? { ...s, amount: String(Number(s.amount) + 1) } : s)),
      },
    });
    try {
      let after = before;
      for (let i = 0; i < 30 && after.amount === before.amount; i++) {
        await new Promise((r) => setTimeout(r, 100));
        after = (await rate(rateSampleAll())).json.rates.find((r: { service: string }) => r.service === 'Carrier Ground');
      }
      expect(Number(after.amount)).toBeCloseTo(Number(before.amount) + 1, 2);
    } finally {
      await db.rateCard.update({ where: { id: card.id }, data: { surcharges: card.surcharges as object } });
    }
  });

  it.each([
    ['no weight', { weight: undefined }, [{ path: 'weight', message: 'is required' }]],
    ['a bad unit', { weight_unit: 'stone' }, [{ path: 'weight_unit', message: 'must be one of: lb, kg, oz' }]],
    ['three decimals in a dimension', { lenght: 10.125 }, [{ path: 'lenght', message: 'must have at most 2 decimal places' }]],
    ['a negative width', { width: -8 }, [{ path: 'width', message: 'must be greater than 0' }]],
    [
      'an unknown service',
      { service: 'Carrier Overnight' },
      [{ path: 'service', message: 'must be one of: AirSkip, Carrier Express, Carrier Ground' }],
    ],
    ['a malformed ZIP', { to_zip: '9021' }, [{ path: 'to_zip', message: expect.stringContaining('US ZIP') }]],
    ['an unknown airport', { destination: 'ZZZ' }, [{ path: 'destination', message: expect.stringContaining('ZZZ') }]],
  ])('refuses %s with 422 naming the field', async (_label, change, details) => {
    const error = expectError(await rate({ ...rateSampleAll(), ...change }), 422, 'validation_failed');
    expect(error.details).toEqual(details);
  });

  it('lists every failing field at once', async () => {
    const error = expectError(await rate({ weight: 'x', weight_unit: '', width: 0 }), 422, 'validation_failed');
    expect(error.details!.map((d) => d.path).sort()).toEqual(['height', 'length', 'weight', 'weight_unit', 'width']);
  });

  it('refuses Carrier Express without ZIPs, naming both fields', async () => {
    const { from_zip: _f, to_zip: _t, ...body } = rateSampleExpress();
    const error = expectError(await rate(body), 422, 'validation_failed');
    expect(error.details!.map((d) => d.path).sort()).toEqual(['from_zip', 'to_zip']);
  });

  it('refuses a request no card can price', async () => {
    const error = expectError(
      await rate({ ...rateSampleAll(), from_zip: '', to_zip: '', origin: '', destination: '' }),
      422,
      'validation_failed',
    );
    expect(error.message).toBe('No active rate card can price this request; see details.');
    // Each card, in its order, names the location fields it needs.
    const zip = (service: string) => `required for ${service} (priced by ZIP-to-ZIP distance)`;
    const air = 'required for AirSkip (priced by airport-to-airport distance)';
    expect(error.details).toEqual([
      { path: 'from_zip', message: zip('Carrier Ground') },
      { path: 'to_zip', message: zip('Carrier Ground') },
      { path: 'from_zip', message: zip('Carrier Express') },
      { path: 'to_zip', message: zip('Carrier Express') },
      { path: 'origin', message: air },
      { path: 'destination', message: air },
    ]);
  });

  it("refuses a weight above every card's maximum", async () => {
    const error = expectError(await rate({ ...rateSampleExpress(), weight: 151 }), 422, 'validation_failed');
    expect(error.details!.map((d) => d.path)).toContain('weight');
  });
});
