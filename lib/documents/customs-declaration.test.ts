import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  addDecimal,
  customsDeclaration,
  manifestDeclarations,
  totalValue,
  type DocumentCustomsDeclaration,
} from './customs-declaration';
import { renderCustomsDeclaration, renderCustomsDeclarations } from './render-customs-declaration';
import type { ManifestSource } from './manifest-source';

// The CN 23 / commercial invoice, read back as a customs broker's software would: text by pdftotext, the barcode by
// zbarimg from pages rendered by pdftoppm (poppler-utils, zbar-tools: .ci/run installs them).

const dir = mkdtempSync(path.join(tmpdir(), 'customs-declaration-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let counter = 0;
function save(bytes: Uint8Array): string {
  counter += 1;
  const file = path.join(dir, `cn23-${counter}.pdf`);
  writeFileSync(file, bytes);
  return file;
}
/** pdftotext's reading order, every run of white space one space: what a search of the text finds. */
const words = (pdf: Uint8Array) =>
  execFileSync('pdftotext', [save(pdf), '-'])
    .toString()
    .replace(/\s+/g, ' ');
const layout = (pdf: Uint8Array) => execFileSync('pdftotext', ['-layout', save(pdf), '-']).toString();
const pages = (pdf: Uint8Array) => Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [save(pdf)]).toString())?.[1]);
function barcodes(pdf: Uint8Array): string[] {
  const file = save(pdf);
  execFileSync('pdftoppm', ['-r', '300', '-gray', '-png', '-f', '1', '-l', '1', file, file]);
  try {
    return execFileSync('sh', ['-c', `zbarimg -q --raw -Sdisable -Scode128.enable ${file}-*.png`], {
      stdio: ['ignore', 'pipe', 'ignore'],
    })
      .toString()
      .split('\n')
      .filter(Boolean);
  } catch {
    return [];
  }
}

const HEADER = {
  FromCompany: 'Maple Goods',
  FromName: 'Shipping desk',
  FromAddress1: '100 King St W',
  FromCity: 'Toronto',
  FromState: 'ON',
  FromPostalCode: 'M5X 1A9',
  FromCountry: 'CA',
  FromPhone: '416-555-0100',
  ShipmentDescription: 'Apparel',
};
const CUSTOMS = {
  ContentsType: 'gift',
  Incoterm: 'DAP',
  Currency: 'EUR',
  ExporterEORI: 'GB123456789000',
  ImporterEORI: 'FR12345678901',
  IOSS: 'IM2760000742',
  HouseWaybill: 'HWB0001',
  Items: [
    {
      Description: 'Cotton T-shirt',
      Quantity: 2,
      Value: '0.10',
      Weight: '0.4',
      WeightUnit: 'kg',
      HSCode: '610910',
      OriginCountry: 'CN',
    },
    {
      Description: 'Leather wallet',
      Quantity: 1,
      Value: '0.20',
      Weight: '1',
      WeightUnit: 'lb',
      HSCode: '4202320000',
      OriginCountry: 'IT',
    },
  ],
};
const DATA = {
  TrackingNumber: '1Z999AA10123456784',
  PackageWeight: 2.5,
  PackageWeightUnit: 'lb',
  ToName: 'Marie Dupont',
  ToAddress1: '12 Rue de la Paix',
  ToCity: 'Paris',
  ToPostalCode: '75002',
  ToCountry: 'FR',
  ToPhone: '+33 1 23 45 67 89',
  ToEmail: 'marie@example.fr',
  Customs: CUSTOMS,
};

function declaration(
  over: Record<string, unknown> = {},
  extra: Partial<DocumentCustomsDeclaration> = {},
): DocumentCustomsDeclaration {
  return {
    ...customsDeclaration({
      data: { ...DATA, ...over },
      header: HEADER,
      kind: 'container',
      carrierBarcode: 'CB1234567890128',
      manifestId: 'MAN-7K3Q9X2M4T8V6W1Z',
      manifestDate: '2026-11-23',
      awb: '00012345675',
      containerId: 'AKE12345XH',
      generatedAt: new Date('2026-11-23T10:00:00Z'),
    }),
    ...extra,
  };
}

describe('exact sums', () => {
  it('adds decimal strings without binary fractions', () => {
    expect(addDecimal('0.10', '0.20')).toBe('0.30');
    expect(addDecimal('999999999999.99', '0.01')).toBe('1000000000000.00');
    expect(addDecimal('5', '0.125')).toBe('5.125');
    expect(totalValue([{ description: 'a', value: '1' }, { description: 'b' }])).toBe('1');
    expect(totalValue([{ description: 'a' }])).toBeUndefined();
  });
});

describe('CN 23 / commercial invoice of a parcel', () => {
  it('says every box: parties, references, items with HS codes, values, origin, totals, incoterm, category, signature block', async () => {
    const pdf = await renderCustomsDeclaration(declaration());
    const text = words(pdf);
    for (const expected of [
      'CUSTOMS DECLARATION',
      'CN 23',
      'Commercial invoice',
      'Maple Goods',
      '100 King St W',
      'Toronto, ON M5X 1A9',
      'Exporter EORI: GB123456789000',
      'Marie Dupont',
      '12 Rue de la Paix',
      'Importer EORI: FR12345678901',
      'IOSS: IM2760000742',
      'E-mail: marie@example.fr',
      '1Z999AA10123456784',
      'HWB0001',
      '000-12345675',
      'MAN-7K3Q9X2M4T8V6W1Z',
      'Cotton T-shirt',
      '6109.10',
      '4202.32.00.00',
      'Value (EUR)',
      'Delivery terms (Incoterm): DAP',
      'Currency: EUR',
      "SENDER'S CERTIFICATION",
      'does not contain any dangerous article',
      'Place and date',
      "Sender's signature",
    ])
      expect(text, expected).toContain(expected);
    const table = layout(pdf);
    // Each line: quantity, net weight in kg (1 lb = 0.454 kg), value, HS code, origin, in its row.
    expect(table).toMatch(/1\s+Cotton T-shirt\s+2\s+0\.4\s+0\.10\s+6109\.10\s+CN/);
    expect(table).toMatch(/2\s+Leather wallet\s+1\s+0\.454\s+0\.20\s+4202\.32\.00\.00\s+IT/);
    // Totals in exact decimals (0.10 + 0.20 is 0.30, not 0.30000000000000004); gross weight 2.5 lb in kg.
    expect(table).toMatch(/TOTAL VALUE[\s\S]*0\.30 EUR/);
    expect(text).toContain('0.854 kg');
    expect(text).toContain('1.134 kg');
    expect(text).toContain('3'); // items by quantity
    // The category of item is the declaration's: Gift checked (drawn bold, a filled box), the others drawn too.
    for (const category of ['Sale of goods', 'Gift', 'Commercial sample', 'Documents', 'Returned goods', 'Other'])
      expect(text).toContain(category);
    expect(barcodes(pdf)).toEqual(['CB1234567890128']);
    expect(pages(pdf)).toBe(1);
  });

  it('a description of 256 characters is wrapped over lines, never cut', async () => {
    const long = Array.from({ length: 40 }, (_, i) => `word${i}`)
      .join(' ')
      .slice(0, 256);
    const pdf = await renderCustomsDeclaration(
      declaration({ Customs: { ...CUSTOMS, Items: [{ ...CUSTOMS.Items[0], Description: long }] } }),
    );
    expect(words(pdf)).toContain(long);
  });

  it('100 items run over pages, the table head on each, totals and signature once at the end', async () => {
    const items = Array.from({ length: 100 }, (_, i) => ({
      ...CUSTOMS.Items[0],
      Description: `Cotton T-shirt size ${i + 1}`,
      Value: '1.01',
    }));
    const pdf = await renderCustomsDeclaration(declaration({ Customs: { ...CUSTOMS, Items: items } }));
    const count = pages(pdf);
    expect(count).toBeGreaterThan(1);
    const text = words(pdf);
    for (let i = 1; i <= 100; i += 1) expect(text).toContain(`Cotton T-shirt size ${i} `);
    expect(text).toContain('101.00 EUR');
    expect(text.match(/Sender's signature/g)).toHaveLength(1);
    expect(text.match(/Detailed description of contents/g)).toHaveLength(count);
    expect(text).toContain(`page ${count} of ${count}`);
  });

  it('a package sent without Customs gets the form with its contents left to fill in, its own description beside', async () => {
    const text = words(await renderCustomsDeclaration(declaration({ Customs: undefined })));
    expect(text).toContain('No customs declaration was sent with this package');
    expect(text).toContain('Package description: Apparel');
    expect(text).toContain('Delivery terms (Incoterm): —');
  });

  it('a cancelled parcel: CANCELLED across every page, no barcode (as its label)', async () => {
    const pdf = await renderCustomsDeclaration(declaration({}, { state: 'cancelled' }));
    expect(words(pdf)).toContain('CANCELLED');
    expect(barcodes(pdf)).toEqual([]);
    expect(words(pdf)).toContain('CB1234567890128');
  });

  it('hostile text renders: NUL and controls, RTL overrides, Hebrew and Arabic, 10,000 characters', async () => {
    const hostile = {
      ToName: 'nul\u0000name\u0007bell',
      ToAddress1: 'rtl \u202Eevil\u202C override',
      ToCity: 'תל אביב',
      Customs: {
        ...CUSTOMS,
        Items: [
          { ...CUSTOMS.Items[0], Description: 'x'.repeat(10_000) },
          { ...CUSTOMS.Items[1], Description: 'قميص قطني للرجال' },
          { ...CUSTOMS.Items[1], Description: `${'word '.repeat(2_000)}end` },
        ],
      },
    };
    const pdf = await renderCustomsDeclaration(declaration(hostile));
    const text = words(pdf);
    expect(text).toContain('nul name bell');
    expect(text).toContain('override');
    expect(text).toMatch(/x{40,}…/); // a description longer than any the API keeps: eight lines, then an ellipsis
    expect(pages(pdf)).toBe(1);
  });
});

describe("a manifest's houses in one PDF", () => {
  function rows(list: [Record<string, unknown>, string, string, unknown?][]): ManifestSource {
    return {
      kind: 'container',
      manifestId: 'MAN-7K3Q9X2M4T8V6W1Z',
      state: 'open',
      manifestDate: '2026-11-23',
      header: HEADER,
      awb: '00012345675',
      containerId: 'AKE12345XH',
      packages: new TextEncoder().encode(JSON.stringify(list)),
      generatedAt: new Date('2026-11-23T10:00:00Z'),
    };
  }

  it('one declaration per handed-over house, in order; a cancelled package left out, as from the labels', async () => {
    const source = rows([
      [{ ...DATA, TrackingNumber: 'TN-A' }, 'manifested', 'CB0000000000A1', 'H00000000011'],
      [{ ...DATA, TrackingNumber: 'TN-B' }, 'cancelled', 'CB0000000000B2', null],
      [{ ...DATA, TrackingNumber: 'TN-C', Customs: { ...CUSTOMS, HouseWaybill: undefined } }, 'received', 'CB0000000000C3', null],
    ]);
    const declarations = manifestDeclarations(source);
    expect(declarations.map((d) => d.trackingNumber)).toEqual(['TN-A', 'TN-C']);
    // The house waybill stored beside the package (issued by us) comes first, then the one sent in Customs.
    expect(declarations[0]?.houseWaybill).toBe('H00000000011');
    expect(declarations[1]?.houseWaybill).toBeUndefined();
    const pdf = await renderCustomsDeclarations(declarations, { title: 'x' });
    const text = words(pdf);
    expect(pages(pdf)).toBe(2);
    expect(text.indexOf('TN-A')).toBeLessThan(text.indexOf('TN-C'));
    expect(text).not.toContain('TN-B');
    expect(text).toContain('house 1 of 2');
    expect(text).toContain('house 2 of 2');
  });

  it("a cancelled manifest's declarations are all there, each stamped CANCELLED", async () => {
    const source = {
      ...rows([
        [DATA, 'cancelled', 'CB0000000000A1'],
        [DATA, 'cancelled', 'CB0000000000B2'],
      ]),
      state: 'cancelled' as const,
    };
    const pdf = await renderCustomsDeclarations(manifestDeclarations(source), { title: 'x' });
    expect(words(pdf).match(/CANCELLED/g)).toHaveLength(2);
  });

  it('a manifest with no house says so on one page', async () => {
    const pdf = await renderCustomsDeclarations(manifestDeclarations(rows([])), { title: 'Customs declarations MAN-X' });
    expect(words(pdf)).toContain('This manifest has no packages.');
    expect(pages(pdf)).toBe(1);
  });
});
