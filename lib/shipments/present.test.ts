import { describe, expect, it, vi } from 'vitest';
import { presentEvent, presentManifest, presentPackage } from './read';

// A stored date JavaScript cannot represent (a year-0000 row, or one pg hands over as an Invalid Date) must never make
// a read throw (a 500): it reads as null, as the portal's presenters show it as "—".
const invalid = new Date(Number.NaN);
const valid = new Date('2026-11-23T08:00:00.000Z');

describe('presenters and invalid stored dates', () => {
  it('presentPackage gives null for invalid dates and ISO strings for valid ones', () => {
    vi.stubEnv('DATABASE_URL', 'postgresql://localhost/unit');
    vi.stubEnv('APP_URL', 'https://carrier.example/base/');
    const row = {
      kind: 0,
      id: '1',
      created_at: invalid,
      tracking_number: 'TN1',
      carrier_barcode: 'CB0000000000000',
      manifest_id: 'MAN-1',
      container_id: 'ULD-1',
      service_name: 'AirSkip',
      manifest_date: invalid,
      status: 'manifested' as const,
      status_updated_at: invalid,
      house_waybill: 'H00000000000',
      customs_status: 'do_not_load',
      customs_status_updated_at: invalid,
      charge: null,
      offloaded_at: null,
      body: {},
    };
    expect(presentPackage(row, 'test')).toMatchObject({
      // A test package's link is the test page, which says it is not a real shipment.
      tracking_url: 'https://carrier.example/base/track/test/CB0000000000000',
      ManifestDate: null,
      status_updated_at: null,
      created_at: null,
      TrackingNumber: 'TN1',
      house_waybill: 'H00000000000',
      customs_status: 'do_not_load',
      customs_status_updated_at: null,
    });
    expect(presentPackage({ ...row, created_at: valid, manifest_date: valid, status_updated_at: valid }, 'live')).toMatchObject({
      tracking_url: 'https://carrier.example/base/track/CB0000000000000',
      ManifestDate: '2026-11-23T08:00:00.000Z',
      status_updated_at: '2026-11-23T08:00:00.000Z',
      created_at: '2026-11-23T08:00:00.000Z',
    });
  });

  it('presentManifest and presentEvent too', () => {
    const manifest = {
      kind: 1,
      id: 'MAN-1',
      created_at: invalid,
      container_id: null,
      service_name: null,
      manifest_date: 'not a date',
      manifest_date_defaulted: false,
      services: ['AirSkip'],
      status: 'manifested' as const,
      status_updated_at: invalid,
      package_count: 3,
      header: null,
      customs_status: null,
    };
    expect(presentManifest(manifest)).toMatchObject({
      ManifestDate: null,
      status_updated_at: null,
      created_at: null,
      PackageCount: 3,
    });
    expect(presentManifest({ ...manifest, manifest_date: valid })).toMatchObject({ ManifestDate: '2026-11-23' });
    // A container names its container and service from its row even when its stored header lacks them (an old row).
    expect(
      presentManifest({ ...manifest, kind: 0, container_id: 'ULD-1', service_name: 'AirSkip', manifest_date: valid, header: {} }),
    ).toMatchObject({
      ContainerID: 'ULD-1',
      ServiceName: 'AirSkip',
      ManifestDate: '2026-11-23T08:00:00.000Z',
      services: ['AirSkip'],
      manifest_date_defaulted: false,
    });
    const event = {
      id: '7',
      type: 'package.received',
      status: 'received',
      previous_status: 'manifested',
      applied: true,
      occurred_at: invalid,
      location: null,
      source: 'scan' as const,
      scan_id: null,
      exception_code: null,
      exception_text: null,
      details: null,
      created_at: invalid,
    };
    expect(presentEvent(event)).toMatchObject({ id: 'lev_7', occurred_at: null, created_at: null });
    expect(presentEvent(event)).not.toHaveProperty('customs');
    // A customs outcome's details, whatever a stored row holds: text or null, never a 500.
    expect(
      presentEvent({ ...event, type: 'customs.information_requested', details: { reference: 'MRN1', text: 42 } }),
    ).toMatchObject({ customs: { reference: 'MRN1', text: null } });
    expect(presentEvent({ ...event, type: 'package.amended', details: { fields: ['ToPhone', 7] } })).toMatchObject({
      amended_fields: ['ToPhone'],
    });
  });
});
