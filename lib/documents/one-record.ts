import { containerUld, COUNTRY_CODES } from '@/lib/schemas/customs';
import { customsDeclaration, totalValue, type CustomsParty, type DocumentCustomsDeclaration } from './customs-declaration';
import { handedOver, num, obj, str, type ManifestSource } from './manifest-source';

// A container as IATA ONE Record data (ontology 3.3.0, https://onerecord.iata.org/ns/cargo): JSON-LD, one @graph.
//  - the container's AWB is the MASTER Waybill; each parcel is a HOUSE Waybill under it, with its own Shipment and
//    one Piece (goods description, gross weight, dimensions, the declared items as Item → Product with hsCode);
//  - the ULD (uldTypeCode, uldSerialNumber, ownerCode, sealNumber) holds every Piece through a UnitComposition and
//    its Composing action, and is loaded on the flight (TransportMovement, Loading), as the XFFM mapping has it;
//  - the consignment SecurityDeclaration is the master Shipment's; shipper and consignee are Parties (SHP, CNE).
// Nodes are written one at a time into chunks of bytes: the document is never one object tree, nor one string.
// e2e/api/one-record.test.ts checks every @type and property against the ontology file kept beside it.

export interface OneRecordOptions {
  /** This document's IRI: every node's @id is a fragment of it. */
  base: string;
  /** Where this carrier's own code lists live ({base}/{codeListName}#{code}, as ONE Record's code list guidance says). */
  codeLists: string;
}

type Node = Record<string, unknown>;
type Json = Record<string, unknown>;

const CONTEXT_PREFIXES = {
  cargo: 'https://onerecord.iata.org/ns/cargo#',
  ccodes: 'https://onerecord.iata.org/ns/code-lists/',
  xsd: 'http://www.w3.org/2001/XMLSchema#',
  unece: 'https://vocabulary.uncefact.org/',
};

const ref = (id: string) => ({ '@id': id });
const double = (value: string | number) => ({ '@type': 'xsd:double', '@value': String(value) });
const UNIT: Record<string, string> = { lb: 'LBR', kg: 'KGM', oz: 'ONZ' };
/** A measured value in a unit of the ONE Record code lists (UN/ECE Rec. 20: LBR, KGM, ONZ, INH). */
const measured = (value: string | number, unit: string) => ({
  '@type': 'cargo:Value',
  'cargo:numericalValue': double(value),
  'cargo:unit': ref(`ccodes:MeasurementUnitCode#${unit}`),
});
const weightUnit = (unit: string | undefined) => UNIT[(unit ?? 'lb').toLowerCase()] ?? 'LBR';
/** Fragment-safe: a barcode is CB and digits, but nothing else is trusted into an IRI unescaped. */
const part = (value: string) => encodeURIComponent(value);

const utf8 = new TextEncoder();
const FLUSH_CHARS = 1 << 20;

/** Code list elements the graph refers to, each defined once at its end (ONE Record: referenced, never embedded). */
class CodeLists {
  private readonly nodes = new Map<string, Node>();

  /** An element of one of this carrier's own lists ({codeLists}{list}#{code}: the context's `carrier` prefix). */
  own(list: string, code: string, name: string): { '@id': string } {
    const id = `carrier:${list}#${part(code)}`;
    if (!this.nodes.has(id))
      this.nodes.set(id, { '@id': id, '@type': 'cargo:CodeListElement', 'cargo:code': code, 'cargo:codeListName': name });
    return ref(id);
  }

  /** A code of another vocabulary (UN/CEFACT's), typed as the ontology's code list it belongs to. */
  external(id: string, type: string, code: string, name: string): { '@id': string } {
    if (!this.nodes.has(id)) this.nodes.set(id, { '@id': id, '@type': type, 'cargo:code': code, 'cargo:codeListName': name });
    return ref(id);
  }

  country(code: string | undefined): { '@id': string } | undefined {
    const upper = code?.toUpperCase();
    if (!upper || !COUNTRY_CODES.has(upper)) return undefined;
    return this.external(`unece:CountryId#${upper}`, 'cargo:CodeListElement', upper, 'ISO 3166-1 alpha-2');
  }

  currency(code: string): { '@id': string } {
    return this.external(`unece:CurrencyCodeList#${part(code)}`, 'ccodes:CurrencyCode', code, 'ISO 4217');
  }

  all(): Node[] {
    return [...this.nodes.values()];
  }
}

/** Bytes written as nodes come: JSON text of one node at a time, encoded a megabyte of text at a time. */
class Output {
  private readonly chunks: Uint8Array[] = [];
  private text = '';
  private nodes = 0;

  raw(value: string): void {
    this.text += value;
    if (this.text.length >= FLUSH_CHARS) this.flush();
  }

  node(node: Node): void {
    this.raw(`${this.nodes++ === 0 ? '\n' : ',\n'}${JSON.stringify(node)}`);
  }

  flush(): void {
    if (this.text) this.chunks.push(utf8.encode(this.text));
    this.text = '';
  }

  bytes(): Uint8Array {
    this.flush();
    const all = new Uint8Array(this.chunks.reduce((sum, chunk) => sum + chunk.length, 0));
    let at = 0;
    for (const chunk of this.chunks) {
      all.set(chunk, at);
      at += chunk.length;
    }
    return all;
  }
}

function address(party: CustomsParty, codes: CodeLists): Node | undefined {
  const street = [party.address1, party.address2].filter((line): line is string => Boolean(line));
  const country = codes.country(party.country);
  const node: Node = {
    '@type': 'cargo:Address',
    ...(street.length > 0 ? { 'cargo:streetAddressLines': street } : {}),
    ...(party.city ? { 'cargo:cityName': party.city } : {}),
    ...(party.postalCode ? { 'cargo:textualPostCode': party.postalCode } : {}),
    ...(party.state ? { 'cargo:regionCode': codes.own('Region', party.state, 'Region as written by the shipper') } : {}),
    ...(country ? { 'cargo:country': country } : {}),
  };
  return Object.keys(node).length > 1 ? node : undefined;
}

/** An organisation with its address and contacts (shipper or consignee). */
function organization(party: CustomsParty, name: string | undefined, codes: CodeLists): Node {
  const where = address(party, codes);
  const contacts = [
    party.phone
      ? {
          '@type': 'cargo:ContactDetail',
          'cargo:contactDetailType': ref('cargo:PHONE_NUMBER'),
          'cargo:textualValue': party.phone,
        }
      : undefined,
    party.email
      ? {
          '@type': 'cargo:ContactDetail',
          'cargo:contactDetailType': ref('cargo:EMAIL_ADDRESS'),
          'cargo:textualValue': party.email,
        }
      : undefined,
  ].filter(Boolean);
  return {
    '@type': 'cargo:Organization',
    ...(name ? { 'cargo:name': name } : {}),
    ...(where ? { 'cargo:basedAtLocation': { '@type': 'cargo:Location', 'cargo:address': where } } : {}),
    ...(contacts.length > 0 ? { 'cargo:contactDetails': contacts } : {}),
  };
}

const identifier = (type: string, value: string) => ({
  '@type': 'cargo:OtherIdentifier',
  'cargo:otherIdentifierType': type,
  'cargo:textualValue': value,
});

function airport(id: string, code: string, codes: CodeLists): Node {
  return {
    '@id': id,
    '@type': 'cargo:Location',
    'cargo:locationType': 'Airport',
    'cargo:locationCodes': [codes.own('IATAAirportCode', code, 'IATA airport code')],
  };
}

/** The ONE Record JSON-LD of a container (its handed-over parcels: a cancelled parcel is not exchanged). */
export function oneRecordExport(source: ManifestSource, options: OneRecordOptions): Uint8Array {
  const rows = (JSON.parse(new TextDecoder().decode(source.packages)) as [unknown, string, string, unknown?][]).map(
    ([data, status, carrierBarcode, house]) => ({ data: obj(data), status, carrierBarcode, house }),
  );
  const parcels = handedOver(rows, source.state);
  const header: Json = source.header ?? {};
  const codes = new CodeLists();
  const out = new Output();
  out.raw(`{"@context":${JSON.stringify({ '@base': options.base, ...CONTEXT_PREFIXES, carrier: options.codeLists })},"@graph":[`);

  const uld = containerUld({ ULD: str(header.ULD), ContainerID: source.containerId });
  const awbDigits = (source.awb ?? '').replace(/\D/g, '');
  const flight = str(header.FlightNumber);
  const origin = str(header.OriginAirport);
  const destination = str(header.DestinationAirport);
  const security = obj(header.Security);
  const securityStatus = str(security.Status);
  const pieces = parcels.map((p) => ref(`#piece-${part(p.carrierBarcode)}`));

  out.node({
    '@id': '#waybill',
    '@type': 'cargo:Waybill',
    'cargo:waybillType': ref('cargo:MASTER'),
    ...(awbDigits.length === 11
      ? { 'cargo:waybillPrefix': awbDigits.slice(0, 3), 'cargo:waybillNumber': awbDigits.slice(3) }
      : {}),
    'cargo:shipment': ref('#shipment'),
    ...(origin ? { 'cargo:departureLocation': ref('#origin') } : {}),
    ...(destination ? { 'cargo:arrivalLocation': ref('#destination') } : {}),
    'cargo:involvedParties': [ref('#party-shipper')],
    'cargo:houseWaybills': parcels.map((p) => ref(`#hwb-${part(p.carrierBarcode)}`)),
  });
  const containerWeight = num(header.ContainerWeight) ?? num(header['Container Weight']);
  out.node({
    '@id': '#shipment',
    '@type': 'cargo:Shipment',
    'cargo:waybill': ref('#waybill'),
    ...(source.shipmentDescription ? { 'cargo:goodsDescription': source.shipmentDescription } : {}),
    ...(containerWeight !== undefined ? { 'cargo:totalGrossWeight': measured(containerWeight, 'LBR') } : {}),
    ...(securityStatus ? { 'cargo:securityDeclarations': [ref('#security')] } : {}),
  });
  if (securityStatus) {
    const methods = (str(security.ScreeningMethod) ?? '').split(' ').filter(Boolean);
    const issuer = str(security.IssuedBy);
    out.node({
      '@id': '#security',
      '@type': 'cargo:SecurityDeclaration',
      'cargo:securityStatus': ref(`ccodes:SecurityStatus#${part(securityStatus)}`),
      ...(methods.length > 0 ? { 'cargo:screeningMethods': methods.map((m) => ref(`ccodes:ScreeningMethod#${part(m)}`)) } : {}),
      ...(issuer
        ? { 'cargo:regulatedEntityIssuer': { '@type': 'cargo:RegulatedEntity', 'cargo:regulatedEntityIdentifier': issuer } }
        : {}),
      'cargo:issuedForShipment': ref('#shipment'),
    });
  }
  if (uld) {
    const [, type = '', serial = '', owner = ''] = /^([A-Z]{3})(\d{4,5})((?=[A-Z0-9]*[A-Z])[A-Z0-9]{2,3})$/.exec(uld) ?? [];
    const seal = str(header.SealNumber);
    out.node({
      '@id': '#uld',
      '@type': 'cargo:ULD',
      'cargo:uldTypeCode': codes.own('ULDTypeCode', type, 'IATA ULD type code (Resolution 686)'),
      'cargo:uldSerialNumber': serial,
      'cargo:ownerCode': codes.own('ULDOwnerCode', owner, 'IATA ULD owner code (Resolution 686)'),
      ...(seal ? { 'cargo:sealNumber': seal } : {}),
      'cargo:inUnitComposition': ref('#composition'),
    });
    out.node({
      '@id': '#composition',
      '@type': 'cargo:UnitComposition',
      'cargo:loadingUnit': ref('#uld'),
      ...(source.containerId ? { 'cargo:compositionIdentifier': source.containerId } : {}),
      'cargo:compositionActions': [ref('#composing')],
    });
    out.node({
      '@id': '#composing',
      '@type': 'cargo:Composing',
      'cargo:compositionType': ref('cargo:COMPOSITION'),
      'cargo:loadingUnit': ref('#uld'),
      'cargo:composedPieces': pieces,
    });
  }
  if (flight || origin || destination) {
    const date = str(header.FlightDate);
    out.node({
      '@id': '#flight',
      '@type': 'cargo:TransportMovement',
      ...(flight ? { 'cargo:transportIdentifier': flight } : {}),
      ...(origin ? { 'cargo:departureLocation': ref('#origin') } : {}),
      ...(destination ? { 'cargo:arrivalLocation': ref('#destination') } : {}),
      ...(date ? { 'cargo:otherIdentifiers': [identifier('Flight date', date)] } : {}),
      'cargo:loadingActions': [ref('#loading')],
    });
    out.node({
      '@id': '#loading',
      '@type': 'cargo:Loading',
      'cargo:actionTimeType': ref('cargo:PLANNED'),
      'cargo:servedActivity': ref('#flight'),
      ...(uld ? { 'cargo:loadedUnits': [ref('#uld')] } : { 'cargo:loadedPieces': pieces }),
    });
  }
  if (origin) out.node(airport('#origin', origin, codes));
  if (destination) out.node(airport('#destination', destination, codes));

  const shipper = customsDeclaration({
    data: {},
    header,
    kind: 'container',
    carrierBarcode: '',
    manifestId: source.manifestId,
    manifestDate: source.manifestDate,
    generatedAt: source.generatedAt,
  }).sender;
  out.node({ '@id': '#shipper', ...organization(shipper, shipper.company ?? shipper.name, codes) });
  out.node({
    '@id': '#party-shipper',
    '@type': 'cargo:Party',
    'cargo:partyRole': ref('ccodes:ParticipantIdentifier#SHP'),
    'cargo:partyDetails': ref('#shipper'),
  });

  for (const parcel of parcels) {
    const declaration = customsDeclaration({
      data: parcel.data,
      header,
      kind: 'container',
      carrierBarcode: parcel.carrierBarcode,
      houseWaybill: parcel.house,
      manifestId: source.manifestId,
      manifestDate: source.manifestDate,
      awb: source.awb,
      containerId: source.containerId,
      generatedAt: source.generatedAt,
    });
    for (const node of houseNodes(parcel.data, declaration, codes)) out.node(node);
  }
  for (const node of codes.all()) out.node(node);
  out.raw('\n]}\n');
  return out.bytes();
}

/** A parcel: its HOUSE Waybill, its Shipment and its Piece (with the declared items). */
function houseNodes(data: Json, d: DocumentCustomsDeclaration, codes: CodeLists): Node[] {
  const id = part(d.carrierBarcode ?? '');
  const currency = d.currency;
  const total = totalValue(d.items);
  const description =
    d.items.length > 0
      ? d.items
          .map((item) => item.description)
          .filter(Boolean)
          .join('; ')
      : d.description;
  const shipperParty: Node | { '@id': string } = d.exporterEori
    ? {
        '@type': 'cargo:Party',
        'cargo:partyRole': ref('ccodes:ParticipantIdentifier#SHP'),
        'cargo:partyDetails': ref('#shipper'),
        'cargo:otherIdentifiers': [identifier('EORI', d.exporterEori)],
      }
    : ref('#party-shipper');
  const importerIds = [
    d.importerEori ? identifier('EORI', d.importerEori) : undefined,
    d.importerTaxId ? identifier('Tax ID', d.importerTaxId) : undefined,
    d.ioss ? identifier('IOSS', d.ioss) : undefined,
  ].filter(Boolean);
  const consigneeDetails = organization(d.recipient, d.recipient.name, codes);
  // No consignee at all (a container's parcel may name none): no Party rather than an empty one.
  const consignee: Node | undefined =
    Object.keys(consigneeDetails).length > 1 || importerIds.length > 0
      ? {
          '@type': 'cargo:Party',
          'cargo:partyRole': ref('ccodes:ParticipantIdentifier#CNE'),
          'cargo:partyDetails': consigneeDetails,
          ...(importerIds.length > 0 ? { 'cargo:otherIdentifiers': importerIds } : {}),
        }
      : undefined;
  const grossUnit = weightUnit(d.grossWeightUnit);
  const gross = d.grossWeight !== undefined ? measured(d.grossWeight, grossUnit) : undefined;
  const length = num(data.PackageSizeLength);
  const width = num(data.PackageSizeWidth);
  const height = num(data.PackageSizeHeight);
  const dimensions: Node = {
    ...(length !== undefined ? { 'cargo:length': measured(length, 'INH') } : {}),
    ...(width !== undefined ? { 'cargo:width': measured(width, 'INH') } : {}),
    ...(height !== undefined ? { 'cargo:height': measured(height, 'INH') } : {}),
  };
  const items = d.items.map((item) => ({
    '@type': 'cargo:Item',
    'cargo:ofProduct': {
      '@type': 'cargo:Product',
      ...(item.description ? { 'cargo:description': item.description } : {}),
      ...(item.hsCode ? { 'cargo:hsCode': codes.own('HSCode', item.hsCode, 'Harmonized System (WCO)') } : {}),
    },
    ...(item.quantity !== undefined
      ? {
          'cargo:itemQuantity': {
            '@type': 'cargo:Value',
            'cargo:numericalValue': double(item.quantity),
            'cargo:unit': codes.external(
              'unece:UnitMeasureCode#H87',
              'ccodes:MeasurementUnitCode',
              'H87',
              'UN/ECE Recommendation 20',
            ),
          },
        }
      : {}),
    // The declared value is the line's, for its whole quantity: unitPrice for quantityForUnitPrice units.
    ...(item.value && currency
      ? {
          'cargo:unitPrice': {
            '@type': 'cargo:CurrencyValue',
            'cargo:numericalValue': double(item.value),
            'cargo:currencyUnit': codes.currency(currency),
          },
          ...(item.quantity !== undefined ? { 'cargo:quantityForUnitPrice': double(item.quantity) } : {}),
        }
      : {}),
    ...(item.weight ? { 'cargo:weight': measured(item.weight, weightUnit(item.weightUnit)) } : {}),
    ...(item.originCountry && codes.country(item.originCountry)
      ? { 'cargo:productionCountry': codes.country(item.originCountry) }
      : {}),
    'cargo:inPiece': ref(`#piece-${id}`),
  }));
  const trackingIds = [
    d.trackingNumber ? identifier('Tracking number', d.trackingNumber) : undefined,
    d.carrierBarcode ? identifier('Carrier barcode', d.carrierBarcode) : undefined,
  ].filter(Boolean);
  return [
    {
      '@id': `#hwb-${id}`,
      '@type': 'cargo:Waybill',
      'cargo:waybillType': ref('cargo:HOUSE'),
      ...(d.houseWaybill ? { 'cargo:waybillNumber': d.houseWaybill } : {}),
      'cargo:masterWaybill': ref('#waybill'),
      'cargo:shipment': ref(`#shipment-${id}`),
      'cargo:involvedParties': consignee ? [shipperParty, consignee] : [shipperParty],
      ...(total !== undefined && currency
        ? {
            'cargo:declaredValueForCustoms': {
              '@type': 'cargo:CurrencyValue',
              'cargo:numericalValue': double(total),
              'cargo:currencyUnit': codes.currency(currency),
            },
          }
        : {}),
    },
    {
      '@id': `#shipment-${id}`,
      '@type': 'cargo:Shipment',
      'cargo:waybill': ref(`#hwb-${id}`),
      'cargo:pieces': [ref(`#piece-${id}`)],
      ...(description ? { 'cargo:goodsDescription': description } : {}),
      ...(gross ? { 'cargo:totalGrossWeight': gross } : {}),
      ...(d.incoterm ? { 'cargo:incoterms': codes.own('Incoterms', d.incoterm, 'Incoterms 2020') } : {}),
    },
    {
      '@id': `#piece-${id}`,
      '@type': 'cargo:Piece',
      'cargo:ofShipment': [ref(`#shipment-${id}`)],
      ...(description ? { 'cargo:goodsDescription': description } : {}),
      ...(gross ? { 'cargo:grossWeight': gross } : {}),
      ...(Object.keys(dimensions).length > 0 ? { 'cargo:dimensions': { '@type': 'cargo:Dimensions', ...dimensions } } : {}),
      ...(items.length > 0 ? { 'cargo:containedItems': items } : {}),
      ...(trackingIds.length > 0 ? { 'cargo:otherIdentifiers': trackingIds } : {}),
    },
  ];
}
