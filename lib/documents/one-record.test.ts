import { describe, expect, it } from 'vitest';
import { oneRecordExport } from './one-record';
import type { ManifestSource } from './manifest-source';
import { CARGO, expandJsonLd, ontologyProblems, oneRecordOntology, type Expanded } from '@/lib/test-support/one-record-ontology';

// The ONE Record export against the ontology as IATA publishes it (lib/documents/fixtures/one-record): every @type a
// class, every property one of its class (or a class above it), with values in its range and within its cardinality.

const BASE = 'https://carrier.example/version-test/api/1.1/manifests/MAN-TEST/one-record';
const OPTIONS = { base: BASE, codeLists: 'https://carrier.example/one-record/code-lists/' };

const HEADER = {
  FromCompany: 'Maple Goods',
  FromName: 'Shipping desk',
  FromAddress1: '100 King St W',
  FromCity: 'Toronto',
  FromState: 'ON',
  FromPostalCode: 'M5X 1A9',
  FromCountry: 'CA',
  FromPhone: '416-555-0100',
  FromEmail: 'ship@maple.example',
  ContainerWeight: 120.5,
  ULD: 'AKE12345XH',
  SealNumber: 'SEAL-7',
  FlightNumber: 'AC874',
  FlightDate: '2026-11-24',
  OriginAirport: 'YYZ',
  DestinationAirport: 'FRA',
  Security: { Status: 'SPX', ScreeningMethod: 'XRY EDD', IssuedBy: 'CA/RA/01234' },
};

const CUSTOMS = {
  ContentsType: 'merchandise',
  Incoterm: 'DDP',
  Currency: 'EUR',
  ExporterEORI: 'GB123456789000',
  ImporterEORI: 'FR12345678901',
  ImporterTaxID: 'FR-VAT-1',
  IOSS: 'IM2760000742',
  Items: [
    {
      Description: 'Cotton T-shirt',
      Quantity: 2,
      Value: '12.50',
      Weight: '0.4',
      WeightUnit: 'kg',
      HSCode: '610910',
      OriginCountry: 'CN',
    },
    { Description: 'Leather wallet', Quantity: 1, Value: '30.00', HSCode: '420232', OriginCountry: 'IT' },
  ],
};

function parcel(i: number, over: Record<string, unknown> = {}) {
  return {
    TrackingNumber: `1Z${String(i).padStart(6, '0')}`,
    PackageWeight: 2.5,
    PackageWeightUnit: 'kg',
    PackageSizeLength: 10,
    PackageSizeWidth: 8,
    PackageSizeHeight: 4,
    ToName: 'Marie Dupont',
    ToAddress1: '12 Rue de la Paix',
    ToCity: 'Paris',
    ToPostalCode: '75002',
    ToCountry: 'FR',
    ToPhone: '+33 1 23 45 67 89',
    ToEmail: 'marie@example.fr',
    Customs: CUSTOMS,
    ...over,
  };
}

const barcode = (i: number) => `CB${String(i).padStart(13, '0')}`;

function source(rows: unknown[][], over: Partial<ManifestSource> = {}): ManifestSource {
  return {
    kind: 'container',
    manifestId: 'MAN-TEST',
    state: 'open',
    manifestDate: '2026-11-23',
    header: HEADER,
    serviceName: 'AirSkip',
    awb: '00012345675',
    containerId: 'AKE12345XH',
    shipmentDescription: 'Apparel and leather goods',
    packages: new TextEncoder().encode(JSON.stringify(rows)),
    generatedAt: new Date('2026-11-23T10:00:00Z'),
    ...over,
  };
}

function exported(s: ManifestSource): { json: Record<string, unknown>; graph: Record<string, unknown>[]; expanded: Expanded } {
  const json = JSON.parse(new TextDecoder().decode(oneRecordExport(s, OPTIONS))) as Record<string, unknown>;
  return { json, graph: json['@graph'] as Record<string, unknown>[], expanded: expandJsonLd(json) };
}

const full = () =>
  exported(
    source([
      [parcel(1), 'manifested', barcode(1), 'HWB0001'],
      [parcel(2, { Customs: { ...CUSTOMS, HouseWaybill: 'HWB0002' } }), 'received', barcode(2), null],
      [{ TrackingNumber: 'BARE1', PackageWeight: 1 }, 'manifested', barcode(3), 'H12345678903'],
      [parcel(4), 'cancelled', barcode(4), 'HWB0004'],
    ]),
  );

const typesIn = (expanded: Expanded) => new Set([...expanded.types.values()].flatMap((set) => [...set]));
const predicatesIn = (expanded: Expanded) => new Set(expanded.triples.map((t) => t.predicate));
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- assertions read arbitrary fields
const byId = (graph: Record<string, unknown>[], id: string) => graph.find((node) => node['@id'] === id) as Record<string, any>;

describe('the ontology file kept as a fixture', () => {
  it('is the ONE Record data model 3.3.0 with its code lists', () => {
    const ontology = oneRecordOntology();
    expect(ontology.version).toBe('3.3.0');
    for (const name of ['Shipment', 'Piece', 'ULD', 'Waybill', 'SecurityDeclaration', 'Party', 'Item', 'Product'])
      expect(ontology.classes.has(CARGO + name)).toBe(true);
    expect(ontology.individuals.get('https://onerecord.iata.org/ns/code-lists/SecurityStatus#SPX')).toBeDefined();
  });
});

describe('ONE Record export of a container', () => {
  it('uses only classes and properties of the ontology, each on a class that has it, with values in range', () => {
    const { expanded } = full();
    expect(ontologyProblems(oneRecordOntology(), expanded)).toEqual([]);
    const types = typesIn(expanded);
    for (const name of ['Shipment', 'Piece', 'ULD', 'Waybill', 'SecurityDeclaration', 'Party', 'Organization', 'Item', 'Product'])
      expect(types, name).toContain(CARGO + name);
    const predicates = predicatesIn(expanded);
    for (const name of [
      'uldTypeCode',
      'uldSerialNumber',
      'ownerCode',
      'houseWaybills',
      'masterWaybill',
      'waybillType',
      'hsCode',
      'goodsDescription',
      'partyRole',
      'securityStatus',
    ])
      expect(predicates, name).toContain(CARGO + name);
  });

  it('a minimal container (no customs, no ULD, no AWB, no flight, no security) holds too', () => {
    const { expanded, graph } = exported(
      source([[{ TrackingNumber: 'X1' }, 'manifested', barcode(9), null]], {
        header: { FromCompany: 'Acme' },
        awb: undefined,
        containerId: 'CONT-1',
        shipmentDescription: undefined,
      }),
    );
    expect(ontologyProblems(oneRecordOntology(), expanded)).toEqual([]);
    expect(graph.some((node) => node['@type'] === 'cargo:ULD')).toBe(false);
    expect(byId(graph, '#waybill')['cargo:waybillNumber']).toBeUndefined();
  });

  it('the MASTER waybill lists a HOUSE waybill per handed-over parcel; a cancelled parcel is not exchanged', () => {
    const { graph } = full();
    const master = byId(graph, '#waybill');
    expect(master['cargo:waybillType']).toEqual({ '@id': 'cargo:MASTER' });
    expect(master['cargo:waybillPrefix']).toBe('000');
    expect(master['cargo:waybillNumber']).toBe('12345675');
    expect(master['cargo:houseWaybills']).toEqual([1, 2, 3].map((i) => ({ '@id': `#hwb-${barcode(i)}` })));
    expect(graph.some((node) => String(node['@id']).includes(barcode(4)))).toBe(false);
    const house = byId(graph, `#hwb-${barcode(1)}`);
    expect(house['cargo:waybillType']).toEqual({ '@id': 'cargo:HOUSE' });
    expect(house['cargo:masterWaybill']).toEqual({ '@id': '#waybill' });
    // The house waybill stored beside the package first, else the one it was sent with; none: no number.
    expect(house['cargo:waybillNumber']).toBe('HWB0001');
    expect(byId(graph, `#hwb-${barcode(2)}`)['cargo:waybillNumber']).toBe('HWB0002');
    expect(byId(graph, `#hwb-${barcode(3)}`)['cargo:waybillNumber']).toBe('H12345678903');
    expect(house['cargo:declaredValueForCustoms']['cargo:numericalValue']).toEqual({ '@type': 'xsd:double', '@value': '42.50' });
  });

  it('a Piece per parcel with its goods, HS codes and origin; the ULD composes every piece', () => {
    const { graph } = full();
    const piece = byId(graph, `#piece-${barcode(1)}`);
    expect(piece['cargo:goodsDescription']).toBe('Cotton T-shirt; Leather wallet');
    const [shirt] = piece['cargo:containedItems'];
    expect(shirt['cargo:ofProduct']['cargo:hsCode']).toEqual({ '@id': 'carrier:HSCode#610910' });
    expect(byId(graph, 'carrier:HSCode#610910')).toMatchObject({ 'cargo:code': '610910' });
    expect(shirt['cargo:productionCountry']).toEqual({ '@id': 'unece:CountryId#CN' });
    expect(shirt['cargo:unitPrice']['cargo:numericalValue']['@value']).toBe('12.50');
    expect(shirt['cargo:quantityForUnitPrice']['@value']).toBe('2');
    const uld = byId(graph, '#uld');
    expect(uld['cargo:uldTypeCode']).toEqual({ '@id': 'carrier:ULDTypeCode#AKE' });
    expect(uld['cargo:uldSerialNumber']).toBe('12345');
    expect(uld['cargo:ownerCode']).toEqual({ '@id': 'carrier:ULDOwnerCode#XH' });
    expect(byId(graph, '#composing')['cargo:composedPieces']).toEqual([1, 2, 3].map((i) => ({ '@id': `#piece-${barcode(i)}` })));
    const security = byId(graph, '#security');
    expect(security['cargo:securityStatus']).toEqual({ '@id': 'ccodes:SecurityStatus#SPX' });
    expect(security['cargo:screeningMethods']).toEqual([
      { '@id': 'ccodes:ScreeningMethod#XRY' },
      { '@id': 'ccodes:ScreeningMethod#EDD' },
    ]);
    // Node ids are fragments of the export's own address.
    expect((expandJsonLd(full().json).types.keys().next().value as string).startsWith(`${BASE}#`)).toBe(true);
  });

  it('a ULD whose serial and owner share digits splits as the validator reads it (serial five digits when it can)', () => {
    const { graph } = exported(source([], { header: { ...HEADER, ULD: 'AKE123456XH' } }));
    expect(byId(graph, '#uld')['cargo:uldSerialNumber']).toBe('12345');
    expect(byId(graph, '#uld')['cargo:ownerCode']).toEqual({ '@id': 'carrier:ULDOwnerCode#6XH' });
  });

  it('hostile text is carried exactly and the document stays valid JSON (NUL, RTL override, 10,000 characters)', () => {
    const hostile = ['nul\u0000in', 'rtl \u202Eevil\u202C', 'x'.repeat(10_000), '"quoted" \\ </script>'];
    const rows = hostile.map((text, i) => [
      parcel(i, { ToName: text, Customs: { ...CUSTOMS, Items: [{ ...CUSTOMS.Items[0], Description: text }] } }),
      'manifested',
      barcode(i),
      null,
    ]);
    const { graph, expanded } = exported(source(rows, { shipmentDescription: hostile[1] }));
    expect(ontologyProblems(oneRecordOntology(), expanded)).toEqual([]);
    hostile.forEach((text, i) => expect(byId(graph, `#piece-${barcode(i)}`)['cargo:goodsDescription']).toBe(text));
  });
});

describe('the ontology check can fail', () => {
  const check = (node: Record<string, unknown>) =>
    ontologyProblems(
      oneRecordOntology(),
      expandJsonLd({ '@context': { '@base': BASE, cargo: CARGO, xsd: 'http://www.w3.org/2001/XMLSchema#' }, '@graph': [node] }),
    );

  it('names a property used on a class that does not have it, an unknown property or class, a wrong value, two values of a single one', () => {
    expect(check({ '@id': '#p', '@type': 'cargo:Piece', 'cargo:uldTypeCode': { '@id': 'cargo:MASTER' } })).toEqual([
      expect.stringContaining('is not a property of cargo:Piece'),
    ]);
    expect(check({ '@id': '#p', '@type': 'cargo:Piece', 'cargo:hsCodes': 'x' })[0]).toContain(
      'is not a property of the ontology',
    );
    expect(check({ '@id': '#p', '@type': 'cargo:Parcel' })[0]).toContain('is not a class');
    expect(check({ '@id': '#p', '@type': 'cargo:Piece', 'cargo:goodsDescription': 5 })[0]).toContain('XMLSchema#integer literal');
    expect(check({ '@id': '#p', '@type': 'cargo:Piece', 'cargo:goodsDescription': ['a', 'b'] })[0]).toContain('at most one');
    expect(
      check({ '@id': '#s', '@type': 'cargo:Shipment', 'cargo:totalDimensions': { '@type': 'cargo:Dimensions' } })[0],
    ).toContain('deprecated');
    expect(check({ '@id': '#w', '@type': 'cargo:Waybill', 'cargo:waybillType': { '@id': 'cargo:LOOSE' } })[0]).toContain('range');
    expect(() =>
      check({ '@id': '#p', '@type': 'cargo:Piece', 'cargo:goodsDescription': { '@language': 'en', '@value': 'x' } }),
    ).toThrow();
  });
});
