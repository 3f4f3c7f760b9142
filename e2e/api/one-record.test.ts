import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { CARGO, expandJsonLd, ontologyProblems, oneRecordOntology } from '@/lib/test-support/one-record-ontology';
import { baseUrl, call, newAccount, pathFor, tracking, type Env, type TestAccount } from './support/api';
import { containerDetail, containerSample, packageSample } from './support/samples';

// GET /manifests/{id}/one-record through the production server: the container as IATA ONE Record JSON-LD, checked
// against the ontology file IATA publishes (lib/documents/fixtures/one-record) with lib/test-support's checker, and
// the rules around it: scoping, Accept, a daily manifest and a cancelled container refused, cancelled parcels left out.

let acme: TestAccount;
let stranger: TestAccount;
let manifestId = '';
let uld = '';
const numbers: string[] = [];

const CUSTOMS = {
  ContentsType: 'merchandise',
  Incoterm: 'DAP',
  Currency: 'USD',
  IOSS: 'IM2760000742',
  Items: [
    {
      Description: 'Cotton T-shirt',
      Quantity: 2,
      Value: '12.5',
      Weight: 0.4,
      WeightUnit: 'kg',
      HSCode: '6109.10',
      OriginCountry: 'cn',
    },
    { Description: 'Leather wallet', Quantity: 1, Value: 30, HSCode: '420232', OriginCountry: 'IT' },
  ],
};

function container(containerId: string, details: unknown[]) {
  return {
    ...containerSample(containerId),
    ULD: containerId.startsWith('AKE') ? containerId : undefined,
    SealNumber: 'SEAL-0042',
    FlightNumber: 'LH 401',
    FlightDate: '2026-11-24',
    OriginAirport: 'jfk',
    DestinationAirport: 'FRA',
    Security: { Status: 'SPX', ScreeningMethod: 'XRY, EDD', IssuedBy: 'US/RA/0001' },
    ContainerDetails: details,
  };
}

beforeAll(async () => {
  [acme, stranger] = await Promise.all([newAccount('OneRecord'), newAccount('OneRecordStranger')]);
  numbers.push(tracking('OR'), tracking('OR'), tracking('OR'));
  uld = `AKE${String(10000 + Math.floor(Math.random() * 89999))}LH`;
  const created = await call('/wf/manifest', {
    token: acme.tokens.test,
    body: container(uld, [
      { ...containerDetail(numbers[0]), ToCountry: 'DE', Customs: { ...CUSTOMS, HouseWaybill: 'hwb77' } },
      { ...containerDetail(numbers[1]), ToCountry: 'DE', Customs: CUSTOMS },
      { ...containerDetail(numbers[2]), ToCountry: 'DE' },
    ]),
  });
  expect(created.status, created.text).toBe(200);
  manifestId = created.json.ManifestID;
});

async function get(p: string, options: { env?: Env; token?: string; accept?: string } = {}) {
  const response = await fetch(baseUrl + pathFor(options.env ?? 'test', p), {
    headers: {
      authorization: `Token ${options.token ?? acme.tokens.test}`,
      ...(options.accept ? { accept: options.accept } : {}),
    },
  });
  const text = await response.text();
  return { response, text };
}

type GraphNode = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- assertions read arbitrary fields

async function exported(id = manifestId) {
  const { response, text } = await get(`/manifests/${id}/one-record`);
  expect(response.status, text).toBe(200);
  const json = JSON.parse(text) as { '@context': Record<string, string>; '@graph': GraphNode[] };
  const node = (nodeId: string) => json['@graph'].find((n) => n['@id'] === nodeId) as GraphNode;
  return { response, json, graph: json['@graph'], node };
}

async function barcodeOf(tn: string): Promise<string> {
  const read = await call(`/packages/${tn}`, { method: 'GET', token: acme.tokens.test });
  return read.json.carrier_barcode;
}

describe('GET /manifests/{id}/one-record', () => {
  it('answers JSON-LD whose every @type and property the ONE Record 3.3.0 ontology defines, on a class that has it', async () => {
    const { response, json } = await exported();
    expect(response.headers.get('content-type')).toBe('application/ld+json');
    expect(response.headers.get('content-disposition')).toBe(`inline; filename="one-record-${manifestId}.jsonld"`);
    const expanded = expandJsonLd(json);
    expect(ontologyProblems(oneRecordOntology(), expanded)).toEqual([]);
    const types = new Set([...expanded.types.values()].flatMap((set) => [...set]));
    for (const name of ['Shipment', 'Piece', 'ULD', 'Waybill', 'SecurityDeclaration', 'Party', 'TransportMovement'])
      expect(types, name).toContain(CARGO + name);
    // Every node's id is a fragment of the export's own address on this API.
    expect(json['@context']['@base']).toMatch(new RegExp(`/version-test/api/1\\.1/manifests/${manifestId}/one-record$`));
  });

  it('the AWB as the MASTER waybill, a HOUSE waybill, Shipment and Piece per parcel; the ULD from the container', async () => {
    const { graph, node } = await exported();
    const master = node('#waybill');
    expect(master['cargo:waybillType']).toEqual({ '@id': 'cargo:MASTER' });
    expect([master['cargo:waybillPrefix'], master['cargo:waybillNumber']]).toEqual(['000', '12345675']);
    const barcodes = await Promise.all(numbers.map(barcodeOf));
    expect(master['cargo:houseWaybills']).toEqual(barcodes.map((b) => ({ '@id': `#hwb-${b}` })));
    expect(graph.filter((n) => n['@type'] === 'cargo:Piece')).toHaveLength(3);
    const house = node(`#hwb-${barcodes[0]}`);
    expect(house['cargo:waybillType']).toEqual({ '@id': 'cargo:HOUSE' });
    expect(house['cargo:waybillNumber']).toBe('HWB77');
    // A parcel sent without a house waybill has the one issued by us, as GET /packages reads it.
    const issued = node(`#hwb-${barcodes[1]}`)['cargo:waybillNumber'];
    expect(issued).toMatch(/^H\d{11}$/);
    expect(issued).toBe((await call(`/packages/${numbers[1]}`, { method: 'GET', token: acme.tokens.test })).json.house_waybill);
    expect(house['cargo:declaredValueForCustoms']['cargo:numericalValue']['@value']).toBe('42.50');
    const piece = node(`#piece-${barcodes[0]}`);
    expect(piece['cargo:goodsDescription']).toBe('Cotton T-shirt; Leather wallet');
    const hs = piece['cargo:containedItems'].map((item: GraphNode) => item['cargo:ofProduct']['cargo:hsCode']['@id']);
    expect(hs).toEqual(['carrier:HSCode#610910', 'carrier:HSCode#420232']);
    expect(piece['cargo:otherIdentifiers']).toContainEqual({
      '@type': 'cargo:OtherIdentifier',
      'cargo:otherIdentifierType': 'Tracking number',
      'cargo:textualValue': numbers[0],
    });
    const container = node('#uld');
    expect(container['cargo:uldTypeCode']).toEqual({ '@id': 'carrier:ULDTypeCode#AKE' });
    expect(container['cargo:uldSerialNumber']).toBe(uld.slice(3, 8));
    expect(container['cargo:ownerCode']).toEqual({ '@id': 'carrier:ULDOwnerCode#LH' });
    expect(container['cargo:sealNumber']).toBe('SEAL-0042');
    expect(node('#composing')['cargo:composedPieces']).toEqual(barcodes.map((b) => ({ '@id': `#piece-${b}` })));
    expect(node('#flight')['cargo:transportIdentifier']).toBe('LH401');
    expect(node('#security')['cargo:screeningMethods']).toEqual([
      { '@id': 'ccodes:ScreeningMethod#XRY' },
      { '@id': 'ccodes:ScreeningMethod#EDD' },
    ]);
    const parties = house['cargo:involvedParties'] as GraphNode[];
    expect(parties[0]).toEqual({ '@id': '#party-shipper' });
    expect(parties[1]?.['cargo:partyRole']).toEqual({ '@id': 'ccodes:ParticipantIdentifier#CNE' });
    expect(parties[1]?.['cargo:partyDetails']['cargo:name']).toBe('Jane Doe');
  });

  it('takes Accept: application/ld+json, application/json or */*; anything else is a 406', async () => {
    for (const accept of ['application/ld+json', 'application/json', '*/*', 'text/html, application/json;q=0.5'])
      expect((await get(`/manifests/${manifestId}/one-record`, { accept })).response.status, accept).toBe(200);
    for (const accept of ['text/html', 'application/pdf', 'application/json;q=0']) {
      const { response, text } = await get(`/manifests/${manifestId}/one-record`, { accept });
      expect(response.status, accept).toBe(406);
      expect(JSON.parse(text).error.code).toBe('not_acceptable');
    }
  });

  it('leaves a cancelled parcel out; a cancelled container and a daily manifest are a 409', async () => {
    const tns = [tracking('ORC'), tracking('ORC')];
    const created = await call('/wf/manifest', {
      token: acme.tokens.test,
      body: container(
        `CONT-${randomUUID().slice(0, 8)}`,
        tns.map((tn) => ({ ...containerDetail(tn), Customs: CUSTOMS })),
      ),
    });
    expect(created.status, created.text).toBe(200);
    expect((await call(`/packages/${tns[0]}/cancel`, { token: acme.tokens.test, body: {} })).status).toBe(200);
    const { graph, node } = await exported(created.json.ManifestID);
    const [gone, kept] = await Promise.all(tns.map(barcodeOf));
    expect(graph.some((n) => String(n['@id']).includes(gone))).toBe(false);
    expect(node('#waybill')['cargo:houseWaybills']).toEqual([{ '@id': `#hwb-${kept}` }]);
    // A ContainerID that is not a ULD: no ULD node, the pieces loaded on the flight directly.
    expect(node('#uld')).toBeUndefined();
    expect(node('#loading')['cargo:loadedPieces']).toEqual([{ '@id': `#piece-${kept}` }]);

    expect((await call(`/manifests/${created.json.ManifestID}/cancel`, { token: acme.tokens.test, body: {} })).status).toBe(200);
    const cancelled = await get(`/manifests/${created.json.ManifestID}/one-record`);
    expect(cancelled.response.status).toBe(409);
    expect(JSON.parse(cancelled.text).error.code).toBe('conflict');

    const daily = await call('/wf/package', { token: acme.tokens.test, body: packageSample(tracking('ORD')) });
    const dailyAnswer = await get(`/manifests/${daily.json.ManifestID}/one-record`);
    expect(dailyAnswer.response.status).toBe(409);
    expect(JSON.parse(dailyAnswer.text).error.message).toContain('daily manifest');
  });

  it("another account's container is a 404 and says nothing of it; the other environment's token is a 401", async () => {
    const theirs = await get(`/manifests/${manifestId}/one-record`, { token: stranger.tokens.test });
    expect(theirs.response.status).toBe(404);
    expect(JSON.parse(theirs.text).error.code).toBe('not_found');
    expect(theirs.text).not.toContain('Jane');
    expect((await get(`/manifests/${manifestId}/one-record`, { env: 'live', token: acme.tokens.live })).response.status).toBe(
      404,
    );
    expect((await get(`/manifests/${manifestId}/one-record`, { token: acme.tokens.live })).response.status).toBe(401);
    expect((await get('/manifests/MAN-NOSUCHMANIFEST00/one-record')).response.status).toBe(404);
  });

  it('hostile text (RTL overrides, the longest fields) is carried exactly, the document still valid JSON-LD', async () => {
    const tn = tracking('ORH');
    const name = `\u202Eevil\u202C ${'N'.repeat(200)}`;
    const description = `قميص \u202Eevil\u202C ${'cotton shirt '.repeat(30)}`.slice(0, 256).trim();
    const created = await call('/wf/manifest', {
      token: acme.tokens.test,
      body: container(`CONT-${randomUUID().slice(0, 8)}`, [
        {
          ...containerDetail(tn),
          ToName: name,
          Customs: { ...CUSTOMS, Items: [{ ...CUSTOMS.Items[0], Description: description }] },
        },
      ]),
    });
    expect(created.status, created.text).toBe(200);
    const { json, node } = await exported(created.json.ManifestID);
    expect(ontologyProblems(oneRecordOntology(), expandJsonLd(json))).toEqual([]);
    const barcode = await barcodeOf(tn);
    expect(node(`#piece-${barcode}`)['cargo:goodsDescription']).toBe(description);
    expect(node(`#hwb-${barcode}`)['cargo:involvedParties'][1]['cargo:partyDetails']['cargo:name']).toBe(name);
  });
});
