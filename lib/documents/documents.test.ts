import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  renderContainerTagPdf,
  renderContainerTagZpl,
  renderHandoverManifest,
  renderPackageLabelPdf,
  renderPackageLabelPng,
  renderPackageLabelsPdf,
  renderPackageLabelsZpl,
  renderPackageLabelZpl,
  zplField,
} from './index';
import { subsetBModules } from './render-zpl';
import { packageLabelSvg } from './render-label-png';
import { newCanvas } from './pdf';
import { isSimpleCodePoint, layoutLeftToRight, PLAIN } from './pdf-font';
import { cleanText, fitText, formatAwb, formatNumber, shrinkToFit } from './text';
import type { DocumentLabel, DocumentManifest, DocumentPackage } from './types';
import { PRESENTATION_FORMS } from './visual-order';
import { luhnCheckDigit } from '@/lib/schemas/carrier-barcode';
import { manifestLabels } from './manifest-source';

// Verified as a hub would: every PDF rendered to PNG by poppler's pdftoppm, every barcode read back
// by zbarimg, text by pdftotext. Needs poppler-utils and zbar-tools (.ci/run installs them).

const dir = mkdtempSync(path.join(tmpdir(), 'documents-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let counter = 0;

function save(bytes: Uint8Array | string, ext: string): string {
  counter += 1;
  const file = path.join(dir, `doc-${counter}.${ext}`);
  writeFileSync(file, bytes);
  return file;
}

/** Every Code 128 symbol zbarimg finds on the given pages of a PDF (rendered at 300 dpi), in page order. */
function decodePdf(pdf: Uint8Array, pages?: { first: number; last: number }): string[] {
  const file = save(pdf, 'pdf');
  const prefix = file.replace(/\.pdf$/, '');
  const range = pages ? ['-f', String(pages.first), '-l', String(pages.last)] : [];
  execFileSync('pdftoppm', ['-r', '300', '-gray', '-png', ...range, file, prefix]);
  const images = execFileSync('sh', ['-c', `ls ${prefix}-*.png`])
    .toString()
    .trim()
    .split('\n');
  return images.flatMap(decodeImage);
}

function decodeImage(file: string): string[] {
  try {
    const out = execFileSync('zbarimg', ['-q', '--raw', '-Sdisable', '-Scode128.enable', file], {
      stdio: ['ignore', 'pipe', 'ignore'],
    }).toString();
    return out.split('\n').filter(Boolean);
  } catch {
    return []; // zbarimg exits 4 when it finds nothing
  }
}

function pdfText(pdf: Uint8Array, pages?: { first: number; last: number }): string {
  const range = pages ? ['-f', String(pages.first), '-l', String(pages.last)] : [];
  return execFileSync('pdftotext', ['-layout', ...range, save(pdf, 'pdf'), '-']).toString();
}

/**
 * pdftotext without -layout, bidi embedding marks removed: poppler turns the drawn (visual) order back into
 * reading order line by line, so a line drawn the right way round reads back as it was stored. Where a
 * right-to-left line ends in a number, the drawn line does not say its direction, and poppler takes the
 * block's: the number comes back before or after the words (readsAs accepts both), never with its digits turned.
 */
function readingText(pdf: Uint8Array): string {
  return execFileSync('pdftotext', [save(pdf, 'pdf'), '-'])
    .toString()
    .replace(/[\u202a-\u202e]/g, '');
}

const cps = (...points: number[]) => String.fromCodePoint(...points);

/** A line of `text` (compared after NFKC: Arabic presentation forms as their letters) reading `words` then `number`, or the number first. */
function readsAs(text: string, words: string, number?: string): boolean {
  const lines = text.split('\n').map((line) => line.normalize('NFKC').trim());
  return number === undefined
    ? lines.includes(words)
    : lines.includes(`${words} ${number}`) || lines.includes(`${number} ${words}`);
}

function pageCount(pdf: Uint8Array): number {
  const info = execFileSync('pdfinfo', [save(pdf, 'pdf')]).toString();
  return Number(/Pages:\s+(\d+)/.exec(info)?.[1]);
}

const shipper = {
  company: 'Acme Parcels',
  name: 'Jane Dock',
  address1: '1 Main St',
  city: 'Newark',
  state: 'NJ',
  postalCode: '07102',
  country: 'US',
};

/** A carrier barcode as the database issues them: CB, 12 digits, the Luhn check digit. */
function cb(i: number): string {
  const digits = String(i).padStart(12, '0');
  return `CB${digits}${luhnCheckDigit(digits)}`;
}

function pkg(i: number, over: Partial<DocumentPackage> = {}): DocumentPackage {
  return {
    trackingNumber: `1Z${String(i).padStart(8, '0')}`,
    carrierBarcode: cb(i),
    weight: 2.5,
    weightUnit: 'lb',
    length: 10,
    width: 8,
    height: 6,
    toPostalCode: '90210',
    toCity: 'Beverly Hills',
    toName: 'Ann Lee',
    toAddress1: '9400 Wilshire Blvd',
    serviceName: 'AirSkip',
    sortCode: 'LAX-7',
    ...over,
  };
}

function manifest(over: Partial<DocumentManifest> = {}): DocumentManifest {
  return {
    kind: 'container',
    manifestId: 'MAN-01HX7Q2ABC',
    state: 'open',
    manifestDate: '2026-11-23',
    serviceName: 'AirSkip',
    carrier: 'Carrier',
    shipper,
    fromTerminal: 'EWR',
    toTerminal: 'LAX',
    awb: '00012345675',
    containerId: 'ULD-0001',
    containerDimensions: { length: 48, width: 40, height: 36 },
    shipmentDescription: 'Apparel',
    packages: [pkg(1), pkg(2, { weight: 1, weightUnit: 'kg' })],
    generatedAt: new Date('2026-11-23T10:00:00Z'),
    ...over,
  };
}

function label(over: Partial<DocumentPackage> = {}, extra: Partial<DocumentLabel> = {}): DocumentLabel {
  return { manifestId: 'MAN-01HX7Q2ABC', manifestDate: '2026-11-23', carrier: 'Carrier', shipper, pkg: pkg(7, over), ...extra };
}

const HOSTILE = 'שלום עולם مرحبا 🚚📦 Ünïcödé \u0000\u0007 \ud800 ' + 'Very long name '.repeat(200);

describe('handover manifest', { timeout: 60_000 }, () => {
  it('carries ManifestID and AWB as Code 128 (AWB as 123-45678901), both paper sizes', async () => {
    for (const paper of ['letter', 'a4'] as const) {
      const pdf = await renderHandoverManifest(manifest(), { paper });
      expect(decodePdf(pdf).sort()).toEqual(['00012345675', 'MAN-01HX7Q2ABC']);
      const text = pdfText(pdf);
      expect(text).toContain('ManifestID MAN-01HX7Q2ABC');
      expect(text).toContain('AWB 000-12345675');
      expect(text).toMatch(/1Z00000001\s+2\.5 lb\s+10 × 8 × 6\s+90210\s+Beverly Hills/);
      // 2.5 lb + 1 kg = 4.7046 lb = 2.134 kg; billable: 10×8×6/139 = 3.45 lb each → 6.91
      expect(text).toContain('Total weight: 4.7 lb (2.13 kg)');
      expect(text).toContain('Billable weight: 6.91 lb');
      expect(text).toContain('Packages: 2');
      expect(text).toContain('Driver signature');
      expect(text).toContain('Page 1 of 1');
    }
  });

  it('totals the priced packages’ charges exactly and counts the ones not priced', async () => {
    const [first, second] = manifest().packages;
    const packages = [
      { ...first!, charge: { status: 'priced', amount: '12.10', currency: 'USD' } },
      { ...second!, charge: { status: 'priced', amount: '0.20', currency: 'USD' } },
      { ...first!, trackingNumber: '1Z00000099', charge: { status: 'unpriced' } },
      { ...first!, trackingNumber: '1Z00000098', charge: { status: 'voided', amount: '5.00', currency: 'USD' } },
    ];
    const text = pdfText(await renderHandoverManifest(manifest({ packages })));
    expect(text).toContain('Charges: 12.30 USD (2 priced, 2 not priced)');
    expect(pdfText(await renderHandoverManifest(manifest({ packages: packages.slice(0, 2) })))).toContain('Charges: 12.30 USD');
  });

  it('the driver block shows the manifest’s pickups (window in UTC, address, packages, instructions), never over the signatures', async () => {
    const pickups = [
      {
        id: 'pu_first',
        status: 'scheduled' as const,
        readyAt: '2026-12-01T18:00:00.000Z',
        closeAt: '2026-12-01T22:00:00.000Z',
        address: 'Acme Parcels, 1 Industrial Way, Newark, NJ 07114, US',
        packageCount: 2,
        instructions: 'Dock 4,\nring twice',
      },
      {
        id: 'pu_second',
        status: 'completed' as const,
        readyAt: '2026-12-01T23:00:00.000Z',
        closeAt: '2026-12-02T01:00:00.000Z',
        address: 'Acme Parcels, 2 Side St, Newark, NJ 07114',
        packageCount: 1,
      },
    ];
    const text = pdfText(await renderHandoverManifest(manifest({ pickups })));
    expect(text).toContain('PICKUPS');
    expect(text).toContain('Scheduled Tue, 1 Dec 2026, 18:00–22:00 UTC');
    expect(text).toContain('2 package(s) · pu_first');
    expect(text).toContain('Acme Parcels, 1 Industrial Way, Newark, NJ 07114, US · Dock 4, ring twice');
    // A window across midnight names both dates, and its id is still whole.
    expect(text).toContain('Collected Tue, 1 Dec 2026 23:00 – Wed, 2 Dec 2026 01:00 UTC');
    expect(text).toContain('1 package(s) · pu_second');
    expect(text.indexOf('PICKUPS')).toBeLessThan(text.indexOf('Driver signature'));
    expect(pdfText(await renderHandoverManifest(manifest()))).not.toContain('PICKUP');
    // A page whose rows leave room for the closing block without pickups but not with them: the closing moves on.
    for (let count = 1; count < 60; count++) {
      const packages = Array.from({ length: count }, (_, i) => pkg(i));
      const plain = pageCount(await renderHandoverManifest(manifest({ packages })));
      const withPickups = await renderHandoverManifest(
        manifest({ packages, pickups: [...pickups, { ...pickups[0]!, id: 'pu_third' }] }),
      );
      const pages = pdfText(withPickups)
        .split('\f')
        .filter((p) => p.trim() !== '');
      const last = pages.at(-1)!;
      expect(last).toContain('pu_third');
      expect(last).toContain('Shipper signature');
      if (pages.length > plain) break;
    }
  }, 60_000);

  it('paginates 5,000 packages: "Page n of N" and the ManifestID on every page, totals on the last', async () => {
    const packages = Array.from({ length: 5000 }, (_, i) => pkg(i));
    const pdf = await renderHandoverManifest(manifest({ packages }));
    const pages = pageCount(pdf);
    expect(pages).toBeGreaterThan(80);
    const all = pdfText(pdf);
    const perPage = all.split('\f').filter((p) => p.trim() !== '');
    expect(perPage).toHaveLength(pages);
    perPage.forEach((page, i) => {
      expect(page).toContain(`Page ${i + 1} of ${pages}`);
      expect(page).toContain('MAN-01HX7Q2ABC');
    });
    for (const n of [0, 1234, 4999]) expect(all).toContain(`1Z${String(n).padStart(8, '0')}`);
    // every package listed once, in order
    const listed = [...all.matchAll(/\b1Z\d{8}\b/g)].map((m) => m[0]);
    expect(listed).toEqual(packages.map((p) => p.trackingNumber));
    expect(perPage.at(-1)).toContain('Packages: 5,000');
    expect(perPage.at(-1)).toContain('Total weight: 12,500 lb (5,669.9 kg)');
    expect(decodePdf(pdf, { first: 1, last: 1 }).sort()).toEqual(['00012345675', 'MAN-01HX7Q2ABC']);
  }, 120_000);

  it('says CANCELLED across a cancelled manifest and that an empty one has no packages', async () => {
    const cancelled = pdfText(await renderHandoverManifest(manifest({ state: 'cancelled' })));
    expect(cancelled).toContain('CANCELLED');
    const empty = await renderHandoverManifest(manifest({ packages: [], kind: 'daily', awb: undefined, containerId: undefined }));
    const text = pdfText(empty);
    expect(text).toContain('This manifest has no packages.');
    expect(text).toContain('Packages: 0');
    expect(decodePdf(empty)).toEqual(['MAN-01HX7Q2ABC']);
  });

  it('survives extreme text: long names, RTL, emoji, NUL, lone surrogates, without breaking layout or barcodes', async () => {
    const pdf = await renderHandoverManifest(
      manifest({
        shipper: { company: HOSTILE, name: HOSTILE, city: HOSTILE },
        shipmentDescription: HOSTILE,
        packages: [pkg(1, { toCity: HOSTILE }), pkg(2)],
      }),
    );
    expect(pageCount(pdf)).toBe(1);
    expect(decodePdf(pdf).sort()).toEqual(['00012345675', 'MAN-01HX7Q2ABC']);
    const text = pdfText(pdf);
    expect(text).toContain('…');
    expect(text).toContain('1Z00000002');
    // The right-to-left start of the hostile name reads back in order, Arabic joined (drawn in presentation forms).
    const reading = readingText(pdf);
    expect(reading).toContain('שלום עולם');
    expect(reading).toContain(cps(0xfee3, 0xfeae, 0xfea3, 0xfe92, 0xfe8e)); // مرحبا: initial, final, initial, medial, final
    expect(reading.normalize('NFKC')).toContain('שלום עולם مرحبا');
  });

  it('Hebrew and Arabic shipper, cities and description read back in order, barcodes unchanged', async () => {
    const pdf = await renderHandoverManifest(
      manifest({
        shipper: {
          company: 'חברת המשלוחים בע״מ',
          name: 'دار الشحن',
          address1: 'רחוב הרצל 12',
          city: 'תל אביב',
          postalCode: '61000',
          country: 'IL',
        },
        shipmentDescription: 'ספרים وكتب',
        packages: [pkg(1, { toCity: 'תל אביב' }), pkg(2, { toCity: 'الرياض' })],
      }),
    );
    expect(decodePdf(pdf).sort()).toEqual(['00012345675', 'MAN-01HX7Q2ABC']);
    const reading = readingText(pdf);
    expect(reading).toContain(`ספרים ${cps(0xfeed, 0xfedb, 0xfe98, 0xfe90)}`); // وكتب: waw isolated, kaf initial, teh medial, beh final
    for (const [words, number] of [['חברת המשלוחים בע״מ'], ['دار الشحن'], ['רחוב הרצל', '12'], ['ספרים وكتب'], ['الرياض']]) {
      expect(readsAs(reading, words ?? '', number), `${words} ${number ?? ''}`).toBe(true);
    }
    expect(pdfText(pdf)).toMatch(/1Z00000001\s+2\.5 lb\s+10 × 8 × 6\s+90210/);
  });
});

describe('container tag', { timeout: 60_000 }, () => {
  it('PDF: ContainerID and AWB barcodes, pieces, weight, terminal, ManifestID, date', async () => {
    const pdf = await renderContainerTagPdf(manifest());
    expect(decodePdf(pdf).sort()).toEqual(['00012345675', 'ULD-0001']);
    const text = pdfText(pdf);
    for (const s of ['LAX', 'EWR', 'AIRSKIP', 'Manifest MAN-01HX7Q2ABC', '2026-11-23', '4.7 lb']) expect(text).toContain(s);
    expect(text).toMatch(/PIECES[\s\S]*\b2\b/);
  });

  it('ZPL: one label, sized 4×6 at 203 dpi, Code 128 fields carrying ContainerID and AWB', () => {
    const labels = parseZpl(renderContainerTagZpl(manifest()));
    expect(labels).toHaveLength(1);
    const [tag] = labels;
    expect(tag?.commands.slice(0, 3)).toEqual([
      ['CI', '28'],
      ['PW', '812'],
      ['LL', '1218'],
    ]);
    expect(tag?.barcodes).toEqual(['ULD-0001', '00012345675']);
    expect(tag?.texts).toEqual(
      expect.arrayContaining(['LAX', 'EWR', 'ULD-0001', '000-12345675', 'Manifest MAN-01HX7Q2ABC', 'Manifest date 2026-11-23']),
    );
  });
});

describe('a daily manifest from several senders', { timeout: 60_000 }, () => {
  it("the handover names every sender, and each label its own package's", async () => {
    const sender = (company: string, city: string) => ({
      company,
      address1: `1 ${company} Way`,
      city,
      state: 'ON',
      postalCode: 'M5V 2T6',
      country: 'CA',
    });
    const senders = [sender('Maple Goods', 'Toronto'), sender('Birch Books', 'Ottawa'), sender('Cedar Crafts', 'Kingston')];
    const daily = manifest({
      kind: 'daily',
      awb: undefined,
      containerId: undefined,
      shipper: senders[0],
      senders,
      packages: senders.map((from, i) => pkg(i + 1, { from })),
    });
    const text = pdfText(await renderHandoverManifest(daily));
    expect(text).toContain('3 senders:');
    for (const s of senders) expect(text).toContain(`${s.company} — ${s.city}, ON M5V 2T6`);
    const labels = manifestLabels(daily);
    expect(labels.map((l) => l.shipper.company)).toEqual(senders.map((s) => s.company));
    expect(pdfText(await renderPackageLabelPdf(labels[1]!))).toContain('Birch Books');
    // Past five, four are named and the rest counted.
    const many = Array.from({ length: 9 }, (_, i) => sender(`Shop ${i}`, 'Toronto'));
    const crowded = pdfText(
      await renderHandoverManifest(manifest({ kind: 'daily', awb: undefined, containerId: undefined, senders: many })),
    );
    expect(crowded).toContain('9 senders:');
    expect(crowded).toContain('Shop 3');
    expect(crowded).not.toContain('Shop 4 —');
    expect(crowded).toContain('and 5 more');
  });
});

describe('package label', { timeout: 60_000 }, () => {
  it('PDF: the carrier barcode as Code 128 with its text, the tracking number beside it, postal code, sort code, service, recipient, ManifestID', async () => {
    const pdf = await renderPackageLabelPdf(label());
    expect(decodePdf(pdf)).toEqual([cb(7)]);
    const text = pdfText(pdf);
    for (const s of [
      cb(7),
      'Tracking 1Z00000007',
      '90210',
      'LAX-7',
      'AIRSKIP',
      'Ann Lee',
      '9400 Wilshire Blvd',
      'Manifest MAN-01HX7Q2ABC',
    ])
      expect(text).toContain(s);
  });

  it('PDF: a Hebrew and an Arabic recipient read back in order, Arabic joined, barcodes unchanged', async () => {
    const hebrew = label({ toName: 'דוד כהן', toAddress1: 'רחוב הרצל 12', toCity: 'תל אביב', toPostalCode: '61000' });
    // U+0671 (alef wasla) has no glyph in DejaVu Sans: drawn as .notdef, the document still whole
    const arabic = label({
      trackingNumber: 'PKG-AR',
      carrierBarcode: cb(8),
      toName: 'محمد عبد الله',
      toAddress1: 'شارع الملك فهد 123',
      toAddress2: 'السلام ٱ',
      toCity: 'الرياض',
      toPostalCode: '12211',
    });
    const pdf = await renderPackageLabelsPdf([hebrew, arabic], 'Labels MAN-01HX7Q2ABC');
    expect(decodePdf(pdf)).toEqual([cb(7), cb(8)]);
    const [first = '', second = ''] = readingText(pdf).split('\f');
    for (const [words, number] of [['דוד כהן'], ['רחוב הרצל', '12'], ['תל אביב', '61000']]) {
      expect(readsAs(first, words ?? '', number), `${words} ${number ?? ''}`).toBe(true);
    }
    expect(second.split('\n')).toContain(
      `${cps(0xfee3, 0xfea4, 0xfee4, 0xfeaa)} ${cps(0xfecb, 0xfe92, 0xfeaa)} ${cps(0xfe8d, 0xfedf, 0xfee0, 0xfeea)}`,
    ); // محمد عبد الله
    expect(second).toContain(cps(0xfe8d, 0xfedf, 0xfeb4, 0xfefc, 0xfee1)); // السلام: lam-alef final
    for (const [words, number] of [['محمد عبد الله'], ['شارع الملك فهد', '123'], ['الرياض', '12211']]) {
      expect(readsAs(second, words ?? '', number), `${words} ${number ?? ''}`).toBe(true);
    }
  });

  it('a long postal code or sort code is drawn smaller, not cut; past the smallest size it is shortened', async () => {
    const long = label({ toPostalCode: '6100000', sortCode: 'TLV-NORTH' });
    const text = pdfText(await renderPackageLabelPdf(long));
    expect(text).toContain('6100000');
    expect(text).toContain('TLV-NORTH');
    expect(parseZpl(renderPackageLabelZpl(long))[0]?.texts).toEqual(expect.arrayContaining(['6100000', 'TLV-NORTH']));
    const svgSize = (svg: string, value: string) =>
      Number(new RegExp(`font-size="([\\d.]+)"[^>]*>${value}</text>`).exec(svg)?.[1]);
    const size = svgSize(packageLabelSvg(long), '6100000');
    expect(size).toBeGreaterThanOrEqual(18);
    expect(size).toBeLessThan(44);
    expect(svgSize(packageLabelSvg(label({ toPostalCode: '90210' })), '90210')).toBe(44);
    expect(pdfText(await renderPackageLabelPdf(label({ toPostalCode: '9'.repeat(40) })))).toMatch(/9{8,}…/);
  });

  it('ZPL: right-to-left field data in visual order, as the printer draws it left to right', () => {
    const [parsed] = parseZpl(
      renderPackageLabelZpl(label({ toName: 'דוד כהן', toAddress1: 'רחוב הרצל 12', toCity: 'لا', toPostalCode: '61000' })),
    );
    expect(parsed?.texts).toEqual(expect.arrayContaining(['ןהכ דוד', '12 לצרה בוחר', `61000 ${cps(0xfefb)}`]));
    expect(parsed?.barcodes).toEqual([cb(7)]);
  });

  it('PNG: 812 × 1218 (4×6 in at 203 dpi), its barcode reads back', async () => {
    const png = await renderPackageLabelPng(label({ toName: HOSTILE, toAddress1: HOSTILE }));
    expect(Buffer.from(png.subarray(1, 4)).toString()).toBe('PNG');
    const view = Buffer.from(png);
    expect([view.readUInt32BE(16), view.readUInt32BE(20)]).toEqual([812, 1218]);
    expect(decodeImage(save(png, 'png'))).toEqual([cb(7)]);
  });

  it('ZPL: the carrier barcode in ^BC, ^ ~ and \\ in data escaped with ^FH so they start no command', () => {
    const zpl = renderPackageLabelZpl(label({ toName: 'A^XZ~JA\\B', sortCode: 'S^1', trackingNumber: 'T^XZ1' }));
    const [parsed] = parseZpl(zpl);
    expect(parsed?.barcodes).toEqual([cb(7)]);
    expect(parsed?.texts).toEqual(
      expect.arrayContaining(['A^XZ~JA\\B', 'S^1', '90210', cb(7), 'Tracking T^XZ1', 'Manifest MAN-01HX7Q2ABC']),
    );
    expect(zpl.match(/\^XZ/g)).toHaveLength(1);
    expect(zplField('^~\\_')).toBe('\\5E\\7E\\5C_');
  });

  it('one PDF and one ZPL with every label of a manifest; an empty manifest says so', async () => {
    const labels = [
      label(),
      label({ trackingNumber: 'PKG-2', carrierBarcode: cb(2) }),
      label({ trackingNumber: undefined, carrierBarcode: cb(3) }),
    ];
    const pdf = await renderPackageLabelsPdf(labels, 'Labels MAN-01HX7Q2ABC');
    expect(pageCount(pdf)).toBe(3);
    expect(decodePdf(pdf)).toEqual([cb(7), cb(2), cb(3)]);
    expect(pdfText(pdf)).toContain('No tracking number');
    expect(parseZpl(renderPackageLabelsZpl(labels)).map((l) => l.barcodes)).toEqual([[cb(7)], [cb(2)], [cb(3)]]);
    expect(pdfText(await renderPackageLabelsPdf([], 'Labels MAN-X'))).toContain('This manifest has no packages.');
  });

  it('ZPL: every barcode and its quiet zones stay on the 812-dot label, whatever the printer packs (^BC mode A, sized for Subset B)', () => {
    // Mostly numeric numbers are where a Subset-B printer would run past the edge if sized for Subset C.
    for (const value of [
      cb(999_999_999_999),
      '9400111899223856789003',
      '420902109405511899223856789003',
      '123456789012',
      '1Z999AA10123456784',
      'X',
    ]) {
      const [parsed] = parseZpl(renderPackageLabelZpl(label({ carrierBarcode: value })));
      expect(parsed?.barcodes).toEqual([value]);
      expect(parsed?.commands.find(([name]) => name === 'BC')?.[1]).toMatch(/,A$/);
    }
    const [tag] = parseZpl(renderContainerTagZpl(manifest({ containerId: 'AKE12345678901234567', awb: '12345678901' })));
    expect(tag?.barcodes).toEqual(['AKE12345678901234567', '12345678901']);
  });

  it("real ManifestIDs (MAN- and 16 characters) and the spec's service names are drawn whole on tag and label", async () => {
    const long = { manifestId: 'MAN-52CYZ5SA4G06CV9Q', serviceName: 'Carrier Express' };
    const tag = pdfText(await renderContainerTagPdf(manifest(long)));
    expect(tag).toContain('Manifest MAN-52CYZ5SA4G06CV9Q');
    expect(tag).toContain('CARRIER EXPRESS');
    for (const serviceName of ['Carrier Express', 'Carrier Ground']) {
      const one = label({ serviceName }, { manifestId: long.manifestId });
      const text = pdfText(await renderPackageLabelPdf(one));
      expect(text).toContain(serviceName.toUpperCase());
      expect(text).toContain(`Manifest ${long.manifestId}`);
      expect(text).not.toContain('…');
      expect(packageLabelSvg(one)).toContain(`>${serviceName.toUpperCase()}</text>`);
    }
  });

  it("a cancelled package's label says CANCELLED and carries no barcode; so do a cancelled manifest's tag and handover", async () => {
    const cancelled = await renderPackageLabelPdf(label({}, { state: 'cancelled' }));
    expect(pdfText(cancelled)).toContain('CANCELLED');
    expect(pdfText(cancelled)).toContain(cb(7));
    expect(decodePdf(cancelled)).toEqual([]);
    expect(parseZpl(renderPackageLabelZpl(label({}, { state: 'cancelled' })))[0]?.barcodes).toEqual([]);
    expect(decodeImage(save(await renderPackageLabelPng(label({}, { state: 'cancelled' })), 'png'))).toEqual([]);
    const tag = await renderContainerTagPdf(manifest({ state: 'cancelled' }));
    expect(decodePdf(tag)).toEqual([]);
    expect(pdfText(tag)).toContain('ULD-0001');
    const handover = await renderHandoverManifest(manifest({ state: 'cancelled' }));
    expect(decodePdf(handover)).toEqual([]);
    expect(pdfText(handover)).toContain('ManifestID MAN-01HX7Q2ABC');
  });
});

describe('embedded fonts', { timeout: 60_000 }, () => {
  it("the per-code-point tables give the glyphs and widths fontkit's layout gives, in both faces", async () => {
    const canvas = await newCanvas('fonts');
    const simple = Array.from({ length: 0x2200 }, (_, cp) => cp).filter(isSimpleCodePoint);
    expect(simple.length).toBeGreaterThan(300);
    expect(isSimpleCodePoint(0xad)).toBe(false); // the soft hyphen, which fontkit's layout hides
    const all = String.fromCodePoint(...simple);
    // every code point next to every other one at least once, in both orders, as well as one by one
    const mixed = simple
      .map((cp, i) =>
        String.fromCodePoint(cp, simple[(i * 7 + 3) % simple.length] ?? 0x41, simple[(i * 13 + 5) % simple.length] ?? 0x42),
      )
      .join('');
    for (const font of [canvas.regular, canvas.bold]) {
      const { face } = font;
      for (const value of [all, [...all].reverse().join(''), mixed, ...simple.map((cp) => String.fromCodePoint(cp))]) {
        const glyphs = face.font.layout(value, PLAIN).glyphs;
        expect(face.simpleRun(value)?.hex).toBe(
          glyphs.map((g) => (face.baseIds.get(g.id) ?? -1).toString(16).padStart(4, '0')).join(''),
        );
        const width = glyphs.reduce((sum, g) => sum + g.advanceWidth, 0) * (1000 / face.font.unitsPerEm) * 0.012;
        expect(font.widthOfTextAtSize(value, 12)).toBeCloseTo(width, 6);
      }
      expect(face.simpleRun('Zürich שלום')).toBeUndefined();
    }
  });

  it('both faces draw every presentation form the Arabic shaper writes, for each letter whose base they draw', async () => {
    const canvas = await newCanvas('fonts');
    const fonts = [canvas.regular.face.font, canvas.bold.face.font];
    const drawn = (cp: number) => fonts.every((font) => font.glyphForCodePoint(cp).id !== 0);
    let checked = 0;
    for (const [form, bases] of PRESENTATION_FORMS) {
      if (!bases.every(drawn)) continue; // U+0671 and a few Urdu letters: no glyph for the base either
      expect(drawn(form), `U+${form.toString(16)}`).toBe(true);
      checked += 1;
    }
    expect(checked).toBeGreaterThan(200);
    // laid out left to right as given: fontkit would reverse a line whose first script is Hebrew
    const face = canvas.regular.face;
    expect(layoutLeftToRight(face.font, 'םולש').glyphs.map((g) => g.id)).toEqual(
      Array.from('םולש', (c) => face.font.glyphForCodePoint(c.codePointAt(0) ?? 0).id),
    );
  });

  it("a glyph first met as part of another (ﺸ is built on ﺴ) keeps its code point for the next document's text layer", async () => {
    await renderPackageLabelPdf(label({ toCity: 'الشحن المشترك' })); // sheen medial, whose outline is seen medial's
    const text = readingText(await renderPackageLabelPdf(label({ toCity: 'السلام سمسم' })));
    expect(text).toContain(cps(0xfe8d, 0xfedf, 0xfeb4, 0xfefc, 0xfee1)); // السلام with seen medial
    expect(text).toContain(cps(0xfeb3, 0xfee4, 0xfeb4, 0xfee2)); // سمسم: seen initial, meem medial, seen medial, meem final
  });

  it('text outside the base glyphs gets the document its own subset; documents before and after it keep the shared one', async () => {
    const city = 'Αθήνα Москва תל אביב';
    const before = pdfText(await renderPackageLabelPdf(label({ toCity: 'Łódź Zürich' })));
    const own = await renderPackageLabelPdf(label({ toCity: city }));
    const after = pdfText(await renderPackageLabelPdf(label({ toCity: 'Plain Town' })));
    expect(before).toContain('Łódź Zürich');
    expect(pdfText(own)).toContain('Αθήνα Москва');
    expect(after).toContain('Plain Town');
    expect(decodePdf(own)).toEqual([cb(7)]);
    const fonts = execFileSync('pdffonts', [save(own, 'pdf')]).toString();
    expect(fonts).toMatch(/BASEA[ABC]\+DejaVuSans-Bold/); // only the regular face needed more glyphs
    expect(fonts).toMatch(/\b(?!BASEA)[A-Z]{6}\+DejaVuSans\s/);
  });
});

describe('text helpers', () => {
  it('clean, fit, AWB, numbers', () => {
    expect(cleanText('a\u0000b\u0007\ud800c  d')).toBe('a b \ufffdc d');
    expect(fitText('abcdefghij', 5, (s) => s.length)).toBe('abcd…');
    expect(fitText('abc', 5, (s) => s.length)).toBe('abc');
    expect(fitText('😀😀😀😀😀😀', 3, (s) => Array.from(s).length)).toBe('😀😀…');
    expect(formatAwb('00012345675')).toBe('000-12345675');
    expect(formatAwb('000-12345675')).toBe('000-12345675');
    expect(formatNumber(12500)).toBe('12,500');
    expect(formatNumber(5669.904)).toBe('5,669.9');
    expect(formatNumber(-0.001)).toBe('0');
    expect([
      shrinkToFit(200, 44, 100, 18),
      shrinkToFit(50, 44, 100, 18),
      shrinkToFit(1000, 44, 100, 18),
      shrinkToFit(200, 44, 100, undefined),
    ]).toEqual([22, 44, 18, 44]);
  });
});

interface ZplLabel {
  commands: [string, string][];
  barcodes: string[];
  texts: string[];
}

/**
 * A small ZPL II reader: splits on ^ (and ~) into commands, tracks ^FH (hex escapes in the next
 * ^FD) and whether the field is a ^BC barcode, and collects each field's decoded data.
 */
function parseZpl(zpl: string): ZplLabel[] {
  const labels: ZplLabel[] = [];
  let current: ZplLabel | undefined;
  let hex: string | undefined;
  let barcode = false;
  let moduleWidth = 2;
  let originX = 0;
  for (const raw of zpl.split(/(?=[\^~])/)) {
    const chunk = raw.replace(/\n$/, '');
    if (chunk.trim() === '') continue;
    expect(chunk[0]).toBe('^'); // no ~ command: a stray ~ from data would show here
    const name = chunk.slice(1, 3);
    const args = chunk.slice(3);
    if (name === 'XA') {
      current = { commands: [], barcodes: [], texts: [] };
      continue;
    }
    expect(current, `${chunk} outside ^XA…^XZ`).toBeDefined();
    if (!current) continue;
    if (name === 'XZ') {
      labels.push(current);
      current = undefined;
      continue;
    }
    if (name === 'FH') hex = args || '_';
    else if (name === 'BC') barcode = true;
    else if (name === 'BY') moduleWidth = Number(args.split(',')[0]);
    else if (name === 'FO') originX = Number(args.split(',')[0]);
    else if (name === 'FD') {
      const data = hex
        ? args.replace(new RegExp(`\\${hex}([0-9A-Fa-f]{2})`, 'g'), (_, h: string) => String.fromCharCode(parseInt(h, 16)))
        : args;
      (barcode ? current.barcodes : current.texts).push(data);
      if (barcode) {
        // The widest symbol the printer may draw (Subset B: every character a symbol), with its 10-module quiet zones.
        const quiet = 10 * moduleWidth;
        const end = originX + (subsetBModules(data) - 20) * moduleWidth;
        expect(originX, `${data}: left quiet zone`).toBeGreaterThanOrEqual(quiet);
        expect(end + quiet, `${data}: ends at dot ${end}, quiet zone to ${end + quiet}, label 812 dots`).toBeLessThanOrEqual(812);
      }
    } else if (name === 'FS') {
      hex = undefined;
      barcode = false;
    } else {
      expect(['CI', 'PW', 'LL', 'FO', 'A0', 'FB', 'BY', 'GB', 'FR']).toContain(name);
    }
    current.commands.push([name, args]);
  }
  expect(current).toBeUndefined();
  return labels;
}
