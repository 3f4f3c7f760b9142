import { data as ISO_4217 } from 'currency-codes';
import { iso31661 } from 'iso-3166/1.js';
import { z } from 'zod';
import { decimal, identifier, integer, oneOf, text, type IdentifierReading } from './fields';
import { fieldTree, type FieldTree } from './unknown-fields';

// Customs declarations and a container's air-cargo data (docs/decisions/customs.md).

// ---------------------------------------------------------------------------------------------------------------
// Reference data: from packages, except where no package has it (each with its source).

/**
 * ISO 4217 (the `currency-codes` package) with minor-unit digits. A customs value is money, so non-currencies
 * (the "ZZ…" entries, XTS, XXX) and units of account (XDR, XSU, XUA) are left out.
 */
const UNITS_OF_ACCOUNT = new Set(['XDR', 'XSU', 'XUA']);
export const CURRENCY_MINOR_UNITS: ReadonlyMap<string, number> = new Map(
  ISO_4217.filter((c) => !UNITS_OF_ACCOUNT.has(c.code) && !c.countries.some((name) => /^zz\d/i.test(name))).map((c) => [
    c.code,
    c.digits,
  ]),
);

/** ISO 3166-1 alpha-2, plus XK: user-assigned, but what customs authorities use for Kosovo. */
export const COUNTRY_CODES: ReadonlySet<string> = new Set([...iso31661.map((c) => c.alpha2), 'XK']);

/** HS chapters 01 to 97 (2022): 77 is reserved, and 98 and 99 are national, so neither begins a declared code. */
export const HS_CHAPTERS: ReadonlySet<string> = new Set(
  Array.from({ length: 97 }, (_, i) => String(i + 1).padStart(2, '0')).filter((chapter) => chapter !== '77'),
);

// ---------------------------------------------------------------------------------------------------------------
// Field readers

const CONTENTS_TYPES = ['merchandise', 'documents', 'gift', 'sample', 'return_goods', 'other'] as const;
const INCOTERMS = ['DAP', 'DDP'] as const;
export const CUSTOMS_WEIGHT_UNITS = ['lb', 'kg', 'oz'] as const;
/** Items per parcel: a CN23 has room for far fewer; a declaration longer than this is a data error, not a parcel. */
export const MAX_CUSTOMS_ITEMS = 100;
/** The largest item value, in the currency's major unit: large enough for JPY, KRW, IDR or VND declarations. */
const MAX_CUSTOMS_VALUE = 1_000_000_000_000n;
const DESCRIPTION_MAX = 256;

function currency<R extends boolean = false>(options: { required?: R } = {}) {
  return identifier(
    {
      maxLength: 3,
      pattern: '^[A-Za-z]{3}$',
      description: 'ISO 4217 currency code (case-insensitive).',
      examples: ['USD', 'EUR', 'JPY'],
    },
    (raw): IdentifierReading => {
      const code = raw.toUpperCase();
      if (!/^[A-Z]{3}$/.test(code)) return { error: 'must be an ISO 4217 currency code: three letters, e.g. USD, EUR or JPY' };
      return CURRENCY_MINOR_UNITS.has(code)
        ? { value: code }
        : { error: `is not an ISO 4217 currency code (${code}); e.g. USD, EUR or JPY` };
    },
    options,
  );
}

function countryCode<R extends boolean = false>(options: { required?: R } = {}) {
  return identifier(
    {
      maxLength: 2,
      pattern: '^[A-Za-z]{2}$',
      description: 'ISO 3166-1 alpha-2 country code (case-insensitive).',
      examples: ['CN', 'DE', 'US'],
    },
    (raw): IdentifierReading => {
      const code = raw.toUpperCase();
      if (!/^[A-Z]{2}$/.test(code))
        return { error: 'must be an ISO 3166-1 alpha-2 country code: two letters, e.g. CN, DE or US' };
      return COUNTRY_CODES.has(code)
        ? { value: code }
        : { error: `is not an ISO 3166-1 country code (${code}); e.g. CN, DE, GB or US` };
    },
    options,
  );
}

/** "6109.10.00" and "6109 10" are how invoices write HS codes: the separators go, the digits are the code. */
export function readHsCode(raw: string): IdentifierReading {
  const digits = raw.replace(/[.\s]/g, '');
  if (!/^\d+$/.test(digits))
    return { error: 'must be digits only (an HS code has no letters), 6 to 10 of them, e.g. 610910 or 6109.10.00' };
  if (digits.length < 6 || digits.length > 10)
    return { error: `must be 6 to 10 digits (got ${digits.length}), e.g. 610910 or 6109.10.00` };
  const chapter = digits.slice(0, 2);
  if (!HS_CHAPTERS.has(chapter)) {
    return { error: `starts with ${chapter}, which is not a chapter of the Harmonized System (01 to 97; 77 is reserved)` };
  }
  return { value: digits };
}

function hsCode() {
  return identifier(
    {
      maxLength: 13,
      pattern: '^\\d{2}(?:[. ]?\\d){4,8}$',
      description:
        'Harmonized System code: 6 to 10 digits (dots or spaces between them are dropped), its first two a real HS chapter.',
      examples: ['610910', '6109.10.00'],
    },
    readHsCode,
  );
}

/** Words that say nothing of what goods are: customs authorities refuse a description made only of them. */
const GENERIC_WORDS = new Set([
  'accessories',
  'accessory',
  'article',
  'articles',
  'assorted',
  'cargo',
  'commodities',
  'commodity',
  'consolidated',
  'effects',
  'fak',
  'freight',
  'general',
  'gift',
  'gifts',
  'good',
  'goods',
  'item',
  'items',
  'merchandise',
  'misc',
  'miscellaneous',
  'mixed',
  'other',
  'others',
  'package',
  'packages',
  'parcel',
  'parcels',
  'part',
  'parts',
  'personal',
  'product',
  'products',
  'sample',
  'samples',
  'stc',
  'stuff',
  'thing',
  'things',
  'various',
]);
const FILLER_WORDS = new Set(['a', 'an', 'and', 'for', 'in', 'of', 'or', 'the', 'to', 'with']);
const SAY_WHAT = 'say what the goods are and what they are made of or for, e.g. "Cotton T-shirt" or "Leather wallet"';

export function vagueDescription(description: string): string | undefined {
  const words = description.split(/\s+/).filter(Boolean);
  if (words.length < 2) return `is too vague for customs: one word is not a description; ${SAY_WHAT}`;
  const meaningful = words
    .map((word) => word.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ''))
    .filter((word) => word !== '' && !/^\d+$/.test(word) && !FILLER_WORDS.has(word));
  if (meaningful.every((word) => GENERIC_WORDS.has(word))) {
    return `is too vague for customs: generic words (gift, parts, accessories, goods, items, merchandise, sample, stuff, various…) are not a description; ${SAY_WHAT}`;
  }
  return undefined;
}

function goodsDescription() {
  return identifier(
    {
      maxLength: DESCRIPTION_MAX,
      pattern: '^\\s*\\S+(?:\\s+\\S+)+\\s*$',
      description: `What the goods are, in words (at least two, not only generic ones such as "gift" or "parts"); at most ${DESCRIPTION_MAX} characters, one line.`,
      examples: ['Cotton T-shirt'],
    },
    (raw): IdentifierReading => {
      if (raw.length > DESCRIPTION_MAX) return { error: `must be at most ${DESCRIPTION_MAX} characters` };
      const vague = vagueDescription(raw);
      return vague ? { error: vague } : { value: raw };
    },
    { required: true },
  );
}

const DECIMAL_TEXT = /^(\d+)(?:\.(\d+))?$/;

/** A non-negative decimal written out: a JSON number is read as its text, so 1e308 is refused, not rounded. */
function declaredValue() {
  return identifier(
    {
      maxLength: 20,
      pattern: '^\\d+(?:\\.\\d+)?$',
      number: true,
      description:
        "Decimal string, not negative, with at most the currency's minor-unit decimals (2 for USD, 0 for JPY); output with exactly that many. A JSON number is read as its text (exponent notation is refused).",
      examples: ['12.50'],
    },
    (raw): IdentifierReading => {
      const match = DECIMAL_TEXT.exec(raw);
      if (!match) {
        if (/^-\s*\d/.test(raw)) return { error: 'must not be negative' };
        return { error: 'must be a decimal amount written out, e.g. "12.50"' };
      }
      const whole = (match[1] ?? '0').replace(/^0+(?=\d)/, '');
      const fraction = match[2] ?? '';
      if (BigInt(whole) >= MAX_CUSTOMS_VALUE) return { error: `must be less than ${MAX_CUSTOMS_VALUE}` };
      return { value: fraction ? `${whole}.${fraction}` : whole };
    },
    { required: true },
  );
}

/** EORI: the issuing country's code and up to 15 letters or digits (EU Regulation 2015/2447, art. 1(18)). */
const EORI = /^([A-Z]{2})([A-Z0-9]{1,15})$/;
/** XI: the United Kingdom's prefix for Northern Ireland's EORI numbers, not an ISO 3166 code. */
const EORI_PREFIXES: ReadonlySet<string> = new Set([...COUNTRY_CODES, 'XI']);

function eori() {
  return identifier(
    {
      maxLength: 17,
      pattern: '^[A-Za-z]{2}[A-Za-z0-9]{1,15}$',
      description: 'EORI number: 2-letter country code and up to 15 letters or digits.',
      examples: ['DE123456789012345'],
    },
    (raw): IdentifierReading => {
      const [, country] = EORI.exec(raw.toUpperCase()) ?? [];
      if (!country)
        return {
          error:
            'must be an EORI number: a 2-letter country code and 1 to 15 letters or digits, no spaces, e.g. DE123456789012345',
        };
      if (!EORI_PREFIXES.has(country))
        return {
          error: `starts with ${country}, which is not a country code (an EORI number starts with its issuing country, e.g. DE, FR, GB or XI)`,
        };
      return { value: raw.toUpperCase() };
    },
  );
}

function ioss() {
  return identifier(
    {
      maxLength: 12,
      pattern: '^[Ii][Mm]\\d{10}$',
      description: 'EU Import One-Stop Shop number: IM and 10 digits.',
      examples: ['IM2760000742'],
    },
    (raw): IdentifierReading =>
      /^IM\d{10}$/.test(raw.toUpperCase())
        ? { value: raw.toUpperCase() }
        : { error: 'must be an IOSS number: IM and 10 digits, e.g. IM2760000742' },
  );
}

/** The form of house waybills the carrier issues: reserved, as a shipper's number in it could equal an issued one. */
export const ISSUED_HOUSE_WAYBILL = /^H\d{11}$/;

function readHouseWaybill(raw: string): IdentifierReading {
  if (!/^[A-Za-z0-9]{1,12}$/.test(raw))
    return { error: 'must be a house waybill number: 1 to 12 letters or digits, no spaces or punctuation' };
  const value = raw.toUpperCase();
  if (ISSUED_HOUSE_WAYBILL.test(value))
    return {
      error:
        'has the form of the house waybills the carrier issues (H and 11 digits): leave HouseWaybill out to have one issued, or send your own number in another form',
    };
  return { value };
}

/** A house waybill number as Cargo-IMP (FHL, FWB) carries one: up to 12 letters or digits. */
function houseWaybill() {
  return identifier(
    {
      maxLength: 12,
      pattern: '^[A-Za-z0-9]{1,12}$',
      description:
        'House waybill number: 1 to 12 letters or digits (as Cargo-IMP carries it); upper-cased. Leave it out and the carrier issues one (H and 11 digits, a form a shipper may not send), read back as `house_waybill`.',
      examples: ['HWB12345678'],
    },
    readHouseWaybill,
  );
}

// ---------------------------------------------------------------------------------------------------------------
// The customs declaration

export const ZCustomsItem = z.object({
  Description: goodsDescription(),
  Quantity: integer({ required: true, min: 1, max: 1_000_000 }),
  Value: declaredValue(),
  Weight: decimal({ maxDecimals: 3, max: 10_000 }),
  WeightUnit: oneOf(CUSTOMS_WEIGHT_UNITS),
  HSCode: hsCode(),
  OriginCountry: countryCode(),
});
export type TCustomsItem = z.output<typeof ZCustomsItem>;

const ZCustomsHead = z.object({
  ContentsType: oneOf(CONTENTS_TYPES),
  Incoterm: oneOf(INCOTERMS),
  Currency: currency(),
  ExporterEORI: eori(),
  ImporterEORI: eori(),
  ImporterTaxID: text({ max: 50 }),
  IOSS: ioss(),
  HouseWaybill: houseWaybill(),
});

export type TCustoms = z.output<typeof ZCustomsHead> & { Items?: TCustomsItem[] };

type Ctx = z.RefinementCtx;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function blank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

function issue(ctx: Ctx, path: PropertyKey[], message: string): void {
  ctx.addIssue({ code: 'custom', path, message });
}

function forward(ctx: Ctx, prefix: PropertyKey[], issues: readonly z.core.$ZodIssue[]): void {
  for (const each of issues) ctx.addIssue({ ...each, path: [...prefix, ...each.path] });
}

/** Each field of `item` that parses by itself: what the cross-field checks can still use when another field failed. */
function fieldByField(item: Record<string, unknown>): Partial<TCustomsItem> {
  const out: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(ZCustomsItem.shape)) out[key] = schema.safeParse(item[key]).data;
  return out;
}

function inCurrency(value: string, code: string, digits: number): IdentifierReading {
  const [whole, fraction = ''] = value.split('.');
  if (fraction.length > digits) {
    return {
      error:
        digits === 0
          ? `must be a whole amount: ${code} has no minor unit`
          : `must have at most ${digits} decimal places for ${code}`,
    };
  }
  return { value: digits === 0 ? `${whole}` : `${whole}.${fraction.padEnd(digits, '0')}` };
}

/**
 * The items, measured before they are read (a long list costs one error, not one per item), each read alone so
 * that every failing field is named (`Items[3].HSCode`).
 */
function readItems(value: unknown, currencyCode: string | undefined, ctx: Ctx): TCustomsItem[] | undefined | typeof z.NEVER {
  if (blank(value)) return undefined;
  if (!Array.isArray(value)) {
    issue(ctx, ['Items'], 'must be an array of items');
    return z.NEVER;
  }
  if (value.length > MAX_CUSTOMS_ITEMS) {
    issue(ctx, ['Items'], `must hold at most ${MAX_CUSTOMS_ITEMS} items per parcel (got ${value.length})`);
    return z.NEVER;
  }
  const digits = currencyCode === undefined ? undefined : CURRENCY_MINOR_UNITS.get(currencyCode);
  const items: TCustomsItem[] = [];
  let failed = false;
  value.forEach((raw, index) => {
    if (!isRecord(raw)) {
      issue(ctx, ['Items', index], 'must be an object: one kind of goods in the parcel');
      failed = true;
      return;
    }
    const parsed = ZCustomsItem.safeParse(raw);
    if (!parsed.success) {
      forward(ctx, ['Items', index], parsed.error.issues);
      failed = true;
    }
    const item = parsed.success ? parsed.data : fieldByField(raw);
    if (item.Weight !== undefined && item.WeightUnit === undefined && blank(raw.WeightUnit)) {
      issue(ctx, ['Items', index, 'WeightUnit'], `is required when Weight is given (one of: ${CUSTOMS_WEIGHT_UNITS.join(', ')})`);
      failed = true;
    }
    const reading =
      item.Value !== undefined && currencyCode !== undefined && digits !== undefined
        ? inCurrency(item.Value, currencyCode, digits)
        : undefined;
    if (reading && 'error' in reading) {
      issue(ctx, ['Items', index, 'Value'], reading.error);
      failed = true;
    }
    if (parsed.success) items.push(reading && 'value' in reading ? { ...parsed.data, Value: reading.value } : parsed.data);
  });
  return failed ? z.NEVER : items;
}

function jsonOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _schema, ...json } = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    target: 'draft-2020-12',
  }) as Record<string, unknown>;
  return json;
}

const ITEMS_JSON = {
  type: ['array', 'null'],
  maxItems: MAX_CUSTOMS_ITEMS,
  items: jsonOf(ZCustomsItem),
  description: `The goods in the parcel, one entry per kind; at most ${MAX_CUSTOMS_ITEMS}. Currency is required with them.`,
};

/** The declaration as documented (the OpenAPI document shows it). */
const ZCustomsDocumented = ZCustomsHead.extend({ Items: z.unknown().meta(ITEMS_JSON).optional() });

/** `Customs` on a package: read in one pass that names every failing field. */
export function customs() {
  return z
    .unknown()
    .transform((value, ctx): TCustoms | undefined => {
      if (blank(value)) return undefined;
      if (!isRecord(value)) {
        issue(ctx, [], 'must be an object: the customs declaration');
        return z.NEVER;
      }
      const head = ZCustomsHead.safeParse(value);
      if (!head.success) forward(ctx, [], head.error.issues);
      // The items' decimals need the currency even when another field of the head failed.
      const code = head.success ? head.data.Currency : ZCustomsHead.shape.Currency.safeParse(value.Currency).data;
      const items = readItems(value.Items, code, ctx);
      if (Array.isArray(value.Items) && value.Items.length > 0 && blank(value.Currency)) {
        issue(ctx, ['Currency'], 'is required with Items: the currency of their Value');
        return z.NEVER;
      }
      if (!head.success || items === z.NEVER) return z.NEVER;
      return items && items.length > 0 ? { ...head.data, Items: items } : head.data;
    })
    .meta({
      ...jsonOf(ZCustomsDocumented),
      type: ['object', 'null'],
      description:
        'The customs declaration of the parcel (cross-border shipments); optional. See the customs guide for each rule.',
    })
    .optional();
}

export const CUSTOMS_FIELDS: FieldTree = fieldTree(ZCustomsDocumented.shape, {}, { Items: fieldTree(ZCustomsItem.shape) });

// ---------------------------------------------------------------------------------------------------------------
// Air cargo: the container's ULD, flight and security status

/** ULD type codes (IATA Resolution 686) of common fleets; a missing type is added when a shipper needs it. */
export const ULD_TYPES: ReadonlySet<string> = new Set([
  // Certified containers: LD3 and variants, LD1, LD6, LD11, LD9, LD26, LD29, M1 and main-deck types
  'AKE',
  'AKH',
  'AKN',
  'AKC',
  'ALF',
  'ALP',
  'AAP',
  'AAF',
  'AAU',
  'AAD',
  'AAA',
  'AMA',
  'AMF',
  'AMJ',
  'AMP',
  // Non-certified lower-deck containers: LD2, LD8
  'DPE',
  'DQF',
  // Temperature-controlled containers
  'RKN',
  'RAP',
  // Pallets: 88x125, 96x125, 60.4x125, 53x88, 20 ft, 16 ft, LD3-size
  'PAG',
  'PAJ',
  'PMC',
  'PLA',
  'PYB',
  'PEB',
  'PGA',
  'PRA',
  'PKC',
  // Horse stall
  'HMJ',
]);

/** Type, serial and owner, with an optional space or hyphen between them (as painted on some units). */
const ULD = /^([A-Z]{3})[ -]?(\d{4,5})[ -]?((?=[A-Z0-9]*[A-Z])[A-Z0-9]{2,3})$/;

/** A ULD id (IATA Resolution 686): type code, 4–5 digit serial, 2–3 character owner code; output without separators. */
export function readUld(raw: string): IdentifierReading {
  const [, type, serial, owner] = ULD.exec(raw.trim().toUpperCase()) ?? [];
  if (!type || !serial || !owner) {
    return {
      error:
        'must be a ULD id (IATA Resolution 686): a 3-letter type code, a 4 or 5 digit serial and a 2 or 3 character owner code, e.g. AKE12345XH',
    };
  }
  if (!ULD_TYPES.has(type))
    return { error: `has an unknown ULD type code ${type}; e.g. AKE, AKH, AKN, AAP, AMJ, PMC, PAG, PLA, PYB, RKN or RAP` };
  return { value: `${type}${serial}${owner}` };
}

export function uld() {
  return identifier(
    {
      maxLength: 12,
      pattern: '^[A-Za-z]{3}[ -]?\\d{4,5}[ -]?[A-Za-z0-9]{2,3}$',
      description:
        'Unit load device (IATA Resolution 686): type code, 4-5 digit serial, 2-3 character owner code; output upper-case, without separators.',
      examples: ['AKE12345XH'],
    },
    readUld,
  );
}

/** `ULD` as sent, else a ULD-shaped `ContainerID`: derived at read, since the header is stored as sent. */
export function containerUld(header: { ULD?: string; ContainerID?: string }): string | undefined {
  if (header.ULD) return header.ULD;
  if (!header.ContainerID) return undefined;
  const reading = readUld(header.ContainerID);
  return 'value' in reading ? reading.value : undefined;
}

/** IATA airline designator (2 characters, not both digits), 1-4 digit flight number, optional operational suffix. */
const FLIGHT = /^((?=[A-Z0-9]{0,1}[A-Z])[A-Z0-9]{2}) ?(\d{1,4})([A-Z]?)$/;

export function flightNumber() {
  return identifier(
    {
      maxLength: 8,
      pattern: '^[A-Za-z0-9]{2} ?\\d{1,4}[A-Za-z]?$',
      description:
        'Flight: 2-character IATA airline designator, 1-4 digits, optional letter suffix; output upper-case without a space.',
      examples: ['LH400', 'UA9A'],
    },
    (raw): IdentifierReading => {
      const [, airline, digits, suffix] = FLIGHT.exec(raw.toUpperCase()) ?? [];
      if (!airline || !digits) {
        return {
          error:
            'must be a flight number: the 2-character IATA airline designator, 1 to 4 digits and an optional letter, e.g. LH400 or UA9A',
        };
      }
      return { value: `${airline}${digits}${suffix ?? ''}` };
    },
  );
}

/** Security status of a consignment, as a Consignment Security Declaration (ICAO Annex 17, IATA e-CSD) states it. */
export const SECURITY_STATUSES = ['SPX', 'SCO', 'SHR', 'NSC'] as const;
/** e-CSD screening method codes. */
export const SCREENING_METHODS: ReadonlySet<string> = new Set(['PHS', 'VCK', 'XRY', 'EDS', 'EDD', 'ETD', 'CMD', 'AOM']);

function screeningMethods() {
  return identifier(
    {
      maxLength: 40,
      description: `One or more e-CSD screening method codes (${[...SCREENING_METHODS].join(', ')}), separated by commas or spaces; output space-separated.`,
      examples: ['XRY', 'XRY EDD'],
    },
    (raw): IdentifierReading => {
      const codes = raw
        .toUpperCase()
        .split(/[\s,]+/)
        .filter(Boolean);
      const unknown = codes.filter((code) => !SCREENING_METHODS.has(code));
      if (codes.length === 0 || unknown.length > 0) {
        return {
          error: `must be e-CSD screening method codes (${[...SCREENING_METHODS].join(', ')}), separated by commas or spaces`,
        };
      }
      return { value: [...new Set(codes)].join(' ') };
    },
  );
}

const ZSecurity = z.object({
  Status: oneOf(SECURITY_STATUSES, { required: true }),
  ScreeningMethod: screeningMethods(),
  IssuedBy: text({ max: 100 }),
});
export type TSecurity = z.output<typeof ZSecurity>;

/** `Security` on a container: optional ("" and null mean none); Status is required when it is sent. */
export function security() {
  return z
    .unknown()
    .transform((value, ctx): TSecurity | undefined => {
      if (blank(value)) return undefined;
      if (!isRecord(value)) {
        issue(ctx, [], 'must be an object: the consignment security declaration');
        return z.NEVER;
      }
      const parsed = ZSecurity.safeParse(value);
      if (parsed.success) return parsed.data;
      forward(ctx, [], parsed.error.issues);
      return z.NEVER;
    })
    .meta({
      ...jsonOf(ZSecurity),
      type: ['object', 'null'],
      description:
        'Consignment security declaration: Status (SPX, SCO, SHR or NSC), ScreeningMethod codes, IssuedBy (the regulated agent).',
    })
    .optional();
}

export const SECURITY_FIELDS: FieldTree = fieldTree(ZSecurity.shape);
