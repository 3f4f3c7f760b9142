import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, call, expectError, newAccount, pathFor, tracking, type Env, type TestAccount } from './support/api';
import { containerDetail, containerSample, packageSample } from './support/samples';

// The customs declarations (CN 23 / commercial invoice) over HTTP: one parcel's, and every house of a manifest in one
// PDF; read back by pdftotext and zbarimg (poppler-utils, zbar-tools), scoped by account and environment, cancelled
// packages as their labels are, hostile text refused at the door or drawn, never a 5xx.

let acme: TestAccount;
let stranger: TestAccount;
let containerManifest = '';
let dailyManifest = '';
let dailyNumber = '';
const numbers: string[] = [];
const dir = mkdtempSync(path.join(tmpdir(), 'customs-documents-api-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CUSTOMS = {
  ContentsType: 'merchandise',
  Incoterm: 'DDP',
  Currency: 'EUR',
  ExporterEORI: 'GB123456789000',
  ImporterEORI: 'FR12345678901',
  IOSS: 'IM2760000742',
  Items: [
    {
      Description: 'Cotton T-shirt',
      Quantity: 2,
      Value: '0.10',
      Weight: 0.4,
      WeightUnit: 'kg',
      HSCode: '6109.10',
      OriginCountry: 'cn',
    },
    { Description: 'Leather wallet', Quantity: 1, Value: 0.2, HSCode: '420232', OriginCountry: 'IT' },
  ],
};

const parcel = (tn: string, over: Record<string, unknown> = {}) => ({
  ...containerDetail(tn),
  ToCity: 'Paris',
  ToState: '',
  ToPostalCode: '75002',
  ToCountry: 'FR',
  Customs: { ...CUSTOMS, HouseWaybill: `HWB${tn.slice(-6)}`.replace(/[^A-Za-z0-9]/g, '') },
  ...over,
});

beforeAll(async () => {
  [acme, stranger] = await Promise.all([newAccount('CustomsDocs'), newAccount('CustomsDocsStranger')]);
  numbers.push(tracking('CD'), tracking('CD'), tracking('CD'));
  const body = {
    ...containerSample(`AKE${String(Math.floor(Math.random() * 90000) + 10000)}XH`),
    FlightNumber: 'AC874',
    OriginAirport: 'YYZ',
    DestinationAirport: 'FRA',
    ContainerDetails: [parcel(numbers[0]), parcel(numbers[1]), parcel(numbers[2], { Customs: undefined })],
  };
  const created = await call('/wf/manifest', { token: acme.tokens.test, body });
  expect(created.status, created.text).toBe(200);
  containerManifest = created.json.ManifestID;
  dailyNumber = tracking('CDD');
  const sample = packageSample(dailyNumber);
  const daily = await call('/wf/package', {
    token: acme.tokens.test,
    body: {
      package: {
        ...sample.package,
        ToCountry: 'DE',
        Customs: { ...CUSTOMS, Currency: 'JPY', Items: [{ ...CUSTOMS.Items[1], Value: '1500' }] },
      },
    },
  });
  expect(daily.status, daily.text).toBe(200);
  dailyManifest = daily.json.ManifestID;
});

async function get(p: string, options: { env?: Env; token?: string; accept?: string } = {}) {
  const response = await fetch(baseUrl + pathFor(options.env ?? 'test', p), {
    headers: {
      authorization: `Token ${options.token ?? acme.tokens.test}`,
      ...(options.accept ? { accept: options.accept } : {}),
    },
  });
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

function save(bytes: Uint8Array): string {
  const file = path.join(dir, `${randomUUID()}.pdf`);
  writeFileSync(file, bytes);
  return file;
}
const words = (pdf: Uint8Array) =>
  execFileSync('pdftotext', [save(pdf), '-'])
    .toString()
    .replace(/\s+/g, ' ');
const layout = (pdf: Uint8Array) => execFileSync('pdftotext', ['-layout', save(pdf), '-']).toString();
const pageCount = (pdf: Uint8Array) => Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [save(pdf)]).toString())?.[1]);
/** The Code 128 symbols on a PDF's pages: the only kind it prints (every kind at once read text as a stray symbol). */
function barcodes(pdf: Uint8Array): string[] {
  const file = save(pdf);
  execFileSync('pdftoppm', ['-r', '300', '-gray', '-png', file, file]);
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

async function barcodeOf(tn: string): Promise<string> {
  const read = await call(`/packages/${tn}`, { method: 'GET', token: acme.tokens.test });
  expect(read.status, read.text).toBe(200);
  return read.json.carrier_barcode;
}

describe('GET /packages/{TrackingNumber}/customs-declaration', () => {
  it("the parcel's CN 23: items, HS codes, values and totals in exact decimals, origin, incoterm, waybills, signature block", async () => {
    const { response, bytes } = await get(`/packages/${numbers[0]}/customs-declaration`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe(`inline; filename="customs-${numbers[0]}.pdf"`);
    const text = words(bytes);
    for (const expected of [
      'CUSTOMS DECLARATION',
      'CN 23',
      'Acme Parcels',
      'Exporter EORI: GB123456789000',
      'Jane Doe',
      'Importer EORI: FR12345678901',
      'IOSS: IM2760000742',
      numbers[0],
      '000-12345675',
      containerManifest,
      'Delivery terms (Incoterm): DDP',
      'Currency: EUR',
      'Place and date',
      "Sender's signature",
    ])
      expect(text, expected).toContain(expected);
    const table = layout(bytes);
    expect(table).toMatch(/Cotton T-shirt\s+2\s+0\.4\s+0\.10\s+6109\.10\s+CN/);
    expect(table).toMatch(/Leather wallet\s+1\s+—\s+0\.20\s+4202\.32\s+IT/);
    expect(table).toMatch(/0\.30 EUR/);
    // The sort barcode is the parcel's carrier barcode, as on its label.
    expect(barcodes(bytes)).toEqual([await barcodeOf(numbers[0])]);
    expect(pageCount(bytes)).toBe(1);
  });

  it('found by carrier barcode as well; a daily package (its own sender, JPY without decimals) too; paper A4', async () => {
    const byBarcode = await get(`/packages/${await barcodeOf(numbers[1])}/customs-declaration`);
    expect(byBarcode.response.status).toBe(200);
    expect(words(byBarcode.bytes)).toContain(numbers[1]);
    const daily = await get(`/packages/${dailyNumber}/customs-declaration?paper=a4`);
    expect(daily.response.status).toBe(200);
    const text = words(daily.bytes);
    expect(text).toContain('Maple Goods');
    expect(text).toContain('1,500 JPY');
    expect(execFileSync('pdfinfo', [save(daily.bytes)]).toString()).toMatch(/Page size:\s+595\.28 x 841\.89/);
  });

  it('a package sent without Customs gets the form with its contents to fill in, and the house waybill issued to it', async () => {
    const { response, bytes } = await get(`/packages/${numbers[2]}/customs-declaration`);
    expect(response.status).toBe(200);
    const text = words(bytes);
    expect(text).toContain('No customs declaration was sent with this package');
    const read = await call(`/packages/${numbers[2]}`, { method: 'GET', token: acme.tokens.test });
    expect(read.json.house_waybill).toMatch(/^H\d{11}$/);
    expect(text).toContain(read.json.house_waybill);
  });

  it('refuses a format it does not come in (406) and a paper it does not know (422)', async () => {
    for (const [query, accept] of [
      ['?format=zpl', undefined],
      ['', 'image/png'],
    ] as const) {
      const { response, bytes } = await get(`/packages/${numbers[0]}/customs-declaration${query}`, accept ? { accept } : {});
      expect(response.status).toBe(406);
      expect(JSON.parse(new TextDecoder().decode(bytes)).error.code).toBe('not_acceptable');
    }
    const paper = await get(`/packages/${numbers[0]}/customs-declaration?paper=a5`);
    expect(paper.response.status).toBe(422);
  });
});

describe('GET /manifests/{id}/customs-declarations', () => {
  it("every house of the container in one PDF, in the manifest's order, each on pages of its own", async () => {
    const { response, bytes } = await get(`/manifests/${containerManifest}/customs-declarations`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe(`inline; filename="customs-${containerManifest}.pdf"`);
    const text = words(bytes);
    const at = numbers.map((n) => text.indexOf(n));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(text).toContain('house 3 of 3');
    expect(pageCount(bytes)).toBe(3);
    const expected = await Promise.all(numbers.map(barcodeOf));
    expect(barcodes(bytes)).toEqual(expected);
  });

  it("a daily manifest's packages too", async () => {
    const { response, bytes } = await get(`/manifests/${dailyManifest}/customs-declarations`);
    expect(response.status).toBe(200);
    expect(words(bytes)).toContain(dailyNumber);
  });
});

describe('cancelled packages and manifests: as their labels', () => {
  it("a cancelled package's declaration says CANCELLED and has no barcode; the manifest's PDF leaves it out", async () => {
    const tns = [tracking('CDX'), tracking('CDX')];
    const created = await call('/wf/manifest', {
      token: acme.tokens.test,
      body: { ...containerSample(`CONT-${randomUUID().slice(0, 8)}`), ContainerDetails: tns.map((tn) => parcel(tn)) },
    });
    expect(created.status, created.text).toBe(200);
    const cancel = await call(`/packages/${tns[0]}/cancel`, { token: acme.tokens.test, body: {} });
    expect(cancel.status, cancel.text).toBe(200);
    const own = await get(`/packages/${tns[0]}/customs-declaration`);
    expect(own.response.status).toBe(200);
    expect(words(own.bytes)).toContain('CANCELLED');
    expect(barcodes(own.bytes)).toEqual([]);
    const all = await get(`/manifests/${created.json.ManifestID}/customs-declarations`);
    const text = words(all.bytes);
    expect(text).not.toContain(tns[0]);
    expect(text).toContain(tns[1]);
    expect(text).not.toContain('CANCELLED');
    // The whole container cancelled: every declaration is there, each stamped, none scannable.
    const whole = await call(`/manifests/${created.json.ManifestID}/cancel`, { token: acme.tokens.test, body: {} });
    expect(whole.status, whole.text).toBe(200);
    const stamped = await get(`/manifests/${created.json.ManifestID}/customs-declarations`);
    const stampedText = words(stamped.bytes);
    expect(stampedText).toContain(tns[0]);
    expect(stampedText).toContain(tns[1]);
    expect(stampedText.match(/CANCELLED/g)).toHaveLength(2);
    expect(barcodes(stamped.bytes)).toEqual([]);
  });
});

describe('scoping', () => {
  it("another account's package or manifest is a 404, in either format of asking; the other environment's token a 401", async () => {
    for (const p of [`/packages/${numbers[0]}/customs-declaration`, `/manifests/${containerManifest}/customs-declarations`]) {
      const { response, bytes } = await get(p, { token: stranger.tokens.test });
      expect(response.status, p).toBe(404);
      const body = new TextDecoder().decode(bytes);
      expect(JSON.parse(body).error.code).toBe('not_found');
      expect(body).not.toContain('Jane');
      expect((await get(p, { env: 'live', token: acme.tokens.live })).response.status).toBe(404);
      expect((await get(p, { token: acme.tokens.live })).response.status).toBe(401);
    }
  });
});

describe('hostile text in the customs fields', () => {
  it('NUL, a 10,000-character description and 101 items are refused at the door with the field named (422), never stored', async () => {
    const cases: [unknown, string][] = [
      [
        { ...CUSTOMS, Items: [{ ...CUSTOMS.Items[0], Description: 'Cotton\u0000shirt' }] },
        'ContainerDetails[0].Customs.Items[0].Description',
      ],
      [
        { ...CUSTOMS, Items: [{ ...CUSTOMS.Items[0], Description: `Cotton ${'x'.repeat(10_000)}` }] },
        'ContainerDetails[0].Customs.Items[0].Description',
      ],
      [{ ...CUSTOMS, Items: Array.from({ length: 101 }, () => CUSTOMS.Items[0]) }, 'ContainerDetails[0].Customs.Items'],
    ];
    for (const [customs, field] of cases) {
      const tn = tracking('CDH');
      const answer = await call('/wf/manifest', {
        token: acme.tokens.test,
        body: { ...containerSample(`CONT-${randomUUID().slice(0, 8)}`), ContainerDetails: [parcel(tn, { Customs: customs })] },
      });
      expectError(answer, 422, 'validation_failed');
      expect(answer.json.error.details.map((d: { path: string }) => d.path)).toContain(field);
      expect((await get(`/packages/${tn}/customs-declaration`)).response.status).toBe(404);
    }
  });

  it('right-to-left overrides, Hebrew and Arabic, and the longest text each field takes are drawn (200)', async () => {
    const tn = tracking('CDR');
    const customs = {
      ...CUSTOMS,
      ImporterTaxID: `\u202E${'9'.repeat(49)}`,
      Items: [
        { ...CUSTOMS.Items[0], Description: `قميص قطني \u202Eevil\u202C ${'long words '.repeat(30)}`.slice(0, 256) },
        { ...CUSTOMS.Items[1], Description: 'ארנק עור לגברים' },
      ],
    };
    const created = await call('/wf/manifest', {
      token: acme.tokens.test,
      body: {
        ...containerSample(`CONT-${randomUUID().slice(0, 8)}`),
        ContainerDetails: [parcel(tn, { ToName: `\u202Eevil\u202C ${'N'.repeat(200)}`, ToCity: 'תל אביב', Customs: customs })],
      },
    });
    expect(created.status, created.text).toBe(200);
    const one = await get(`/packages/${tn}/customs-declaration`);
    expect(one.response.status).toBe(200);
    expect(words(one.bytes)).toContain('long words');
    const all = await get(`/manifests/${created.json.ManifestID}/customs-declarations`);
    expect(all.response.status).toBe(200);
  });
});
