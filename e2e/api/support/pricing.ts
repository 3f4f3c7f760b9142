// Shared by the pricing, adjustment and hostile pricing suites: a Carrier Express package the seeded card prices,
// and reads of the billing ledger.
import { pgPool } from '@/lib/db';
import { call, type Env, type TestAccount } from './api';
import { containerDetail, containerSample } from './samples';

/** 3 lb, 10×8×6 in, New York → Beverly Hills (zone 8 on the ZIP cards). */
export function expressPackage(
  trackingNumber: string,
  extra: Record<string, unknown> = {},
  manifestDate = '2026-11-30T08:00:00Z',
) {
  return {
    package: {
      TrackingNumber: trackingNumber,
      FinalMileCarrier: 'Carrier',
      ManifestDate: manifestDate,
      ServiceName: 'Carrier Express',
      FromCompany: 'Acme',
      FromAddress1: '1 Main St',
      FromCity: 'New York',
      FromState: 'NY',
      FromPostalCode: '10001',
      FromCountry: 'US',
      ToPostalCode: '90210',
      ShipmentDescription: 'Books',
      PackageSizeLength: 10,
      PackageSizeWidth: 8,
      PackageSizeHeight: 6,
      PackageWeight: 3,
      WeightUnit: 'lb',
      ...extra,
    },
  };
}

export const EXPRESS_RATE = {
  weight: 3,
  weight_unit: 'lb',
  from_zip: '10001',
  to_zip: '90210',
  service: 'Carrier Express',
  length: 10,
  width: 8,
  height: 6,
};

export async function quote(account: TestAccount, body: Record<string, unknown> = EXPRESS_RATE, env: Env = 'test') {
  const result = await call('/wf/rate', { env, token: account.tokens[env], body });
  if (result.status !== 200) throw new Error(`rate: ${result.status} ${result.text}`);
  return result.json.rates[0] as { amount: string; quote_id: string; card_version: number; currency: string };
}

/** An AirSkip container with airports, each package 2.5 lb 10×8×4 in (containerDetail). */
export function airContainer(containerId: string, numbers: string[], extra: Record<string, unknown> = {}) {
  return {
    ...containerSample(containerId, []),
    OriginAirport: 'EWR',
    DestinationAirport: 'LAX',
    ContainerDetails: numbers.map((n) => containerDetail(n)),
    ...extra,
  };
}

export interface EntryRow {
  kind: string;
  amount: string;
  currency: string;
  service: string;
  carrier_barcode: string;
  tracking_number: string | null;
  manifest_id: string;
  scan_id: string | null;
  voided_at: Date | null;
  invoice_id: string | null;
  detail: Record<string, unknown>;
  package_id: string | null;
  container_package_id: string | null;
}

export async function ledger(accountId: string, trackingNumber?: string): Promise<EntryRow[]> {
  const { rows } = await pgPool().query<EntryRow>(
    `SELECT kind, amount::text AS amount, currency, service, carrier_barcode, tracking_number, manifest_id, scan_id, voided_at, invoice_id,
            detail, package_id::text AS package_id, container_package_id::text AS container_package_id
     FROM billing_entries WHERE account_id = $1 AND ($2::text IS NULL OR tracking_number = $2) ORDER BY id`,
    [accountId, trackingNumber ?? null],
  );
  return rows;
}
