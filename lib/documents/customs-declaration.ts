import { handedOver, num, obj, party, str, type ManifestSource } from './manifest-source';
import type { DocumentParty, ManifestState } from './types';

// A parcel's customs declaration (CN 23) as the documents draw it and ONE Record writes it. Pure: runs on the render thread.

type Json = Record<string, unknown>;

export interface CustomsLine {
  description: string;
  quantity?: number;
  /** The line's value (for its whole quantity), as stored: a decimal string with the currency's decimals. */
  value?: string;
  /** Net weight as stored (decimal text) and its unit. */
  weight?: string;
  weightUnit?: string;
  hsCode?: string;
  originCountry?: string;
}

export interface CustomsParty extends DocumentParty {
  email?: string;
}

export interface DocumentCustomsDeclaration {
  manifestId: string;
  manifestDate: string;
  /** A cancelled package (or any package of a cancelled manifest) is stamped CANCELLED and has no barcode. */
  state?: ManifestState;
  trackingNumber?: string;
  carrierBarcode?: string;
  houseWaybill?: string;
  /** The container's AWB: the master waybill this house travels under. */
  masterWaybill?: string;
  containerId?: string;
  sender: CustomsParty;
  recipient: CustomsParty;
  /** One of lib/schemas/customs.ts's CONTENTS_TYPES. */
  contentsType?: string;
  incoterm?: string;
  currency?: string;
  exporterEori?: string;
  importerEori?: string;
  importerTaxId?: string;
  ioss?: string;
  items: CustomsLine[];
  /** Whether the package carries a Customs object at all (a form without one is printed with blanks to fill in). */
  declared: boolean;
  /** The package's own description (a daily package's ShipmentDescription, else the container's). */
  description?: string;
  grossWeight?: number;
  grossWeightUnit?: string;
  generatedAt: Date;
}

/** A row as load-documents.ts reads it for customs: [data, status, carrier_barcode, house_waybill]. */
export type CustomsRow = [unknown, string, string, unknown?];

function recipient(data: Json, header: Json): CustomsParty {
  return {
    name: str(data.ToName) ?? str(data.Consignee) ?? str(header.Consignee),
    address1: str(data.ToAddress1),
    address2: str(data.ToAddress2),
    city: str(data.ToCity),
    state: str(data.ToState),
    postalCode: str(data.ToPostalCode),
    country: str(data.ToCountry),
    phone: str(data.ToPhone),
    email: str(data.ToEmail),
  };
}

function lines(customs: Json): CustomsLine[] {
  const items = Array.isArray(customs.Items) ? customs.Items : [];
  return items.map((raw) => {
    const item = obj(raw);
    const quantity = num(item.Quantity);
    return {
      description: str(item.Description) ?? '',
      ...(quantity !== undefined ? { quantity } : {}),
      value: str(item.Value),
      weight: str(item.Weight),
      weightUnit: str(item.WeightUnit),
      hsCode: str(item.HSCode),
      originCountry: str(item.OriginCountry),
    };
  });
}

/** `header` is its container's (empty for a daily package); `houseWaybill` the stored one (issued by us), else as sent. */
export function customsDeclaration(options: {
  data: Json;
  header: Json;
  kind: 'container' | 'daily';
  carrierBarcode: string;
  houseWaybill?: unknown;
  manifestId: string;
  manifestDate: string;
  state?: ManifestState;
  awb?: string;
  containerId?: string;
  generatedAt: Date;
}): DocumentCustomsDeclaration {
  const { data, header, kind } = options;
  const customs = obj(data.Customs);
  const from = kind === 'container' ? header : data;
  return {
    manifestId: options.manifestId,
    manifestDate: options.manifestDate,
    ...(options.state && options.state !== 'open' ? { state: options.state } : {}),
    trackingNumber: str(data.TrackingNumber),
    carrierBarcode: options.carrierBarcode,
    houseWaybill: str(options.houseWaybill) ?? str(customs.HouseWaybill),
    masterWaybill: options.awb ?? str(data.AWB),
    containerId: options.containerId ?? str(data.ContainerID),
    sender: { ...party(from), email: str(from.FromEmail) },
    recipient: recipient(data, header),
    contentsType: str(customs.ContentsType),
    incoterm: str(customs.Incoterm),
    currency: str(customs.Currency),
    exporterEori: str(customs.ExporterEORI),
    importerEori: str(customs.ImporterEORI),
    importerTaxId: str(customs.ImporterTaxID),
    ioss: str(customs.IOSS),
    items: lines(customs),
    declared: typeof data.Customs === 'object' && data.Customs !== null,
    description: str(data.ShipmentDescription) ?? str(header.ShipmentDescription),
    grossWeight: num(data.PackageWeight),
    grossWeightUnit: str(data.PackageWeightUnit) ?? str(data.WeightUnit),
    generatedAt: options.generatedAt,
  };
}

const utf8 = new TextDecoder();

/** Every house handed over, in document order (as its labels: see handedOver). */
export function manifestDeclarations(source: ManifestSource): DocumentCustomsDeclaration[] {
  const rows = (JSON.parse(utf8.decode(source.packages)) as CustomsRow[]).map(([data, status, carrierBarcode, house]) => ({
    data: obj(data),
    status,
    carrierBarcode,
    house,
  }));
  const header = source.header ?? {};
  return handedOver(rows, source.state).map((row) =>
    customsDeclaration({
      data: row.data,
      header,
      kind: source.kind,
      carrierBarcode: row.carrierBarcode,
      houseWaybill: row.house,
      manifestId: source.manifestId,
      manifestDate: source.manifestDate,
      state: source.state === 'cancelled' ? 'cancelled' : undefined,
      awb: source.awb,
      containerId: source.containerId,
      generatedAt: source.generatedAt,
    }),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Exact sums: values are decimal strings with the currency's decimals, weights decimal text; never summed as floats.

/** `a` + `b` as decimal strings (non-negative), with as many decimals as the longer of the two. */
export function addDecimal(a: string, b: string): string {
  const [aw = '0', af = ''] = a.split('.');
  const [bw = '0', bf = ''] = b.split('.');
  const places = Math.max(af.length, bf.length);
  const scaled = (whole: string, fraction: string) => BigInt(whole + fraction.padEnd(places, '0'));
  const sum = (scaled(aw, af) + scaled(bw, bf)).toString().padStart(places + 1, '0');
  return places === 0 ? sum : `${sum.slice(0, -places)}.${sum.slice(-places)}`;
}

const DECIMAL = /^\d+(?:\.\d+)?$/;

export function totalValue(items: readonly CustomsLine[]): string | undefined {
  let total: string | undefined;
  for (const item of items)
    if (item.value && DECIMAL.test(item.value)) total = total === undefined ? item.value : addDecimal(total, item.value);
  return total;
}

const KG_PER: Record<string, number> = { kg: 1, lb: 0.45359237, oz: 0.028349523125 };

/** A weight in kilograms (lb when the unit is unknown, as the other documents read one); undefined when there is none. */
export function kilograms(weight: string | number | undefined, unit: string | undefined): number | undefined {
  const value = typeof weight === 'number' ? weight : weight !== undefined && DECIMAL.test(weight) ? Number(weight) : NaN;
  if (!Number.isFinite(value)) return undefined;
  return value * (KG_PER[(unit ?? 'lb').toLowerCase()] ?? 1);
}
