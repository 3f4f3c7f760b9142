// Request bodies shared by the benchmarks and their baselines. Bodies that create something carry
// placeholders that the load generator replaces per request, so every request is a new package or
// container (never a retry answered from the idempotency check).

export const RATE_PATH = '/version-test/api/1.1/wf/rate';
export const PACKAGE_PATH = '/version-test/api/1.1/wf/package';
export const MANIFEST_PATH = '/version-test/api/1.1/wf/manifest';

/** All services: both ZIPs and both airports, so every active card prices it. */
export const RATE_BODY = JSON.stringify({
  weight: 5,
  weight_unit: 'lb',
  from_zip: '10001',
  to_zip: '90210',
  service: '',
  lenght: 10,
  width: 8,
  height: 6,
  origin: 'JFK',
  destination: 'LAX',
});

/** `__TN__` is replaced by a unique tracking number per request. */
export const PACKAGE_TEMPLATE = JSON.stringify({
  package: {
    TrackingNumber: '__TN__',
    FinalMileCarrier: 'Carrier',
    ManifestDate: '2026-11-23',
    ServiceName: 'AirSkip',
    FromCompany: 'Maple Goods',
    FromAddress1: '100 King St W',
    FromCity: 'Toronto',
    FromState: 'ON',
    FromPostalCode: 'M5X 1A9',
    FromCountry: 'CA',
    ToName: 'Ada Lovelace',
    ToAddress1: '1 Main St',
    ToCity: 'Beverly Hills',
    ToState: 'CA',
    ToPostalCode: '90210',
    ShipmentDescription: 'Books',
    PackageSizeLength: 10,
    PackageSizeWidth: 8,
    PackageSizeHeight: 4,
    PackageWeight: 1.2,
    WeightUnit: 'kg',
  },
});

/** A container with `count` packages; `__C__` (ContainerID and tracking-number prefix) is replaced per request. */
export function manifestTemplate(count: number): string {
  const details = Array.from({ length: count }, (_, i) => ({
    TrackingNumber: `__C__-${String(i).padStart(5, '0')}`,
    PackageWeight: 2.5,
    PackageWeightUnit: 'lb',
    PackageSizeLength: 12,
    PackageSizeWidth: 9,
    PackageSizeHeight: 4,
    ToName: `Recipient ${i}`,
    ToAddress1: `${i} Market St`,
    ToCity: 'San Francisco',
    ToState: 'CA',
    ToPostalCode: '94105',
    ToCountry: 'US',
  }));
  return JSON.stringify({
    ManifestDate: '2026-11-23T08:00:00Z',
    ServiceName: 'AirSkip',
    FromCompany: 'Acme Parcels',
    ContainerID: '__C__',
    ContainerLength: 48,
    ContainerWidth: 40,
    ContainerHeight: 36,
    ShipmentDescription: 'Apparel',
    AWB: '000-12345675',
    'Container Weight': 120.5,
    ContainerDetails: details,
  });
}

/** Unique per process and call: a run prefix plus a counter (both readable in the database). */
export function uniqueIds(prefix: string): () => string {
  const run = `${prefix}${Date.now().toString(36).toUpperCase()}${process.pid.toString(36).toUpperCase()}`;
  let n = 0;
  return () => `${run}X${(n++).toString(36).toUpperCase()}`;
}
