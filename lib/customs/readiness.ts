import { vagueDescription } from '@/lib/schemas/customs';
import type { CustomsRegime, TCustomsReadiness, TReadinessProblem, TRegimeReadiness } from '@/lib/schemas/customs-api';
import { CUSTOMS_OUTCOMES } from '@/lib/schemas/statuses';
import { airportCountry, countryCode } from './countries';
import { flightTimes, type FlightTimes } from './flight';

// Customs readiness of a manifest, per destination regime (design.md "Customs and air cargo"; docs/decisions/customs.md):
// which regimes its houses fall under (from where they fly to, and from), and for each, every element a house or
// the master lacks or holds in a form the authority refuses, with the filing deadline computed from the flight.
// A pure function of the stored manifest and packages (lib/customs/get-readiness.ts reads them), so the rules are
// tested without a database and the benchmark can time them apart from the reads.

/** Problems listed per regime at most; the rest are counted (`problems_truncated`) and still in `by_field`. */
export const MAX_LISTED_PROBLEMS = 25_000;

/** ICS2 territory: the EU's 27 and Monaco (in its customs territory), with Norway and Switzerland, which run ICS2 too; XI is Northern Ireland. */
const ICS2_COUNTRIES: ReadonlySet<string> = new Set([
  'AT', 'BE', 'BG', 'HR', 'CY', 'CZ', 'DK', 'EE', 'FI', 'FR', 'DE', 'GR', 'HU', 'IE', 'IT', 'LV', 'LT', 'LU', 'MT', 'NL',
  'PL', 'PT', 'RO', 'SK', 'SI', 'ES', 'SE', 'MC', 'NO', 'CH', 'XI',
]); // prettier-ignore
/** CBP's customs territory for ACAS: the states and Puerto Rico. */
const US_COUNTRIES: ReadonlySet<string> = new Set(['US', 'PR']);
const CA_COUNTRIES: ReadonlySet<string> = new Set(['CA']);

/** What a house is checked for; each regime lists the elements it needs. */
type Element =
  | 'consignor_name'
  | 'consignor_address'
  | 'consignor_postal_code'
  | 'consignee_name'
  | 'consignee_address'
  | 'consignee_postal_code'
  | 'consignee_phone'
  | 'consignee_email'
  | 'gross_weight'
  | 'goods_description'
  | 'declared_items'
  | 'hs_codes'
  | 'origin_and_value'
  | 'house_waybill';

type MasterElement = 'awb' | 'flight_number' | 'flight_date' | 'origin_airport' | 'destination_airport';

interface RegimeSpec {
  id: CustomsRegime;
  name: string;
  territory: ReadonlySet<string>;
  /** before_loading: the flight's departure; four_hours: at departure under 4 h of flight, else 4 h before arrival. */
  deadline: 'before_loading' | 'four_hours';
  house: readonly Element[];
  master: readonly MasterElement[];
}

const SEVEN_PLUS_ONE: readonly Element[] = [
  'consignor_name',
  'consignor_address',
  'consignee_name',
  'consignee_address',
  'gross_weight',
  'goods_description',
  'house_waybill',
];

export const REGIMES: readonly RegimeSpec[] = [
  {
    id: 'eu_ics2_placi',
    name: 'EU ICS2 pre-loading (PLACI 7+1)',
    territory: ICS2_COUNTRIES,
    deadline: 'before_loading',
    house: SEVEN_PLUS_ONE,
    master: ['awb', 'flight_date'],
  },
  {
    id: 'eu_ics2_ens',
    name: 'EU ICS2 full entry summary declaration (ENS)',
    territory: ICS2_COUNTRIES,
    deadline: 'four_hours',
    house: [...SEVEN_PLUS_ONE, 'consignor_postal_code', 'consignee_postal_code', 'declared_items', 'hs_codes'],
    master: ['awb', 'flight_number', 'flight_date', 'origin_airport', 'destination_airport'],
  },
  {
    id: 'us_acas',
    name: 'US Air Cargo Advance Screening (ACAS 7+1)',
    territory: US_COUNTRIES,
    deadline: 'before_loading',
    house: SEVEN_PLUS_ONE,
    master: ['awb', 'flight_date'],
  },
  {
    id: 'us_enhanced_acas',
    name: 'US Enhanced ACAS (and entry without de minimis)',
    territory: US_COUNTRIES,
    deadline: 'before_loading',
    house: [...SEVEN_PLUS_ONE, 'consignor_postal_code', 'consignee_phone', 'consignee_email', 'origin_and_value'],
    master: ['awb', 'flight_number', 'flight_date', 'origin_airport'],
  },
  {
    id: 'ca_emanifest',
    name: 'Canada CBSA eManifest (air house bill)',
    territory: CA_COUNTRIES,
    deadline: 'four_hours',
    house: [...SEVEN_PLUS_ONE, 'consignee_postal_code'],
    master: ['awb', 'flight_number', 'flight_date', 'origin_airport', 'destination_airport'],
  },
];

/** The manifest as readiness reads it: a container's header (From*, AWB, flight), or nothing for a daily manifest. */
export interface ReadinessManifest {
  id: string;
  type: 'container' | 'daily';
  /** A container's stored header (and its AWB); undefined for a daily manifest. */
  header?: Record<string, unknown>;
  uld?: string | null;
}

/** One package as stored. */
export interface ReadinessPackage {
  /** The row's id in its table, for the list's filter of houses not ready (absent where no one asks). */
  id?: string;
  /** ContainerDetails index of a container's package; arrival order (from 0) of a daily manifest's. */
  row: number;
  trackingNumber: string | null;
  carrierBarcode: string;
  houseWaybill: string;
  customsStatus: string | null;
  body: Record<string, unknown>;
}

interface Finding {
  field: string;
  code: 'missing' | 'invalid';
  message: string;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : typeof value === 'number' ? String(value) : undefined;
}

const US_ZIP = /^\d{5}(?:-\d{4})?$/;
const CA_POSTAL = /^[A-Za-z]\d[A-Za-z] ?\d[A-Za-z]\d$/;

/** Where a consignee is, from ToCountry, else from a postal code only one country writes (a Canadian one). */
function consigneeCountry(body: Record<string, unknown>): string | undefined {
  const named = countryCode(body.ToCountry);
  if (named) return named;
  if (text(body.ToCountry)) return undefined;
  const postal = text(body.ToPostalCode);
  if (postal && CA_POSTAL.test(postal)) return 'CA';
  // A bare 5-digit code is a US ZIP only without a country saying otherwise (a German code is 5 digits too).
  if (postal && US_ZIP.test(postal)) return 'US';
  return undefined;
}

/** Each element's findings for one house, computed once and shared by the regimes that need it. */
/** "missing: …" messages, made once each (a container with a gap repeats one for every house). */
const MISSING = new Map<string, string>();
function remember(what: string): string {
  const message = `missing: ${what}`;
  if (MISSING.size < 1_000) MISSING.set(what, message);
  return message;
}

class HouseCheck {
  private readonly cache = new Map<Element, TReadinessProblem[]>();
  private readonly items: Record<string, unknown>[] | undefined;
  private readonly declaration: Record<string, unknown> | undefined;

  constructor(
    readonly pkg: ReadinessPackage,
    /** The consignor's fields: the container's header, or the daily package itself. */
    private readonly consignor: Record<string, unknown>,
    /** The container's ShipmentDescription, what a house without declared items is described by. */
    private readonly fallbackDescription: unknown,
    private readonly consignorAtManifest: boolean,
    private readonly duplicateHouse: boolean,
    /** What a field's path starts with: `ContainerDetails[3].` or `package.`. */
    private readonly prefix: string,
  ) {
    const declaration = pkg.body.Customs;
    this.declaration =
      typeof declaration === 'object' && declaration !== null ? (declaration as Record<string, unknown>) : undefined;
    const items = this.declaration?.Items;
    this.items = Array.isArray(items) && items.length > 0 ? (items as Record<string, unknown>[]) : undefined;
  }

  /** The element's problems at this house, made once: the regimes that share an element share the objects. */
  problems(element: Element): TReadinessProblem[] {
    let found = this.cache.get(element);
    if (!found) {
      found = this.check(element);
      this.cache.set(element, found);
    }
    return found;
  }

  private out: TReadinessProblem[] = [];

  private missing(field: string, what: string): void {
    this.push(field, 'missing', MISSING.get(what) ?? remember(what));
  }

  private invalid(field: string, message: string): void {
    this.push(field, 'invalid', message);
  }

  private push(field: string, code: 'missing' | 'invalid', message: string): void {
    this.out.push({
      row: this.pkg.row,
      tracking_number: this.pkg.trackingNumber,
      path: this.prefix + field,
      field,
      code,
      message,
    });
  }

  // Methods, not closures made per call: this runs for every element of every house (100,000 times a container).
  private check(element: Element): TReadinessProblem[] {
    const body = this.pkg.body;
    this.out = [];
    switch (element) {
      case 'consignor_name':
        // A container's consignor is its header's: checked once for the manifest (masterFindings), not per house.
        if (!this.consignorAtManifest && !text(this.consignor.FromCompany) && !text(this.consignor.FromName))
          this.missing('FromCompany', "the consignor's name (FromCompany or FromName)");
        break;
      case 'consignor_address':
        if (!this.consignorAtManifest) {
          const found: Finding[] = [];
          consignorAddress(this.consignor, found);
          for (const finding of found) this.push(finding.field, finding.code, finding.message);
        }
        break;
      case 'consignor_postal_code':
        if (!this.consignorAtManifest && !text(this.consignor.FromPostalCode))
          this.missing('FromPostalCode', "the consignor's postal code");
        break;
      case 'consignee_name':
        if (!text(body.ToName) && !text(body.Consignee)) this.missing('ToName', "the consignee's name");
        break;
      case 'consignee_address':
        if (!text(body.ToAddress1)) this.missing('ToAddress1', "the consignee's street address");
        if (!text(body.ToCity)) this.missing('ToCity', "the consignee's city");
        if (text(body.ToCountry) && !countryCode(body.ToCountry))
          this.invalid('ToCountry', 'is not a country customs can read: send its ISO 3166-1 code, e.g. DE, US or CA');
        else if (!consigneeCountry(body)) this.missing('ToCountry', "the consignee's country (ISO 3166-1 code, e.g. DE)");
        break;
      case 'consignee_postal_code':
        if (!text(body.ToPostalCode)) this.missing('ToPostalCode', "the consignee's postal code");
        break;
      case 'consignee_phone': {
        const phone = text(body.ToPhone);
        if (!phone) this.missing('ToPhone', "the consignee's phone number");
        else if ((phone.match(/\d/g)?.length ?? 0) < 7)
          this.invalid('ToPhone', 'is not a phone number customs can use: at least 7 digits, with the country code');
        break;
      }
      case 'consignee_email':
        if (!text(body.ToEmail)) this.missing('ToEmail', "the consignee's e-mail address");
        break;
      case 'gross_weight': {
        const weight = text(body.PackageWeight);
        if (!weight) this.missing('PackageWeight', 'the gross weight of the parcel');
        else if (!(Number(weight) > 0)) this.invalid('PackageWeight', 'must be more than 0: the gross weight of the parcel');
        break;
      }
      case 'goods_description':
        // Declared items carry specific descriptions (checked at acceptance); without them the shipment's description
        // stands for the goods, and a vague one is what ICS2 and ACAS refuse.
        if (!this.items) {
          const description = text(this.fallbackDescription);
          const field = this.consignorAtManifest ? 'Customs.Items' : 'ShipmentDescription';
          if (!description) this.missing(field, 'a description of the goods (Customs.Items[].Description)');
          else {
            const vague = vagueDescription(description);
            if (vague)
              this.invalid(
                field,
                `has no declared items, and the shipment's description "${description.slice(0, 60)}" ${vague}: declare the items (Customs.Items)`,
              );
          }
        }
        break;
      case 'declared_items':
        if (!this.items)
          this.missing('Customs.Items', 'the declared items (description, quantity, HS code of each kind of goods)');
        break;
      case 'hs_codes':
        if (this.items)
          for (let i = 0; i < this.items.length; i++)
            if (!text(this.items[i]?.HSCode)) this.missing(`Customs.Items[${i}].HSCode`, 'the HS code (at least 6 digits)');
        break;
      case 'origin_and_value':
        if (!this.items) {
          this.missing('Customs.Items', "the declared items with each one's origin country and value (no de minimis entry)");
          break;
        }
        if (!text(this.declaration?.Currency)) this.missing('Customs.Currency', 'the currency of the declared values');
        for (let i = 0; i < this.items.length; i++) {
          const item = this.items[i];
          if (!text(item?.OriginCountry)) this.missing(`Customs.Items[${i}].OriginCountry`, 'the country of origin of the goods');
          if (!text(item?.Value)) this.missing(`Customs.Items[${i}].Value`, 'the declared value');
        }
        break;
      case 'house_waybill':
        if (this.duplicateHouse)
          this.invalid(
            'house_waybill',
            `${this.pkg.houseWaybill} is the house waybill of another parcel of this container: each house needs its own`,
          );
        break;
    }
    return this.out;
  }
}

function consignorAddress(consignor: Record<string, unknown>, out: Finding[]): void {
  if (!text(consignor.FromAddress1))
    out.push({ field: 'FromAddress1', code: 'missing', message: "missing: the consignor's street address" });
  if (!text(consignor.FromCity)) out.push({ field: 'FromCity', code: 'missing', message: "missing: the consignor's city" });
  if (!text(consignor.FromCountry))
    out.push({ field: 'FromCountry', code: 'missing', message: "missing: the consignor's country" });
  else if (!countryCode(consignor.FromCountry))
    out.push({
      field: 'FromCountry',
      code: 'invalid',
      message: 'is not a country customs can read: send its ISO 3166-1 code, e.g. CA, CN or US',
    });
}

function hasProblem(this: HouseCheck, element: Element): boolean {
  return this.problems(element).length > 0;
}

/** The master's (a container header's) findings for one regime: its AWB, its flight, and its consignor. */
function masterFindings(spec: RegimeSpec, header: Record<string, unknown>): Finding[] {
  const out: Finding[] = [];
  const missing = (field: string, what: string) => out.push({ field, code: 'missing', message: `missing: ${what}` });
  const invalid = (field: string, message: string) => out.push({ field, code: 'invalid', message });
  for (const element of spec.master) {
    switch (element) {
      case 'awb':
        if (!text(header.AWB)) missing('AWB', 'the master air waybill number');
        break;
      case 'flight_number':
        if (!text(header.FlightNumber)) missing('FlightNumber', 'the flight number');
        break;
      case 'flight_date':
        if (!text(header.FlightDate)) missing('FlightDate', 'the flight date (the deadline is computed from it)');
        break;
      case 'origin_airport':
        if (!text(header.OriginAirport)) missing('OriginAirport', 'the airport of loading');
        else if (!airportCountry(header.OriginAirport)) invalid('OriginAirport', 'is not an airport in the IATA data');
        break;
      case 'destination_airport':
        if (!text(header.DestinationAirport)) missing('DestinationAirport', 'the airport of arrival');
        else if (!airportCountry(header.DestinationAirport)) invalid('DestinationAirport', 'is not an airport in the IATA data');
        break;
    }
  }
  if (spec.house.includes('consignor_name') && !text(header.FromCompany) && !text(header.FromName))
    missing('FromCompany', "the consignor's name");
  if (spec.house.includes('consignor_address')) consignorAddress(header, out);
  if (spec.house.includes('consignor_postal_code') && !text(header.FromPostalCode))
    missing('FromPostalCode', "the consignor's postal code (where the goods were packed)");
  return out;
}

function deadlineOf(spec: RegimeSpec, flight: FlightTimes | undefined): { at?: Date; basis: string } {
  if (!flight) return { basis: 'a daily manifest has no flight of its own: no deadline' };
  if (!flight.departure) return { basis: flight.basis };
  if (spec.deadline === 'before_loading')
    return { at: flight.departure, basis: `before loading: at the latest when the flight departs; ${flight.basis}` };
  if (flight.arrival === undefined || flight.hours === undefined)
    return { at: flight.departure, basis: `at departure, as for a flight under 4 h (its length is unknown); ${flight.basis}` };
  if (flight.hours < 4) return { at: flight.departure, basis: `at departure: a flight under 4 h; ${flight.basis}` };
  return {
    at: new Date(flight.arrival.getTime() - 4 * 3_600_000),
    basis: `4 h before arrival: a flight of 4 h or more; ${flight.basis}`,
  };
}

/** A problem's field with its indexes taken out (`Customs.Items[2].HSCode` → `Customs.Items[].HSCode`), for by_field. */
const fieldKey = (field: string) => (field.includes('[') ? field.replace(/\[\d+\]/g, '[]') : field);

/** A regime's bit in a house's stored mask of regimes not ready (REGIMES' order: a new regime is added at the end). */
export function regimeBit(regime: CustomsRegime): number {
  return 1 << REGIMES.findIndex((spec) => spec.id === regime);
}

interface RegimeTally {
  spec: RegimeSpec;
  countries: Set<string>;
  packages: number;
  problems: TReadinessProblem[];
  total: number;
  byField: Map<string, number>;
  /** Houses with a problem of their own. */
  houses: number;
}

/**
 * Readiness of one manifest. `packages` may come in batches (a daily manifest of any size): `add` each, then
 * `result`. Memory holds the listed problems, at most MAX_LISTED_PROBLEMS per regime, never the packages.
 */
export class ReadinessBuilder {
  private readonly tallies: RegimeTally[] = REGIMES.map((spec) => ({
    spec,
    countries: new Set<string>(),
    packages: 0,
    problems: [],
    total: 0,
    byField: new Map(),
    houses: 0,
  }));
  /**
   * Each house's regimes not ready, when asked: a bit per regime (`regimeBit`), 0 for a ready house; stored per
   * package for the list's filter (lib/customs/readiness-flags.ts).
   */
  readonly masks = new Map<string, number>();
  private readonly header: Record<string, unknown> | undefined;
  private readonly flight: FlightTimes | undefined;
  private readonly destination: string | undefined;
  private readonly origin: string | undefined;
  private readonly outcomes = new Map<string, number>();
  private readonly holds: TCustomsReadiness['do_not_load'] = [];
  private count = 0;

  constructor(
    private readonly manifest: ReadinessManifest,
    /** Container house waybills held by more than one parcel (a stored container may predate the check at acceptance). */
    private readonly duplicateHouses: ReadonlySet<string> = new Set(),
    /** True: each house's mask as well; 'only': the masks alone (no problem is listed or counted, result() is empty). */
    private readonly collectMasks: boolean | 'only' = false,
  ) {
    this.header = manifest.type === 'container' ? (manifest.header ?? {}) : undefined;
    this.flight = this.header ? flightTimes(this.header) : undefined;
    this.destination = this.header ? airportCountry(this.header.DestinationAirport) : undefined;
    this.origin = this.header ? (airportCountry(this.header.OriginAirport) ?? countryCode(this.header.FromCountry)) : undefined;
  }

  add(packages: readonly ReadinessPackage[]): void {
    for (const pkg of packages) this.addOne(pkg);
  }

  private addOne(pkg: ReadinessPackage): void {
    this.count++;
    const status = pkg.customsStatus ?? 'none';
    this.outcomes.set(status, (this.outcomes.get(status) ?? 0) + 1);
    if (pkg.customsStatus === 'do_not_load')
      this.holds.push({
        row: pkg.row,
        tracking_number: pkg.trackingNumber,
        carrier_barcode: pkg.carrierBarcode,
        house_waybill: pkg.houseWaybill,
      });
    const container = this.header !== undefined;
    const destination = this.destination ?? consigneeCountry(pkg.body);
    const origin = container ? this.origin : countryCode(pkg.body.FromCountry);
    let check: HouseCheck | undefined;
    let mask = 0;
    for (const [index, tally] of this.tallies.entries()) {
      const { spec } = tally;
      // A regime covers what enters its territory from outside it: a flight within it needs no entry filing.
      if (destination === undefined || !spec.territory.has(destination)) continue;
      if (origin !== undefined && spec.territory.has(origin)) continue;
      tally.countries.add(destination);
      tally.packages++;
      check ??= new HouseCheck(
        pkg,
        container ? (this.header ?? {}) : pkg.body,
        container ? this.header?.ShipmentDescription : pkg.body.ShipmentDescription,
        container,
        container && this.duplicateHouses.has(pkg.houseWaybill),
        container ? `ContainerDetails[${pkg.row}].` : 'package.',
      );
      if (this.collectMasks === 'only') {
        // What acceptance and the stored masks need: whether the house has a problem for the regime, not which.
        if (spec.house.some(hasProblem, check)) mask |= 1 << index;
        continue;
      }
      const before = tally.total;
      for (const element of spec.house) for (const problem of check.problems(element)) this.tally(tally, problem);
      if (tally.total > before) {
        tally.houses++;
        mask |= 1 << index;
      }
    }
    if (this.collectMasks && pkg.id !== undefined) this.masks.set(pkg.id, mask);
  }

  private tally(tally: RegimeTally, problem: TReadinessProblem): void {
    tally.total++;
    const key = fieldKey(problem.field);
    tally.byField.set(key, (tally.byField.get(key) ?? 0) + 1);
    if (tally.problems.length < MAX_LISTED_PROBLEMS) tally.problems.push(problem);
  }

  result(now: Date = new Date()): TCustomsReadiness {
    const regimes: TRegimeReadiness[] = this.tallies.map((tally) => {
      const { spec } = tally;
      const applies = tally.packages > 0;
      if (applies && this.header) {
        const master = masterFindings(spec, this.header).map((finding): TReadinessProblem => ({
          row: null,
          tracking_number: null,
          path: finding.field,
          ...finding,
        }));
        // The master's first: one line each, before the houses'.
        const houses = tally.problems;
        tally.problems = [];
        for (const problem of master) this.tally(tally, problem);
        tally.problems.push(...houses.slice(0, MAX_LISTED_PROBLEMS - tally.problems.length));
      }
      const deadline = applies ? deadlineOf(spec, this.flight) : { basis: 'does not apply to this manifest' };
      return {
        regime: spec.id,
        name: spec.name,
        applies,
        countries: [...tally.countries].sort(),
        package_count: tally.packages,
        ready: tally.total === 0,
        deadline: deadline.at ? deadline.at.toISOString() : null,
        deadline_basis: deadline.basis,
        deadline_passed: deadline.at ? deadline.at.getTime() <= now.getTime() : false,
        problem_count: tally.total,
        houses_not_ready: tally.houses,
        problems_truncated: tally.total - tally.problems.length,
        by_field: Object.fromEntries([...tally.byField].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))),
        problems: tally.problems,
      };
    });
    const header = this.header ?? {};
    return {
      object: 'customs_readiness',
      ManifestID: this.manifest.id,
      type: this.manifest.type,
      ready: regimes.every((r) => r.ready),
      computed_at: now.toISOString(),
      package_count: this.count,
      AWB: text(header.AWB) ?? null,
      ULD: this.manifest.uld ?? null,
      FlightNumber: text(header.FlightNumber) ?? null,
      FlightDate: text(header.FlightDate) ?? null,
      OriginAirport: text(header.OriginAirport) ?? null,
      DestinationAirport: text(header.DestinationAirport) ?? null,
      origin_country: this.origin ?? null,
      destination_country: this.destination ?? null,
      customs_status: Object.fromEntries(
        [...CUSTOMS_OUTCOMES, 'none' as const].flatMap((s) => (this.outcomes.has(s) ? [[s, this.outcomes.get(s) ?? 0]] : [])),
      ),
      do_not_load: this.holds,
      regimes,
    };
  }
}
