import { describe, expect, it } from 'vitest';
import { parseRateCard } from '@/lib/rating/parse-rate-card';
import { addBusinessDays, estimateDelivery } from './estimate-delivery';
import { publicPlace } from './places';
import { plausiblePostalCode, samePostalCode } from './postal-code';

// The public tracking page's pure parts: the postal code a recipient types against the one the shipper sent, the
// city-level places of scans, and the estimated delivery day from a card's transit days.

const GROUND = parseRateCard({
  service: 'Carrier Ground',
  locationKind: 'zip',
  dimDivisor: '100',
  weightStepLb: '1',
  maxWeightLb: '10',
  zones: [
    { zone: 1, maxMiles: 100 },
    { zone: 2, maxMiles: 1000 },
    { zone: 3, maxMiles: null },
  ],
  weightBreaks: [{ maxLb: '10', prices: ['5.00', '6.00', '7.00'] }],
  surcharges: [],
  deliveryDays: [1, 3, 5],
  sortOrder: 1,
});
const AIR = parseRateCard({
  service: 'AirSkip',
  locationKind: 'airport',
  dimDivisor: '100',
  weightStepLb: '1',
  maxWeightLb: '50',
  zones: [
    { zone: 1, maxMiles: 1000 },
    { zone: 2, maxMiles: 3000 },
  ],
  weightBreaks: [{ maxLb: '50', prices: ['40.00', '60.00'] }],
  surcharges: [],
  deliveryDays: [1, 2],
  sortOrder: 2,
});

// Friday 4 December 2026.
const FRIDAY = new Date('2026-12-04T15:00:00Z');
const route = { fromTerminal: null, toTerminal: null, cards: [GROUND, AIR], manifestDate: FRIDAY };

describe('samePostalCode', () => {
  it.each([
    ['90210', '90210', true],
    ['90210-1234', '90210', true],
    ['90210', '90210 1234', true],
    ['90210', '90211', false],
    ['M5V 2T6', 'm5v2t6', true],
    ['M5V 2T6', 'M5V-2T6', true],
    ['M5V 2T6', 'M5V 2T7', false],
    ['M5V 2T6', 'M5V', false],
    [null, '90210', false],
    ['90210', '', false],
    ['90210', '   ', false],
  ])('%s against %s: %s', (stored, typed, same) => {
    expect(samePostalCode(stored, typed)).toBe(same);
  });

  it('takes only what a postal code can be', () => {
    expect(plausiblePostalCode('90210')).toBe(true);
    expect(plausiblePostalCode('M5V 2T6')).toBe(true);
    expect(plausiblePostalCode("90210' OR 1=1 --")).toBe(false);
    expect(plausiblePostalCode('<b>90210</b>')).toBe(false);
    expect(plausiblePostalCode('9'.repeat(17))).toBe(false);
    expect(plausiblePostalCode('--')).toBe(false);
  });
});

describe('publicPlace', () => {
  it('names the city of an airport, a US ZIP and a Canadian postal code, never the code of a street', () => {
    expect(publicPlace('JFK')).toBe('New York, United States');
    expect(publicPlace('90210')).toBe('Beverly Hills, CA');
    expect(publicPlace('90210-1234')).toBe('Beverly Hills, CA');
    expect(publicPlace('M5V 2T6')).toBe('Downtown Toronto, Ontario');
    expect(publicPlace(null)).toBeNull();
    expect(publicPlace('00000')).toBeNull();
    expect(publicPlace('<script>')).toBeNull();
  });
});

describe('estimateDelivery', () => {
  it('counts the zone’s transit days in business days from the ManifestDate', () => {
    expect(addBusinessDays(FRIDAY, 1).toISOString().slice(0, 10)).toBe('2026-12-07');
    expect(addBusinessDays(FRIDAY, 5).toISOString().slice(0, 10)).toBe('2026-12-11');
    // 10001 → 10002: zone 1, one day; → 60601: zone 2, three days; → 90210: zone 3, five days.
    const ground = { ...route, service: 'Carrier Ground', fromPostalCode: '10001' };
    expect(estimateDelivery({ ...ground, toPostalCode: '10002' })).toBe('2026-12-07');
    expect(estimateDelivery({ ...ground, toPostalCode: '60601' })).toBe('2026-12-09');
    expect(estimateDelivery({ ...ground, toPostalCode: '90210-1234' })).toBe('2026-12-11');
  });

  it('uses the airports when both terminals are known ones, else the ZIPs', () => {
    const air = { ...route, service: 'AirSkip', fromPostalCode: '10001', toPostalCode: '90210' };
    // JFK → ORD: ~740 mi, zone 1.
    expect(estimateDelivery({ ...air, fromTerminal: 'JFK', toTerminal: 'ORD' })).toBe('2026-12-07');
    // 10001 → 90210: ~2,450 mi, zone 2.
    expect(estimateDelivery({ ...air, fromTerminal: 'JFK', toTerminal: 'QQQ' })).toBe('2026-12-08');
  });

  it('has no estimate without a known service, a route, or a zone that reaches', () => {
    const base = { ...route, fromPostalCode: '10001', toPostalCode: '90210' };
    expect(estimateDelivery({ ...base, service: 'Carrier Express' })).toBeNull();
    expect(estimateDelivery({ ...base, service: null })).toBeNull();
    expect(estimateDelivery({ ...base, service: 'Carrier Ground', toPostalCode: 'M5V 2T6' })).toBeNull();
    expect(estimateDelivery({ ...base, service: 'Carrier Ground', fromPostalCode: null })).toBeNull();
    // Honolulu is beyond AirSkip's farthest zone from New York.
    expect(estimateDelivery({ ...base, service: 'AirSkip', toPostalCode: '96813' })).toBeNull();
  });
});
