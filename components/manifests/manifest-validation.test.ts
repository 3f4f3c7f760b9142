import { describe, expect, it } from 'vitest';
import { ZContainerManifestRequest } from '@/lib/schemas/container-manifest';
import { buildManifestBody, issueDetails, placeDetails, problemsLead } from './manifest-validation';
import { draftKey, draftToSave } from './use-manifest-draft';

describe('buildManifestBody', () => {
  it("keeps trimmed header fields that hold something and leaves blank rows out, remembering each item's row", () => {
    const { body, rowOf } = buildManifestBody({ ContainerID: ' C1 ', ServiceName: '  ', FromName: 'Dock' }, [
      {},
      { TrackingNumber: ' T1 ', ToName: '' },
      { ToName: '   ' },
      { TrackingNumber: 'T2' },
    ]);
    expect(body).toEqual({
      ContainerID: 'C1',
      FromName: 'Dock',
      ContainerDetails: [{ TrackingNumber: 'T1' }, { TrackingNumber: 'T2' }],
    });
    expect(rowOf).toEqual([1, 3]);
  });

  it('has no ContainerDetails when every row is blank', () => {
    expect(buildManifestBody({}, [{}, {}])).toEqual({ body: {}, rowOf: [] });
  });
});

describe('issueDetails', () => {
  it('names each issue by its path, as the API does', () => {
    const check = ZContainerManifestRequest.safeParse({ ContainerDetails: [{ PackageWeight: 'x' }] });
    expect(check.success).toBe(false);
    const details = issueDetails(check.error!.issues);
    expect(details).toContainEqual({ path: 'ContainerDetails[0].PackageWeight', message: 'must be a number' });
    expect(issueDetails([{ path: [], message: 'must be an object' }])).toEqual([
      { path: '(body)', message: 'must be an object' },
    ]);
  });
});

describe('placeDetails', () => {
  it('puts item errors on the grid row they came from, merging fields of one row', () => {
    const placed = placeDetails(
      [
        { path: 'ContainerDetails[0].PackageWeight', message: 'must be a number' },
        { path: 'ContainerDetails[1].TrackingNumber', message: 'duplicate' },
        { path: 'ContainerDetails[1].ToEmail', message: 'not an email' },
      ],
      [2, 5],
    );
    expect([...placed.rows]).toEqual([
      [2, { PackageWeight: 'must be a number' }],
      [5, { TrackingNumber: 'duplicate', ToEmail: 'not an email' }],
    ]);
    expect(placed.header).toEqual([]);
    expect(placed.unplaced).toEqual([]);
  });

  it('falls back to the item index when no row is known (a server detail past rowOf)', () => {
    expect([...placeDetails([{ path: 'ContainerDetails[7].ToName', message: 'm' }], []).rows]).toEqual([[7, { ToName: 'm' }]]);
  });

  it('puts header errors on the form field, an alias on its canonical field', () => {
    const placed = placeDetails(
      [
        { path: 'ContainerID', message: 'is required' },
        { path: 'Container Weight', message: 'must be a number' },
        { path: 'FromPostalcode', message: 'too long' },
      ],
      [],
    );
    expect(placed.header).toEqual([
      ['ContainerID', 'is required'],
      ['ContainerWeight', 'must be a number'],
      ['FromPostalCode', 'too long'],
    ]);
    expect(placed.rows.size).toBe(0);
  });

  it('returns what fits neither as "path: message"', () => {
    const placed = placeDetails(
      [
        { path: '(body)', message: 'must be an object' },
        { path: 'ContainerDetails', message: 'at most 5000 items' },
        { path: 'ContainerDetails[0].Nope', message: 'unknown field' },
        { path: 'Unknown', message: 'unknown field' },
      ],
      [0],
    );
    expect(placed.unplaced).toEqual([
      '(body): must be an object',
      'ContainerDetails: at most 5000 items',
      'ContainerDetails[0].Nope: unknown field',
      'Unknown: unknown field',
    ]);
    expect(placed.header).toEqual([]);
    expect(placed.rows.size).toBe(0);
  });
});

describe('customs and security in the builder', () => {
  it("sends the security inputs as Security and a row's customs cells as its Customs", () => {
    const { body } = buildManifestBody({ ContainerID: 'AKE12345XH', SecurityStatus: 'spx', SecurityScreeningMethod: 'XRY' }, [
      {
        TrackingNumber: 'T1',
        CustomsHSCode: '610910',
        CustomsDescription: 'Cotton T-shirt',
        CustomsValue: '10',
        CustomsCurrency: 'USD',
      },
    ]);
    expect(body).toEqual({
      ContainerID: 'AKE12345XH',
      Security: { Status: 'spx', ScreeningMethod: 'XRY' },
      ContainerDetails: [
        {
          TrackingNumber: 'T1',
          Customs: { Currency: 'USD', Items: [{ Description: 'Cotton T-shirt', Quantity: '1', Value: '10', HSCode: '610910' }] },
        },
      ],
    });
  });

  it("places the API's customs and security paths on their cells and inputs", () => {
    const placed = placeDetails(
      [
        { path: 'ContainerDetails[1].Customs.Items[0].HSCode', message: 'hs' },
        { path: 'ContainerDetails[1].Customs.Currency', message: 'cur' },
        { path: 'ContainerDetails[0].Customs.HouseWaybill', message: 'hwb' },
        { path: 'Security.Status', message: 'status' },
        { path: 'Security.ScreeningMethod', message: 'method' },
        { path: 'FlightNumber', message: 'flight' },
      ],
      [2, 5],
    );
    expect([...placed.rows]).toEqual([
      [5, { CustomsHSCode: 'hs', CustomsCurrency: 'cur' }],
      [2, { CustomsDescription: 'hwb' }],
    ]);
    expect(placed.header).toEqual([
      ['SecurityStatus', 'status'],
      ['SecurityScreeningMethod', 'method'],
      ['FlightNumber', 'flight'],
    ]);
    expect(placed.unplaced).toEqual([]);
  });
});

describe('problemsLead', () => {
  it('counts in singular and plural', () => {
    expect(problemsLead(1)).toBe('1 problem to fix before this manifest can be created.');
    expect(problemsLead(3)).toBe('3 problems to fix before this manifest can be created.');
  });
});

describe('draft persistence', () => {
  const now = new Date('2026-11-23T08:00:00Z');
  it('keys drafts by account and environment', () => {
    expect(draftKey('acc_1', 'live')).toBe('carrier.manifest-draft.v1.acc_1.live');
  });

  it('stores nothing for an empty header and blank rows', () => {
    expect(draftToSave({ ContainerID: '  ' }, [{}, { ToName: ' ' }], now)).toBeNull();
  });

  it('drops trailing blank rows, keeps inner ones and the header as typed', () => {
    expect(draftToSave({ ContainerID: 'C1' }, [{}, { TrackingNumber: 'T1' }, {}, {}], now)).toEqual({
      v: 1,
      savedAt: '2026-11-23T08:00:00.000Z',
      header: { ContainerID: 'C1' },
      rows: [{}, { TrackingNumber: 'T1' }],
    });
    expect(draftToSave({}, [{ ToName: 'x' }], now)?.rows).toEqual([{ ToName: 'x' }]);
  });
});
