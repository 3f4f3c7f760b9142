import 'server-only';
import { pgPool } from '@/lib/db';
import { activeRateCards } from '@/lib/rating/active-rate-cards';
import { isCarrierBarcode, normalizeCarrierBarcode } from '@/lib/schemas/carrier-barcode';
import type { TPublicTracking, TPublicTrackingEvent } from '@/lib/schemas/public-tracking';
import { PACKAGE_STATUSES, type PackageStatus } from '@/lib/schemas/statuses';
import { queryRows, sql, type Sql } from '@/lib/sql';
import { estimateDelivery } from './estimate-delivery';
import { publicPlace } from './places';
import { plausiblePostalCode, samePostalCode } from './postal-code';

// The public lookup (docs/decisions/public-tracking.md). Live packages, of any shipper: by carrier barcode (ours,
// unique across the carrier), or by tracking number AND destination postal code, since shippers choose tracking
// numbers and two of them may choose the same one. Whatever is not one live package answering both (unknown, another
// shipper's, a test package, a wrong postal code) is the same `not_found`; input that no package could have is
// refused by its shape before any query. The test page (/track/test/…) looks up test packages the same way, by
// carrier barcode only: a tracking number's index holds live rows, and a test package is found from its own link.

export type TrackingLookup =
  | {
      outcome: 'found';
      tracking: TPublicTracking;
      /** Whose package: its branding (lib/branding), never in the answer. */ accountId: string;
    }
  | { outcome: 'not_found' }
  /** A tracking number without a postal code: asked for, nothing looked up. */
  | { outcome: 'needs_postal_code' }
  /** Two live packages share this tracking number and postal code: only the carrier barcode tells them apart. */
  | { outcome: 'ambiguous' };

const TRACKING_NUMBER = /^[A-Za-z0-9._-]{1,64}$/;

interface CandidateRow {
  account_id: string;
  manifest_id: string;
  tracking_number: string | null;
  carrier_barcode: string;
  status: string;
  status_updated_at: Date;
  created_at: Date;
  manifest_date: Date | null;
  service_name: string | null;
  to_postal_code: string | null;
  shipper: string | null;
  from_postal_code: string | null;
  from_terminal: string | null;
  to_terminal: string | null;
  to_city: string | null;
  to_state: string | null;
  to_country: string | null;
}

export type PublicEnvironment = 'live' | 'test';

// The environment is written out, not bound: the partial indexes on lower(tracking_number) hold live rows only, and a
// plan made for a parameter could not use them.
const ENVIRONMENT: Record<PublicEnvironment, Sql<unknown>> = { live: sql`'live'`, test: sql`'test'` };

function candidates(environment: PublicEnvironment, where: { daily: Sql<unknown>; container: Sql<unknown> }): Sql<CandidateRow> {
  return sql<CandidateRow>`
    SELECT p.account_id, p.daily_manifest_id AS manifest_id, p.tracking_number, p.carrier_barcode, p.status,
           p.status_updated_at, p.created_at, p.manifest_date, p.service_name, p.to_postal_code,
           p.data->>'FromCompany' AS shipper, p.data->>'FromPostalCode' AS from_postal_code,
           p.data->>'FromTerminal' AS from_terminal, p.data->>'ToTerminal' AS to_terminal,
           p.data->>'ToCity' AS to_city, p.data->>'ToState' AS to_state, p.data->>'ToCountry' AS to_country
    FROM packages p WHERE p.environment = ${ENVIRONMENT[environment]} AND ${where.daily}
    UNION ALL
    SELECT cp.account_id, cp.manifest_id, cp.tracking_number, cp.carrier_barcode, cp.status,
           cp.status_updated_at, cp.created_at, cp.manifest_date, cp.service_name, cp.to_postal_code,
           m.from_company, coalesce(m.header->>'FromPostalcode', m.header->>'FromPostalCode'),
           coalesce(cp.detail->>'FromTerminal', m.header->>'FromTerminal'), coalesce(cp.detail->>'ToTerminal', m.header->>'ToTerminal'),
           cp.detail->>'ToCity', cp.detail->>'ToState', cp.detail->>'ToCountry'
    FROM container_packages cp JOIN container_manifests m ON m.id = cp.manifest_id
    WHERE cp.environment = ${ENVIRONMENT[environment]} AND ${where.container}
    LIMIT 20`;
}

interface EventRow {
  status: string;
  occurred_at: Date;
  location: string | null;
}

const DESCRIPTIONS: Record<PackageStatus, string> = {
  manifested: 'Shipment information received: the shipper has told us about this package',
  received: 'Received by the carrier',
  in_transit: 'In transit',
  out_for_delivery: 'Out for delivery',
  delivered: 'Delivered',
  exception: 'Delivery exception: something is holding this package up, and the carrier is working on it',
  cancelled: 'Cancelled by the shipper before the carrier received it',
};

/** What the public page says of a status. */
export function describeStatus(status: PackageStatus): string {
  return DESCRIPTIONS[status];
}

const isPackageStatus = (value: string): value is PackageStatus => (PACKAGE_STATUSES as readonly string[]).includes(value);
const text = (value: string | null) => (value && value.trim() !== '' ? value.trim() : null);

/**
 * `id`: a carrier barcode or a tracking number, as typed; `postalCode`: the destination's, for a tracking number.
 * `environment` test: the test page's lookup, by carrier barcode only.
 */
export async function findTrackedPackage(options: {
  id: string;
  postalCode?: string | null;
  environment?: PublicEnvironment;
}): Promise<TrackingLookup> {
  const environment = options.environment ?? 'live';
  const id = options.id.trim();
  const postalCode = options.postalCode?.trim() ?? '';
  let rows: CandidateRow[];
  if (isCarrierBarcode(id)) {
    const barcode = normalizeCarrierBarcode(id);
    rows = await queryRows(
      pgPool(),
      candidates(environment, { daily: sql`p.carrier_barcode = ${barcode}`, container: sql`cp.carrier_barcode = ${barcode}` }),
    );
  } else {
    if (environment === 'test') return { outcome: 'not_found' };
    if (!TRACKING_NUMBER.test(id)) return { outcome: 'not_found' };
    if (postalCode === '') return { outcome: 'needs_postal_code' };
    if (!plausiblePostalCode(postalCode)) return { outcome: 'not_found' };
    const lower = id.toLowerCase();
    const found = await queryRows(
      pgPool(),
      candidates(environment, {
        daily: sql`lower(p.tracking_number) = ${lower}`,
        container: sql`lower(cp.tracking_number) = ${lower}`,
      }),
    );
    rows = found.filter((row) => samePostalCode(row.to_postal_code, postalCode));
  }
  const [row, another] = rows;
  if (!row || !isPackageStatus(row.status)) return { outcome: 'not_found' };
  if (another) return { outcome: 'ambiguous' };
  return { outcome: 'found', tracking: await present(row, row.status, environment), accountId: row.account_id };
}

async function present(row: CandidateRow, status: PackageStatus, environment: PublicEnvironment): Promise<TPublicTracking> {
  const [events, cards] = await Promise.all([eventsOf(row, environment), activeRateCards.get()]);
  const timeline: TPublicTrackingEvent[] = [
    {
      status: 'manifested',
      description: describeStatus('manifested'),
      occurred_at: row.created_at.toISOString(),
      location: null,
    },
    ...events.flatMap((event): TPublicTrackingEvent[] =>
      isPackageStatus(event.status)
        ? [
            {
              status: event.status,
              description: describeStatus(event.status),
              occurred_at: event.occurred_at.toISOString(),
              location: publicPlace(event.location),
            },
          ]
        : [],
    ),
  ];
  const onItsWay = status !== 'delivered' && status !== 'cancelled';
  const estimate =
    onItsWay && row.manifest_date
      ? estimateDelivery({
          cards,
          service: row.service_name,
          manifestDate: row.manifest_date,
          fromPostalCode: row.from_postal_code,
          toPostalCode: row.to_postal_code,
          fromTerminal: row.from_terminal,
          toTerminal: row.to_terminal,
        })
      : null;
  const today = new Date().toISOString().slice(0, 10);
  // Out for delivery: it arrives today, whatever the transit days said.
  const expected = status === 'out_for_delivery' ? row.status_updated_at.toISOString().slice(0, 10) : estimate;
  const city = text(row.to_city);
  const state = text(row.to_state);
  const country = text(row.to_country);
  return {
    object: 'tracking',
    environment,
    carrier_barcode: row.carrier_barcode,
    tracking_number: row.tracking_number,
    status,
    status_description: describeStatus(status),
    status_updated_at: row.status_updated_at.toISOString(),
    shipper: text(row.shipper),
    service: text(row.service_name),
    destination: city || state || country ? { city, state, country } : null,
    estimated_delivery: expected !== null && expected >= today ? expected : null,
    delivered_at: status === 'delivered' ? row.status_updated_at.toISOString() : null,
    events: timeline,
  };
}

// The package's own status changes, oldest first: not its customs outcomes or amendments (the shipper's business), nor
// scans kept for history only. A package with a tracking number is found by it (unique in its account and
// environment: the index's prefix); one without, by its manifest and barcode.
function eventsOf(row: CandidateRow, environment: PublicEnvironment): Promise<EventRow[]> {
  const subject =
    row.tracking_number !== null
      ? sql`tracking_number = ${row.tracking_number}`
      : sql`manifest_id = ${row.manifest_id} AND carrier_barcode = ${row.carrier_barcode}`;
  return queryRows(
    pgPool(),
    sql<EventRow>`SELECT status, occurred_at, location FROM lifecycle_events
     WHERE account_id = ${row.account_id}::uuid AND environment = ${ENVIRONMENT[environment]} AND ${subject}
       AND subject_type = 'package' AND applied AND type = 'package.' || status
     ORDER BY occurred_at, id LIMIT 200`,
  );
}
