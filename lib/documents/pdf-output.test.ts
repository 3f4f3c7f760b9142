import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CHUNK_PAGES } from './pdf';
import { renderPackageLabelsPdf } from './render-label-pdf';
import type { DocumentLabel } from './types';

// A PDF written out CHUNK_PAGES pages at a time (pdf-output.ts) is one well-formed file: poppler reads it without a
// complaint, every page is there in order, the pages on both sides of each chunk's edge carry their own barcodes.

const dir = mkdtempSync(path.join(tmpdir(), 'pdf-output-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const shipper = {
  company: 'Acme Parcels',
  address1: '1 Main St',
  city: 'Newark',
  state: 'NJ',
  postalCode: '07102',
  country: 'US',
};
const cb = (i: number) => `CB${String(i).padStart(13, '0')}`;
const label = (i: number): DocumentLabel => ({
  manifestId: 'MAN-CHUNKS00000001',
  manifestDate: '2026-11-23',
  carrier: 'Carrier',
  shipper,
  pkg: {
    trackingNumber: `TN${String(i).padStart(8, '0')}`,
    carrierBarcode: cb(i),
    toName: `Recipient ${i}`,
    toCity: 'Springfield',
    toPostalCode: '62701',
    serviceName: 'AirSkip',
    sortCode: 'S1',
  },
});

function barcodesOn(file: string, page: number): string[] {
  const prefix = path.join(dir, `page-${page}`);
  execFileSync('pdftoppm', ['-r', '200', '-gray', '-png', '-f', String(page), '-l', String(page), '-singlefile', file, prefix]);
  const read = spawnSync('zbarimg', ['-q', '--raw', '-Sdisable', '-Scode128.enable', `${prefix}.png`]);
  return read.stdout.toString().split('\n').filter(Boolean);
}

describe('a PDF written out in chunks', () => {
  it(`${2 * CHUNK_PAGES + 7} labels: every page, in order, the file well-formed; the text layer of the last page is its own`, async () => {
    const count = 2 * CHUNK_PAGES + 7;
    const pdf = await renderPackageLabelsPdf(
      Array.from({ length: count }, (_, i) => label(i)),
      'Chunks',
    );
    const file = path.join(dir, 'chunks.pdf');
    writeFileSync(file, pdf);
    const info = spawnSync('pdfinfo', [file]);
    expect(info.stderr.toString()).toBe(''); // no "Syntax Error" nor a rebuilt cross-reference table
    expect(info.stdout.toString()).toMatch(new RegExp(`Pages:\\s+${count}\\n`));
    for (const page of [1, CHUNK_PAGES, CHUNK_PAGES + 1, 2 * CHUNK_PAGES + 1, count])
      expect(barcodesOn(file, page), `page ${page}`).toEqual([cb(page - 1)]);
    const last = spawnSync('pdftotext', ['-f', String(count), '-l', String(count), file, '-']);
    expect(last.stderr.toString()).toBe('');
    expect(last.stdout.toString()).toContain(`Recipient ${count - 1}`);
  });
});
