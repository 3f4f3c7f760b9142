import { describe, expect, it } from 'vitest';
import { manifestLabels, materializeManifest, type ManifestSource } from './manifest-source';

// The manifest the renderers draw, made on the render thread from the rows' JSON text (load-documents.ts reads it).

const at = new Date('2026-11-23T20:00:00Z');
const rows = (...packages: [Record<string, unknown>, string, string][]) => new TextEncoder().encode(JSON.stringify(packages));

describe('materializeManifest', () => {
  it("a container: header fields, packages in order with the header's defaults, cancelled ones left out and counted", () => {
    const source: ManifestSource = {
      kind: 'container',
      manifestId: 'MAN-C',
      state: 'open',
      manifestDate: '2026-11-23',
      serviceName: 'AirSkip',
      awb: '00012345675',
      containerId: 'ULD-1',
      shipmentDescription: 'Apparel',
      generatedAt: at,
      header: {
        FromCompany: 'Acme',
        FromPostalCode: '07114',
        ContainerLength: 48,
        ContainerWidth: '40',
        ContainerHeight: 36.25,
        'Container Weight': 120.5,
        'Container Name': 42,
        SortCode: 'LAX-1',
        Consignee: 'Hub',
        ToTerminal: 'LAX',
      },
      packages: rows(
        [{ TrackingNumber: 'A', PackageWeight: '2.5', PackageWeightUnit: 'kg' }, 'manifested', 'CB1'],
        [{ TrackingNumber: 'B' }, 'cancelled', 'CB2'],
        [{ TrackingNumber: 'C', SortCode: 'OWN', ToName: 'Jane' }, 'received', 'CB3'],
      ),
    };
    const manifest = materializeManifest(source);
    expect(manifest).toMatchObject({
      kind: 'container',
      shipper: { company: 'Acme', postalCode: '07114' },
      containerDimensions: { length: 48, width: 40, height: 36.25 },
      containerWeightLb: 120.5,
      containerName: '42',
      toTerminal: 'LAX',
      awb: '00012345675',
      cancelledPackages: 1,
      generatedAt: at,
    });
    expect(manifest.packages).toEqual([
      expect.objectContaining({
        trackingNumber: 'A',
        carrierBarcode: 'CB1',
        weight: 2.5,
        weightUnit: 'kg',
        sortCode: 'LAX-1',
        toName: 'Hub',
        toTerminal: 'LAX',
      }),
      expect.objectContaining({ trackingNumber: 'C', carrierBarcode: 'CB3', sortCode: 'OWN', toName: 'Jane' }),
    ]);
    expect(manifestLabels(manifest).map((l) => [l.pkg.trackingNumber, l.state, l.manifestId])).toEqual([
      ['A', 'open', 'MAN-C'],
      ['C', 'open', 'MAN-C'],
    ]);
  });

  it('a daily manifest: shipper from its first package, one service or Mixed; a cancelled manifest shows every package', () => {
    const daily = (state: ManifestSource['state'], packages: Uint8Array): ManifestSource => ({
      kind: 'daily',
      manifestId: 'MAN-D',
      state,
      manifestDate: '2026-11-23',
      generatedAt: at,
      packages,
    });
    const one = materializeManifest(
      daily(
        'closed',
        rows(
          [{ FromCompany: 'Maple', ServiceName: 'AirSkip', FromTerminal: 'YYZ' }, 'manifested', 'CB1'],
          [{ ServiceName: 'AirSkip' }, 'manifested', 'CB2'],
        ),
      ),
    );
    expect(one).toMatchObject({
      state: 'closed',
      shipper: { company: 'Maple' },
      serviceName: 'AirSkip',
      fromTerminal: 'YYZ',
      cancelledPackages: 0,
    });
    const mixed = materializeManifest(
      daily(
        'open',
        rows(
          [{ ServiceName: 'AirSkip' }, 'cancelled', 'CB1'],
          [{ ServiceName: 'Express' }, 'manifested', 'CB2'],
          [{ ServiceName: 'AirSkip' }, 'manifested', 'CB3'],
        ),
      ),
    );
    expect(mixed).toMatchObject({ serviceName: 'Mixed', cancelledPackages: 1 });
    expect(mixed.packages.map((p) => p.carrierBarcode)).toEqual(['CB2', 'CB3']);
    const cancelled = materializeManifest(daily('cancelled', rows([{}, 'cancelled', 'CB1'], [{}, 'cancelled', 'CB2'])));
    expect(cancelled).toMatchObject({
      packages: [expect.anything(), expect.anything()],
      cancelledPackages: 0,
      serviceName: undefined,
    });
    expect(materializeManifest(daily('open', rows()))).toMatchObject({ packages: [], shipper: {}, serviceName: undefined });
  });
});
