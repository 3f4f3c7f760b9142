// Writes lib/generated/postal-codes.json at install (package.json's postinstall): the `zipcodes` dataset (US ZIPs and
// Canadian forward sortation areas) as rows of JSON. The package ships it as 5 MB of JavaScript object literal, which
// V8 takes about 0.6 s to parse in every process that loads it, most of a server's start; JSON.parse reads the same
// rows in under a tenth of that. lib/places/postal-codes.ts reads this file, and the package itself when the file is
// missing or was written from another version of it.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export const POSTAL_CODES_FILE = new URL('../lib/generated/postal-codes.json', import.meta.url);

/** The dataset's version (its package's) and every entry as [code, latitude, longitude, city, state, country]. */
export function postalCodesData() {
  const { version } = JSON.parse(readFileSync(require.resolve('zipcodes/package.json'), 'utf8'));
  const { codes } = require('zipcodes');
  const rows = Object.entries(codes).map(([code, e]) => {
    if (e.zip !== code) throw new Error(`zipcodes: entry ${code} names itself ${e.zip}`);
    return [code, e.latitude, e.longitude, e.city, e.state, e.country];
  });
  return { version, rows };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const data = postalCodesData();
  mkdirSync(new URL('.', POSTAL_CODES_FILE), { recursive: true });
  const temporary = new URL(`postal-codes.json.${process.pid}.tmp`, POSTAL_CODES_FILE);
  writeFileSync(temporary, JSON.stringify(data));
  renameSync(temporary, POSTAL_CODES_FILE);
  console.log(`postal-codes: ${data.rows.length} codes into lib/generated/postal-codes.json`);
}
