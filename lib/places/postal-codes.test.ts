import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { postalCodesData } from '../../scripts/postal-codes.mjs';
import { allPostalPlaces, lookupPostalCode, readPostalPlaces } from './postal-codes';

const { codes } = createRequire(import.meta.url)('zipcodes') as { codes: Record<string, unknown> };

describe('postal codes', () => {
  it('answers exactly what the zipcodes package holds, for every code', () => {
    const places = [...allPostalPlaces()];
    expect(places).toHaveLength(Object.keys(codes).length);
    for (const place of places) expect(place).toEqual(codes[place.zip]);
    expect(lookupPostalCode('10001')).toMatchObject({ city: 'New York', state: 'NY', country: 'US' });
    expect(lookupPostalCode('T0A')).toMatchObject({ state: 'Alberta', country: 'Canada' });
    expect(lookupPostalCode('00000')).toBeUndefined();
    expect(lookupPostalCode('constructor')).toBeUndefined();
  });

  it('reads the copy npm install wrote, which is what scripts/postal-codes.mjs derives from the installed package', () => {
    const copy: unknown = JSON.parse(readFileSync(new URL('../generated/postal-codes.json', import.meta.url), 'utf8'));
    expect(copy).toEqual(postalCodesData());
  });

  it('reads the package itself when the copy is missing or of another version', () => {
    const fromPackage = readPostalPlaces('/nonexistent/postal-codes.json');
    expect(fromPackage.size).toBe(Object.keys(codes).length);
    expect(fromPackage.get('90210')).toEqual(codes['90210']);
    const dir = mkdtempSync(path.join(tmpdir(), 'postal-codes-'));
    try {
      const stale = path.join(dir, 'postal-codes.json');
      writeFileSync(stale, JSON.stringify({ version: '0.0.1', rows: [['90210', 0, 0, 'Nowhere', 'ZZ', 'US']] }));
      expect(readPostalPlaces(stale).get('90210')).toEqual(codes['90210']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
