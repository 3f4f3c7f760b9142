import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { AppError } from '@/lib/errors/app-error';
import { containerDetail, containerSample, packageSample } from '@/e2e/api/support/samples';
import {
  CONTAINER_MANIFEST_ALIASES,
  CONTAINER_MANIFEST_FIELDS,
  ZContainerDetail,
  ZContainerManifestRequest,
} from './container-manifest';
import {
  containerUld,
  COUNTRY_CODES,
  CURRENCY_MINOR_UNITS,
  HS_CHAPTERS,
  MAX_CUSTOMS_ITEMS,
  readHsCode,
  readUld,
  vagueDescription,
} from './customs';
import { PACKAGE_MANIFEST_ALIASES, PACKAGE_MANIFEST_FIELDS, ZPackage, ZPackageManifestRequest } from './package-manifest';
import { parseOperation } from './parse';
import { ignoredFields } from './unknown-fields';

// Each customs and air-cargo rule, good and bad values and its boundaries, through the operations' own parse, so
// every refusal is checked with the path the API answers with.

const parsePackage = (body: unknown) =>
  parseOperation(ZPackageManifestRequest, body, { aliases: PACKAGE_MANIFEST_ALIASES, at: 'package' });
const parseContainer = (body: unknown) =>
  parseOperation(ZContainerManifestRequest, body, { aliases: CONTAINER_MANIFEST_ALIASES });

function failure(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a validation error');
}

const ITEM = {
  Description: 'Cotton T-shirt',
  Quantity: 2,
  Value: '12.50',
  Weight: 0.4,
  WeightUnit: 'kg',
  HSCode: '610910',
  OriginCountry: 'CN',
};
const CUSTOMS = { ContentsType: 'merchandise', Incoterm: 'DAP', Currency: 'USD', Items: [ITEM] };

/** A daily package with this declaration. */
const withCustoms = (customs: unknown) => ({ package: { ...packageSample('CUS1').package, Customs: customs } });
/** The declaration as parsed, or the details of its refusal. */
function declare(customs: unknown) {
  try {
    return { ok: true as const, customs: parsePackage(withCustoms(customs)).Customs };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { ok: false as const, details: error.details };
  }
}
/** One item field set to `value`: its parsed value, or its one error's message. */
function itemField(field: string, value: unknown, customs: Record<string, unknown> = {}) {
  const result = declare({ ...CUSTOMS, ...customs, Items: [{ ...ITEM, [field]: value }] });
  if (result.ok)
    return { ok: true as const, value: (result.customs?.Items?.[0] as Record<string, unknown> | undefined)?.[field] };
  expect(result.details).toHaveLength(1);
  expect(result.details[0]?.path).toBe(`package.Customs.Items[0].${field}`);
  return { ok: false as const, message: result.details[0]?.message };
}
function headField(field: string, value: unknown) {
  const result = declare({ ...CUSTOMS, [field]: value });
  if (result.ok) return { ok: true as const, value: (result.customs as Record<string, unknown> | undefined)?.[field] };
  expect(result.details).toHaveLength(1);
  expect(result.details[0]?.path).toBe(`package.Customs.${field}`);
  return { ok: false as const, message: result.details[0]?.message };
}
function headerField(field: string, value: unknown) {
  try {
    return {
      ok: true as const,
      value: (parseContainer({ ...containerSample('C1'), [field]: value }).header as Record<string, unknown>)[field],
    };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    expect(error.details.map((d) => d.path)).toEqual([error.details[0]?.path]);
    return { ok: false as const, path: error.details[0]?.path, message: error.details[0]?.message };
  }
}

describe('reference data comes from the packages', () => {
  it('currencies: ISO 4217 list one with its minor units, less what is not money (checked against the list shipped in currency-codes)', () => {
    const require = createRequire(import.meta.url);
    const xml = readFileSync(require.resolve('currency-codes/iso-4217-list-one.xml'), 'utf8');
    const listed = new Map<string, string>();
    for (const [, code, units] of xml.matchAll(
      /<Ccy>([A-Z]{3})<\/Ccy>\s*<CcyNbr>\d+<\/CcyNbr>\s*<CcyMnrUnts>([^<]+)<\/CcyMnrUnts>/g,
    )) {
      if (code && units) listed.set(code, units);
    }
    expect(listed.size).toBeGreaterThan(150);
    for (const [code, units] of listed) {
      if (units === 'N.A.') expect(CURRENCY_MINOR_UNITS.has(code), code).toBe(false);
      else expect(CURRENCY_MINOR_UNITS.get(code), code).toBe(Number(units));
    }
    expect(CURRENCY_MINOR_UNITS.get('USD')).toBe(2);
    expect(CURRENCY_MINOR_UNITS.get('JPY')).toBe(0);
    expect(CURRENCY_MINOR_UNITS.get('BHD')).toBe(3);
  });

  it('countries: the assigned ISO 3166-1 codes and XK', () => {
    expect(COUNTRY_CODES.size).toBe(250);
    for (const code of ['US', 'CN', 'DE', 'GB', 'JP', 'XK']) expect(COUNTRY_CODES.has(code), code).toBe(true);
    for (const code of ['UK', 'EU', 'XX', 'QQ']) expect(COUNTRY_CODES.has(code), code).toBe(false);
  });

  it('HS chapters: 01 to 97 but 77', () => {
    expect(HS_CHAPTERS.size).toBe(96);
    expect([...HS_CHAPTERS].slice(0, 2)).toEqual(['01', '02']);
    expect(HS_CHAPTERS.has('97')).toBe(true);
    for (const chapter of ['00', '77', '98', '99']) expect(HS_CHAPTERS.has(chapter)).toBe(false);
  });
});

describe('a package may carry a customs declaration', () => {
  it('parses and normalises a full declaration; the stored output is what reads give back', () => {
    const result = declare({
      ...CUSTOMS,
      Currency: 'usd',
      Incoterm: 'ddp',
      ExporterEORI: 'gb123456789000',
      ImporterEORI: 'DE123456789012345',
      ImporterTaxID: 'DE811907980',
      IOSS: 'im2760000742',
      HouseWaybill: 'hwb1234',
      Items: [{ ...ITEM, Value: '12.5', OriginCountry: 'cn', HSCode: '6109.10.00' }],
    });
    expect(result).toEqual({
      ok: true,
      customs: {
        ContentsType: 'merchandise',
        Incoterm: 'DDP',
        Currency: 'USD',
        ExporterEORI: 'GB123456789000',
        ImporterEORI: 'DE123456789012345',
        ImporterTaxID: 'DE811907980',
        IOSS: 'IM2760000742',
        HouseWaybill: 'HWB1234',
        Items: [
          {
            Description: 'Cotton T-shirt',
            Quantity: 2,
            Value: '12.50',
            Weight: '0.4',
            WeightUnit: 'kg',
            HSCode: '61091000',
            OriginCountry: 'CN',
          },
        ],
      },
    });
  });

  it('is optional: absent, "" and null mean none, and a package without it parses exactly as before', () => {
    const plain = parsePackage(packageSample('CUS1'));
    expect(plain).not.toHaveProperty('Customs');
    for (const none of ['', '  ', null]) expect(parsePackage(withCustoms(none))).toEqual(plain);
    expect(declare({})).toEqual({ ok: true, customs: {} });
    expect(declare({ ContentsType: 'documents' })).toEqual({ ok: true, customs: { ContentsType: 'documents' } });
    expect(declare({ ContentsType: 'documents', Items: [] })).toEqual({ ok: true, customs: { ContentsType: 'documents' } });
  });

  it('must be an object', () => {
    for (const bad of ['yes', 42, [CUSTOMS], true]) {
      expect(declare(bad)).toEqual({
        ok: false,
        details: [{ path: 'package.Customs', message: 'must be an object: the customs declaration' }],
      });
    }
  });

  it('ContentsType and Incoterm: their lists, any case', () => {
    for (const good of ['merchandise', 'documents', 'gift', 'sample', 'return_goods', 'other', 'GIFT'])
      expect(headField('ContentsType', good).ok, good).toBe(true);
    expect(headField('ContentsType', 'stuff')).toEqual({
      ok: false,
      message: 'must be one of: merchandise, documents, gift, sample, return_goods, other',
    });
    expect(headField('Incoterm', 'dap')).toEqual({ ok: true, value: 'DAP' });
    expect(headField('Incoterm', 'EXW')).toEqual({ ok: false, message: 'must be one of: DAP, DDP' });
  });

  it('Currency: an ISO 4217 currency, not a fund unit or a test code', () => {
    expect(headField('Currency', 'eur')).toEqual({ ok: true, value: 'EUR' });
    expect(headField('Currency', 'XCD').ok).toBe(true);
    expect(headField('Currency', 'ABC')).toEqual({
      ok: false,
      message: 'is not an ISO 4217 currency code (ABC); e.g. USD, EUR or JPY',
    });
    for (const bad of ['XTS', 'XXX', 'XAU', 'XDR']) expect(headField('Currency', bad).ok, bad).toBe(false);
    expect(headField('Currency', 'US$')).toEqual({
      ok: false,
      message: 'must be an ISO 4217 currency code: three letters, e.g. USD, EUR or JPY',
    });
  });

  it('Currency is required with items, not without', () => {
    const { Currency: _currency, ...noCurrency } = CUSTOMS;
    expect(declare(noCurrency)).toEqual({
      ok: false,
      details: [{ path: 'package.Customs.Currency', message: 'is required with Items: the currency of their Value' }],
    });
    expect(declare({ ...noCurrency, Items: [] }).ok).toBe(true);
  });

  it('EORI: a country code and up to 15 letters or digits', () => {
    for (const field of ['ExporterEORI', 'ImporterEORI']) {
      expect(headField(field, 'de123456789012345')).toEqual({ ok: true, value: 'DE123456789012345' });
      expect(headField(field, 'XI123456789000').ok).toBe(true);
      expect(headField(field, 'FR1').ok).toBe(true);
      expect(headField(field, 'DE1234567890123456')).toMatchObject({
        ok: false,
        message: expect.stringMatching(/^must be an EORI number/),
      });
      expect(headField(field, 'DE')).toMatchObject({ ok: false, message: expect.stringMatching(/^must be an EORI number/) });
      expect(headField(field, 'DE 123456')).toMatchObject({
        ok: false,
        message: expect.stringMatching(/^must be an EORI number/),
      });
      expect(headField(field, 'ZZ123456')).toMatchObject({
        ok: false,
        message: expect.stringMatching(/^starts with ZZ, which is not a country code/),
      });
    }
  });

  it('IOSS: IM and 10 digits', () => {
    expect(headField('IOSS', 'IM2760000742')).toEqual({ ok: true, value: 'IM2760000742' });
    for (const bad of ['IM276000074', 'IM27600007421', 'IN2760000742', 'IM276000074X', '2760000742']) {
      expect(headField('IOSS', bad), bad).toEqual({
        ok: false,
        message: 'must be an IOSS number: IM and 10 digits, e.g. IM2760000742',
      });
    }
  });

  it('HouseWaybill: 1 to 12 letters or digits', () => {
    expect(headField('HouseWaybill', 'abc123456789')).toEqual({ ok: true, value: 'ABC123456789' });
    for (const bad of ['ABC1234567890', 'HWB-1', 'HWB 1']) expect(headField('HouseWaybill', bad).ok, bad).toBe(false);
  });

  it('ImporterTaxID: one line of text, at most 50 characters', () => {
    expect(headField('ImporterTaxID', 'DE811907980')).toEqual({ ok: true, value: 'DE811907980' });
    expect(headField('ImporterTaxID', 'x'.repeat(51))).toEqual({ ok: false, message: 'must be at most 50 characters' });
  });
});

describe('customs items', () => {
  it(`at most ${MAX_CUSTOMS_ITEMS} per parcel; one more is one error`, () => {
    const many = Array.from({ length: MAX_CUSTOMS_ITEMS }, () => ITEM);
    expect(declare({ ...CUSTOMS, Items: many })).toMatchObject({ ok: true, customs: { Items: { length: MAX_CUSTOMS_ITEMS } } });
    expect(declare({ ...CUSTOMS, Items: [...many, ITEM] })).toEqual({
      ok: false,
      details: [
        {
          path: 'package.Customs.Items',
          message: `must hold at most ${MAX_CUSTOMS_ITEMS} items per parcel (got ${MAX_CUSTOMS_ITEMS + 1})`,
        },
      ],
    });
    // Measured before anything is read: a long list of bad items is still one error.
    expect(declare({ ...CUSTOMS, Items: Array.from({ length: 100_000 }, () => ({ Quantity: -1 })) })).toMatchObject({
      ok: false,
      details: { length: 1 },
    });
  });

  it('must be a list of objects', () => {
    expect(declare({ ...CUSTOMS, Items: ITEM })).toEqual({
      ok: false,
      details: [{ path: 'package.Customs.Items', message: 'must be an array of items' }],
    });
    expect(declare({ ...CUSTOMS, Items: [ITEM, 'shirt', null] })).toEqual({
      ok: false,
      details: [
        { path: 'package.Customs.Items[1]', message: 'must be an object: one kind of goods in the parcel' },
        { path: 'package.Customs.Items[2]', message: 'must be an object: one kind of goods in the parcel' },
      ],
    });
  });

  it('names every failing field of every item at once', () => {
    const result = declare({ ...CUSTOMS, Items: [{ Quantity: 0 }, ITEM, { ...ITEM, HSCode: '77', Value: '1.234' }] });
    expect(result).toEqual({
      ok: false,
      details: [
        { path: 'package.Customs.Items[0].Description', message: 'is required' },
        { path: 'package.Customs.Items[0].Quantity', message: 'must be between 1 and 1000000' },
        { path: 'package.Customs.Items[0].Value', message: 'is required' },
        { path: 'package.Customs.Items[2].HSCode', message: 'must be 6 to 10 digits (got 2), e.g. 610910 or 6109.10.00' },
        { path: 'package.Customs.Items[2].Value', message: 'must have at most 2 decimal places for USD' },
      ],
    });
  });

  it('Description: specific words, refusing one word and generic words with what would do', () => {
    for (const good of ['Cotton T-shirt', "Men's leather shoes", 'Car parts', 'Ceramic coffee mugs', '2 wool scarves']) {
      expect(itemField('Description', good), good).toEqual({ ok: true, value: good });
    }
    for (const vague of [
      'T-shirt',
      'gift',
      'Gifts',
      'gift items',
      'Various goods',
      'Assorted parts and accessories',
      'STUFF',
      'merchandise',
      'sample',
      '3 items',
      'misc. products',
    ]) {
      const result = itemField('Description', vague);
      expect(result.ok, vague).toBe(false);
      expect(result.message, vague).toMatch(/^is too vague for customs: .*e\.g\. "Cotton T-shirt"/);
    }
    expect(vagueDescription('T-shirt')).toMatch(/one word is not a description/);
    expect(vagueDescription('gift items')).toMatch(
      /generic words \(gift, parts, accessories, goods, items, merchandise, sample, stuff, various…\)/,
    );
  });

  it('Description: by length, and the text rule', () => {
    const words = (n: number) => `Cotton ${'t'.repeat(n - 7)}`;
    expect(itemField('Description', words(256)).ok).toBe(true);
    expect(itemField('Description', words(257))).toEqual({ ok: false, message: 'must be at most 256 characters' });
    expect(itemField('Description', words(10_000))).toEqual({ ok: false, message: 'must be at most 256 characters' });
    expect(itemField('Description', 'Cotton\u0000T-shirt')).toEqual({
      ok: false,
      message: 'must not contain control characters (found NUL at position 6)',
    });
    expect(itemField('Description', 'Cotton T-shirt \ud800')).toEqual({
      ok: false,
      message: 'must be valid Unicode text (it contains an unpaired surrogate)',
    });
    expect(itemField('Description', 'Cotton\nT-shirt')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^must not contain control characters/),
    });
    expect(itemField('Description', '')).toEqual({ ok: false, message: 'is required' });
  });

  it('Quantity: a positive whole number', () => {
    expect(itemField('Quantity', '3')).toEqual({ ok: true, value: 3 });
    expect(itemField('Quantity', 1_000_000)).toEqual({ ok: true, value: 1_000_000 });
    for (const bad of [0, 1_000_001])
      expect(itemField('Quantity', bad)).toEqual({ ok: false, message: 'must be between 1 and 1000000' });
    for (const bad of [-1, 1.5, 'two'])
      expect(itemField('Quantity', bad)).toEqual({ ok: false, message: 'must be a whole number' });
  });

  it("Value: a non-negative decimal with at most the currency's decimals, written with exactly them", () => {
    expect(itemField('Value', '12.5')).toEqual({ ok: true, value: '12.50' });
    expect(itemField('Value', 12)).toEqual({ ok: true, value: '12.00' });
    expect(itemField('Value', '0')).toEqual({ ok: true, value: '0.00' });
    expect(itemField('Value', '007.10')).toEqual({ ok: true, value: '7.10' });
    expect(itemField('Value', '12.345')).toEqual({ ok: false, message: 'must have at most 2 decimal places for USD' });
    expect(itemField('Value', '1500', { Currency: 'JPY' })).toEqual({ ok: true, value: '1500' });
    expect(itemField('Value', '1500.5', { Currency: 'JPY' })).toEqual({
      ok: false,
      message: 'must be a whole amount: JPY has no minor unit',
    });
    expect(itemField('Value', '1500.0', { Currency: 'jpy' })).toEqual({
      ok: false,
      message: 'must be a whole amount: JPY has no minor unit',
    });
    expect(itemField('Value', '1.234', { Currency: 'BHD' })).toEqual({ ok: true, value: '1.234' });
    expect(itemField('Value', '1.2345', { Currency: 'BHD' })).toEqual({
      ok: false,
      message: 'must have at most 3 decimal places for BHD',
    });
    for (const negative of ['-1', -0.5, '-0'])
      expect(itemField('Value', negative), String(negative)).toEqual({ ok: false, message: 'must not be negative' });
    for (const bad of [1e308, '1e308', 'NaN', '12,50', '$12', '.5']) {
      expect(itemField('Value', bad), String(bad)).toEqual({
        ok: false,
        message: 'must be a decimal amount written out, e.g. "12.50"',
      });
    }
    expect(itemField('Value', `1${'0'.repeat(308)}`)).toEqual({ ok: false, message: 'must be less than 1000000000000' });
    expect(itemField('Value', '999999999999.99')).toEqual({ ok: true, value: '999999999999.99' });
    expect(itemField('Value', null)).toEqual({ ok: false, message: 'is required' });
  });

  it('a currency this list does not have leaves the values unchecked and refuses the currency', () => {
    expect(declare({ ...CUSTOMS, Currency: 'ZZZ', Items: [{ ...ITEM, Value: '1.23456' }] })).toEqual({
      ok: false,
      details: [{ path: 'package.Customs.Currency', message: 'is not an ISO 4217 currency code (ZZZ); e.g. USD, EUR or JPY' }],
    });
  });

  it('Weight and WeightUnit: a positive decimal and lb, kg or oz, the unit required with the weight', () => {
    expect(itemField('Weight', '0.125')).toEqual({ ok: true, value: '0.125' });
    expect(itemField('Weight', 0)).toEqual({ ok: false, message: 'must be greater than 0' });
    expect(itemField('Weight', '1.2345')).toEqual({ ok: false, message: 'must have at most 3 decimal places' });
    expect(itemField('WeightUnit', 'OZ')).toEqual({ ok: true, value: 'oz' });
    expect(itemField('WeightUnit', 'g')).toEqual({ ok: false, message: 'must be one of: lb, kg, oz' });
    expect(itemField('WeightUnit', '')).toEqual({ ok: false, message: 'is required when Weight is given (one of: lb, kg, oz)' });
    const { Weight: _weight, WeightUnit: _unit, ...noWeight } = ITEM;
    expect(declare({ ...CUSTOMS, Items: [noWeight] }).ok).toBe(true);
  });

  it('HSCode: 6 to 10 digits, its chapter a real one', () => {
    expect(itemField('HSCode', '610910')).toEqual({ ok: true, value: '610910' });
    expect(itemField('HSCode', 610910)).toEqual({ ok: true, value: '610910' });
    expect(itemField('HSCode', '6109.10.0012')).toEqual({ ok: true, value: '6109100012' });
    expect(itemField('HSCode', '0101 21')).toEqual({ ok: true, value: '010121' });
    expect(itemField('HSCode', '970110')).toEqual({ ok: true, value: '970110' });
    for (const letters of ['61091A', 'HS610910', '6109-10']) {
      expect(itemField('HSCode', letters), letters).toEqual({
        ok: false,
        message: 'must be digits only (an HS code has no letters), 6 to 10 of them, e.g. 610910 or 6109.10.00',
      });
    }
    expect(itemField('HSCode', '61091')).toEqual({
      ok: false,
      message: 'must be 6 to 10 digits (got 5), e.g. 610910 or 6109.10.00',
    });
    expect(itemField('HSCode', '61091000123')).toEqual({
      ok: false,
      message: 'must be 6 to 10 digits (got 11), e.g. 610910 or 6109.10.00',
    });
    for (const chapter of ['00', '77', '98', '99']) {
      expect(itemField('HSCode', `${chapter}0110`), chapter).toEqual({
        ok: false,
        message: `starts with ${chapter}, which is not a chapter of the Harmonized System (01 to 97; 77 is reserved)`,
      });
    }
    expect(readHsCode('6109.10')).toEqual({ value: '610910' });
  });

  it('OriginCountry: a real ISO 3166-1 alpha-2 code', () => {
    expect(itemField('OriginCountry', 'de')).toEqual({ ok: true, value: 'DE' });
    expect(itemField('OriginCountry', 'XK')).toEqual({ ok: true, value: 'XK' });
    for (const unknown of ['UK', 'QQ', 'EU'])
      expect(itemField('OriginCountry', unknown).message, unknown).toMatch(/^is not an ISO 3166-1 country code/);
    for (const bad of ['CHN', 'C', '12'])
      expect(itemField('OriginCountry', bad).message, bad).toMatch(/^must be an ISO 3166-1 alpha-2 country code/);
  });

  it('every text field keeps the text rule: NUL and a lone surrogate are refused by name', () => {
    for (const bad of ['a\u0000b', 'a\ud800b']) {
      for (const field of ['Description', 'Value', 'WeightUnit', 'HSCode', 'OriginCountry', 'Quantity', 'Weight']) {
        expect(itemField(field, bad).message, field).toMatch(/^must (not contain control characters|be valid Unicode text)/);
      }
      for (const field of [
        'ContentsType',
        'Incoterm',
        'Currency',
        'ExporterEORI',
        'ImporterEORI',
        'ImporterTaxID',
        'IOSS',
        'HouseWaybill',
      ]) {
        expect(headField(field, bad).message, field).toMatch(/^must (not contain control characters|be valid Unicode text)/);
      }
    }
  });
});

describe('customs in a container names the package', () => {
  it('parses each package its own declaration and names a failing field by package and item', () => {
    const details = [0, 1, 2, 3].map((i) => ({
      ...containerDetail(`TN${i}`),
      Customs: { ...CUSTOMS, Items: [{ ...ITEM, Value: i === 3 ? '1.001' : '2' }] },
    }));
    const error = failure(() => parseContainer({ ...containerSample('C1'), ContainerDetails: details }));
    expect(error.details).toEqual([
      { path: 'ContainerDetails[3].Customs.Items[0].Value', message: 'must have at most 2 decimal places for USD' },
    ]);
    const parsed = parseContainer({ ...containerSample('C1'), ContainerDetails: details.slice(0, 3) });
    expect(parsed.packages.map((p) => p.Customs?.Items?.[0]?.Value)).toEqual(['2.00', '2.00', '2.00']);
    expect(parseContainer(containerSample('C1', ['TN1'])).packages[0]).not.toHaveProperty('Customs');
  });

  it('the portal grid still has its text cells only, and the document still shows Customs', () => {
    expect(Object.keys(ZContainerDetail.shape)).not.toContain('Customs');
    expect(Object.keys(ZPackage.shape)).toContain('Customs');
  });
});

describe('air cargo on the container', () => {
  it('ULD: IATA Resolution 686 type, 4-5 digit serial, 2-3 character owner', () => {
    expect(headerField('ULD', 'AKE12345XH')).toEqual({ ok: true, value: 'AKE12345XH' });
    expect(headerField('ULD', 'ake 1234 dl')).toEqual({ ok: true, value: 'AKE1234DL' });
    expect(headerField('ULD', 'PMC-12345-LH')).toEqual({ ok: true, value: 'PMC12345LH' });
    expect(headerField('ULD', 'RKN12345ABC')).toEqual({ ok: true, value: 'RKN12345ABC' });
    expect(headerField('ULD', 'AKE123456XH')).toEqual({ ok: true, value: 'AKE123456XH' });
    expect(headerField('ULD', 'XYZ12345XH')).toEqual({
      ok: false,
      path: 'ULD',
      message: expect.stringMatching(/^has an unknown ULD type code XYZ/),
    });
    for (const bad of ['AKE123XH', 'AKE1234567XH', 'AKE12345', 'AKE1234X', 'AKE1234512', 'AK12345XH', 'AKE12345XHLX']) {
      expect(headerField('ULD', bad), bad).toEqual({
        ok: false,
        path: 'ULD',
        message: expect.stringMatching(/^must be a ULD id \(IATA Resolution 686\)/),
      });
    }
    expect(readUld('PAG 12345 XH')).toEqual({ value: 'PAG12345XH' });
  });

  it("the container's ULD: ULD as sent, else a ULD-shaped ContainerID; the header is stored as sent", () => {
    expect(containerUld({ ULD: 'AKE12345XH', ContainerID: 'PMC11111LH' })).toBe('AKE12345XH');
    expect(containerUld({ ContainerID: 'pmc11111lh' })).toBe('PMC11111LH');
    expect(containerUld({ ContainerID: 'ULD-0001' })).toBeUndefined();
    expect(containerUld({})).toBeUndefined();
    const { header } = parseContainer(containerSample('AKE12345XH'));
    expect(header.ContainerID).toBe('AKE12345XH');
    expect(header).not.toHaveProperty('ULD');
  });

  it('FlightNumber: IATA airline designator, 1-4 digits, optional letter', () => {
    for (const [given, value] of [
      ['LH400', 'LH400'],
      ['lh 400', 'LH400'],
      ['UA9A', 'UA9A'],
      ['U21234', 'U21234'],
      ['3K1', '3K1'],
    ]) {
      expect(headerField('FlightNumber', given), given).toEqual({ ok: true, value });
    }
    for (const bad of ['12345', '99123', 'LH12345', 'L', 'LH', 'LH400AB', 'DLH400']) {
      expect(headerField('FlightNumber', bad), bad).toEqual({
        ok: false,
        path: 'FlightNumber',
        message: expect.stringMatching(/^must be a flight number/),
      });
    }
  });

  it('FlightDate: an ISO date, a real day', () => {
    expect(headerField('FlightDate', '2026-12-01')).toEqual({ ok: true, value: '2026-12-01' });
    expect(headerField('FlightDate', '2026-02-30')).toEqual({
      ok: false,
      path: 'FlightDate',
      message: 'is not a real calendar date',
    });
    expect(headerField('FlightDate', '2026-12-01T10:00:00Z')).toEqual({
      ok: false,
      path: 'FlightDate',
      message: 'must be an ISO 8601 date, e.g. 2026-12-01',
    });
  });

  it('airports: three-letter IATA codes; SealNumber: one line of text', () => {
    expect(headerField('OriginAirport', 'jfk')).toEqual({ ok: true, value: 'JFK' });
    expect(headerField('DestinationAirport', 'FR')).toEqual({
      ok: false,
      path: 'DestinationAirport',
      message: 'must be a three-letter IATA airport code',
    });
    expect(headerField('SealNumber', 'SL-004711')).toEqual({ ok: true, value: 'SL-004711' });
    expect(headerField('SealNumber', 'x'.repeat(36))).toEqual({
      ok: false,
      path: 'SealNumber',
      message: 'must be at most 35 characters',
    });
  });

  it('Security: Status from the CSD list (required), screening method codes, who issued it', () => {
    expect(headerField('Security', { Status: 'spx', ScreeningMethod: 'xry, edd', IssuedBy: 'US/RA/00123' })).toEqual({
      ok: true,
      value: { Status: 'SPX', ScreeningMethod: 'XRY EDD', IssuedBy: 'US/RA/00123' },
    });
    for (const status of ['SPX', 'SCO', 'SHR', 'NSC']) expect(headerField('Security', { Status: status }).ok, status).toBe(true);
    expect(headerField('Security', { Status: 'SPY' })).toEqual({
      ok: false,
      path: 'Security.Status',
      message: 'must be one of: SPX, SCO, SHR, NSC',
    });
    expect(headerField('Security', { ScreeningMethod: 'XRY' })).toEqual({
      ok: false,
      path: 'Security.Status',
      message: 'is required',
    });
    expect(headerField('Security', { Status: 'SPX', ScreeningMethod: 'scanner' })).toMatchObject({
      ok: false,
      path: 'Security.ScreeningMethod',
    });
    expect(headerField('Security', 'SPX')).toEqual({
      ok: false,
      path: 'Security',
      message: 'must be an object: the consignment security declaration',
    });
    for (const none of ['', null]) expect(headerField('Security', none)).toEqual({ ok: true, value: undefined });
  });

  it('every new header field is optional: the sample parses exactly as before', () => {
    const { header } = parseContainer(containerSample('C1', ['TN1']));
    for (const field of ['ULD', 'SealNumber', 'FlightNumber', 'FlightDate', 'OriginAirport', 'DestinationAirport', 'Security'])
      expect(header).not.toHaveProperty(field);
  });
});

describe('warnings name unknown fields inside Customs and Security', () => {
  it('in a daily package', () => {
    const body = withCustoms({ ...CUSTOMS, Insurance: 'yes', Items: [ITEM, { ...ITEM, Colour: 'red' }] });
    expect(ignoredFields(body, PACKAGE_MANIFEST_FIELDS)).toEqual([
      { path: 'package.Customs.Items[1].Colour', message: 'is not a field of this operation: ignored, not stored' },
      { path: 'package.Customs.Insurance', message: 'is not a field of this operation: ignored, not stored' },
    ]);
    expect(ignoredFields(withCustoms(CUSTOMS), PACKAGE_MANIFEST_FIELDS)).toEqual([]);
    expect(parsePackage(body).Customs?.Items?.[1]).not.toHaveProperty('Colour');
  });

  it('in a container: per package, and in Security', () => {
    const body = {
      ...containerSample('C1'),
      ULD: 'AKE12345XH',
      Security: { Status: 'SPX', Regulated: true },
      ContainerDetails: [
        containerDetail('TN0'),
        { ...containerDetail('TN1'), Customs: { ...CUSTOMS, Items: [{ ...ITEM, Colour: 'red' }] } },
      ],
    };
    expect(ignoredFields(body, CONTAINER_MANIFEST_FIELDS).map((w) => w.path)).toEqual([
      'ContainerDetails[1].Customs.Items[0].Colour',
      'Security.Regulated',
    ]);
  });
});
