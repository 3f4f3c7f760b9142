import { describe, it, expect } from 'vitest';
import { airport, canadianPostalCentroid, greatCircleMiles, postalCentroid, searchAirports, zipCentroid } from './locations';

describe('zipCentroid', () => {
  it('finds a US ZIP and uses the first 5 digits of a ZIP+4', () => {
    expect(zipCentroid('10001')).toEqual({ latitude: 40.7484, longitude: -73.9967 });
    expect(zipCentroid('10001-1234')).toEqual(zipCentroid('10001'));
  });
  it('returns undefined for a ZIP not in the dataset or a non-US code', () => {
    expect(zipCentroid('00000')).toBeUndefined();
    expect(zipCentroid('K1A 0B1')).toBeUndefined(); // Canadian FSAs are in the package but not valid here
  });
});

describe('canadianPostalCentroid', () => {
  it("locates the contract's sample sender (M5X 1A9) at its FSA, written any of the usual ways", () => {
    const toronto = { latitude: 43.6492, longitude: -79.3823 };
    expect(canadianPostalCentroid('M5X 1A9')).toEqual(toronto);
    expect(canadianPostalCentroid('m5x1a9')).toEqual(toronto);
    expect(canadianPostalCentroid(' M5X-1A9 ')).toEqual(toronto);
    expect(canadianPostalCentroid('K1A 0B1')).toMatchObject({ latitude: expect.closeTo(45.4, 0) });
  });
  it('returns undefined for what is not a postal code, or an FSA the dataset lacks', () => {
    for (const code of ['M5X', 'M5X 1A', 'D5X 1A9', 'W5X 1A9', 'M5X 1A99', '10001', '', 'X0Y 1A1'])
      expect(canadianPostalCentroid(code), code).toBeUndefined();
  });
});

describe('postalCentroid', () => {
  it('reads a US ZIP as a ZIP and a Canadian postal code as one, nothing else', () => {
    expect(postalCentroid('10001')).toEqual(zipCentroid('10001'));
    expect(postalCentroid('M5X 1A9')).toEqual(canadianPostalCentroid('M5X 1A9'));
    expect(postalCentroid('M5X')).toBeUndefined();
    expect(postalCentroid('00000')).toBeUndefined();
  });
});

describe('airport', () => {
  it('finds an IATA code, case-insensitively', () => {
    expect(airport('JFK')).toMatchObject({ iata: 'JFK', city: 'New York', name: 'John F Kennedy International Airport' });
    expect(airport('lax')?.iata).toBe('LAX');
  });
  it('returns undefined for an unknown code', () => {
    expect(airport('QQQ')).toBeUndefined();
    expect(airport('')).toBeUndefined();
  });
});

describe('greatCircleMiles', () => {
  it('is zero for the same point and symmetric', () => {
    const jfk = airport('JFK')!;
    const lax = airport('LAX')!;
    expect(greatCircleMiles(jfk, jfk)).toBe(0);
    expect(greatCircleMiles(jfk, lax)).toBeCloseTo(greatCircleMiles(lax, jfk), 9);
  });
  it('matches known distances (haversine, R = 3958.8 mi)', () => {
    expect(greatCircleMiles(airport('JFK')!, airport('LAX')!)).toBeCloseTo(2469.5, 0);
    // One degree of latitude along a meridian = R × π / 180.
    expect(greatCircleMiles({ latitude: 0, longitude: 0 }, { latitude: 1, longitude: 0 })).toBeCloseTo(
      (3958.8 * Math.PI) / 180,
      9,
    );
  });
});

describe('searchAirports', () => {
  it('ranks the exact IATA code first', () => {
    expect(searchAirports('lax', 5)[0]?.iata).toBe('LAX');
    expect(searchAirports('Jfk', 1).map((a) => a.iata)).toEqual(['JFK']);
  });
  it('matches city and name, case-insensitively, within the limit', () => {
    const ny = searchAirports('new york', 10).map((a) => a.iata);
    expect(ny).toContain('JFK');
    expect(ny).toContain('LGA');
    expect(searchAirports('heathrow', 3).map((a) => a.iata)).toContain('LHR');
    expect(searchAirports('a', 7)).toHaveLength(7);
  });
  it("ranks a city's large airports before its small and closed ones (LHR was 4th, CGX before ORD)", () => {
    const london = searchAirports('London', 8).map((a) => a.iata);
    expect(london.slice(0, 4).sort()).toEqual(['LGW', 'LHR', 'LTN', 'STN']);
    expect(london.indexOf('LCY')).toBeGreaterThan(3);
    const chicago = searchAirports('chicago', 8).map((a) => a.iata);
    expect(chicago.slice(0, 2).sort()).toEqual(['MDW', 'ORD']);
    expect(chicago.indexOf('CGX')).toBeGreaterThan(1);
    expect(searchAirports('paris', 2).map((a) => a.iata)).toEqual(['CDG', 'ORY']);
    expect(
      searchAirports('tokyo', 2)
        .map((a) => a.iata)
        .sort(),
    ).toEqual(['HND', 'NRT']);
    // An exact code still wins over any size: CGX asked for by its code comes first.
    expect(searchAirports('cgx', 3)[0]?.iata).toBe('CGX');
  });
  it('returns nothing for a blank query or zero limit', () => {
    expect(searchAirports('  ', 10)).toEqual([]);
    expect(searchAirports('lax', 0)).toEqual([]);
  });
});
