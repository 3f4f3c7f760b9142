import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { recordAudit, type AuditOrigin } from '@/lib/audit/record-audit';
import { pgPool, pgTransaction } from '@/lib/db';
import { isCarrierBarcode, normalizeCarrierBarcode } from '@/lib/schemas/carrier-barcode';
import type { TReturnSettings } from '@/lib/schemas/public-returns';
import { execute, queryRow, queryRows, sql } from '@/lib/sql';
import { samePostalCode } from '@/lib/tracking/postal-code';
import { createReturn, RETURNABLE_STATUSES } from './returns';

// Returns started by a recipient on the public tracking page (docs/decisions/returns.md "From the public tracking
// page"): only for a live package out for delivery or delivered, of a shipper that allows it, and only for someone
// who proves they hold the parcel by typing the destination postal code on its label. Whatever is not that (unknown,
// wrong code, not allowed, not yet out) is one answer, so the form tells nothing the tracking page does not.

const GRANT_SECONDS = 3_600;
const TRACKING_NUMBER = /^[A-Za-z0-9._-]{1,64}$/;

export async function getReturnSettings(options: { accountId: string }): Promise<TReturnSettings> {
  const row = await queryRow(
    pgPool(),
    sql<{
      public_returns: boolean;
    }>`SELECT public_returns FROM return_settings WHERE account_id = ${options.accountId}::uuid`,
  );
  return { public_returns: row?.public_returns ?? false };
}

export async function setReturnSettings(
  options: { accountId: string; origin: AuditOrigin },
  settings: TReturnSettings,
): Promise<TReturnSettings> {
  return pgTransaction(async (client) => {
    const before = await queryRow(
      client,
      sql<{
        public_returns: boolean;
      }>`SELECT public_returns FROM return_settings WHERE account_id = ${options.accountId}::uuid FOR UPDATE`,
    );
    await execute(
      client,
      sql`INSERT INTO return_settings (account_id, public_returns, updated_at) VALUES (${options.accountId}::uuid, ${settings.public_returns}, now())
       ON CONFLICT (account_id) DO UPDATE SET public_returns = EXCLUDED.public_returns, updated_at = now()`,
    );
    const was = before?.public_returns ?? false;
    // A save that changes nothing is not an event.
    if (was !== settings.public_returns) {
      await recordAudit(
        options.origin,
        {
          accountId: options.accountId,
          action: 'settings.updated',
          target: { type: 'settings', id: 'returns' },
          details: { public_returns_before: was, public_returns: settings.public_returns },
        },
        client,
      );
    }
    return { public_returns: settings.public_returns };
  });
}

/**
 * Whether the public page of this live package offers a return: the shipper allows it, the status does, and it is not
 * itself a return (whose recipient is the shipper).
 */
export async function offersPublicReturn(options: {
  accountId: string;
  status: string;
  carrierBarcode: string;
}): Promise<boolean> {
  if (!(RETURNABLE_STATUSES as readonly string[]).includes(options.status)) return false;
  const row = await queryRow(
    pgPool(),
    sql<{ allowed: boolean }>`
      SELECT coalesce((SELECT public_returns FROM return_settings WHERE account_id = ${options.accountId}::uuid), false)
         AND NOT EXISTS (SELECT 1 FROM package_returns WHERE return_barcode = ${options.carrierBarcode}) AS allowed`,
  );
  return row?.allowed ?? false;
}

interface Candidate {
  account_id: string;
  carrier_barcode: string;
  status: string;
  to_postal_code: string | null;
  public_returns: boolean | null;
}

/** The live packages a public identifier could name (a carrier barcode, or a tracking number of any shipper). */
export async function publicReturnCandidates(id: string): Promise<Candidate[]> {
  const trimmed = id.trim();
  let daily;
  let container;
  if (isCarrierBarcode(trimmed)) {
    const barcode = normalizeCarrierBarcode(trimmed);
    daily = sql`p.carrier_barcode = ${barcode}`;
    container = sql`p.carrier_barcode = ${barcode}`;
  } else if (TRACKING_NUMBER.test(trimmed)) {
    const lower = trimmed.toLowerCase();
    daily = sql`lower(p.tracking_number) = ${lower}`;
    container = sql`lower(p.tracking_number) = ${lower}`;
  } else return [];
  // 'live' written out, as in lib/tracking/find-tracked-package.ts: the partial indexes hold live rows only.
  return queryRows(
    pgPool(),
    sql<Candidate>`
      SELECT c.*, s.public_returns FROM (
        SELECT p.account_id, p.carrier_barcode, p.status, p.to_postal_code FROM packages p
        WHERE p.environment = 'live' AND ${daily}
        UNION ALL
        SELECT p.account_id, p.carrier_barcode, p.status, p.to_postal_code FROM container_packages p
        WHERE p.environment = 'live' AND ${container}
        LIMIT 20
      ) c LEFT JOIN return_settings s ON s.account_id = c.account_id`,
  );
}

export type PublicReturnOutcome =
  | {
      outcome: 'made';
      created: boolean;
      originalBarcode: string;
      trackingNumber: string;
      /** Opens the return's label (publicReturnLabel); shown once, only its hash is kept. */
      grant: string;
    }
  /** Unknown, a wrong postal code, another environment, not allowed, not out for delivery: one answer. */
  | { outcome: 'not_found' };

/**
 * Makes (or finds: one return per package) the return of the one live package `id` names whose destination postal
 * code is `postalCode`, when its shipper allows public returns and it is out for delivery or delivered. The return is
 * made by createReturn, as POST /packages/{TrackingNumber}/return makes it (its webhook, in its transaction), and its
 * creation audited as the recipient's, from their address.
 */
export async function startPublicReturn(options: {
  candidates: Candidate[];
  postalCode: string;
  origin: AuditOrigin;
}): Promise<PublicReturnOutcome> {
  const proven = options.candidates.filter((c) => samePostalCode(c.to_postal_code, options.postalCode));
  const [one, another] = proven;
  if (!one || another || !one.public_returns || !(RETURNABLE_STATUSES as readonly string[]).includes(one.status))
    return { outcome: 'not_found' };
  const made = await createReturn({
    accountId: one.account_id,
    environment: 'live',
    identifier: one.carrier_barcode,
    audit: { origin: options.origin, via: 'public_tracking' },
  });
  const grant = randomBytes(32).toString('base64url');
  await execute(
    pgPool(),
    sql`WITH gone AS (DELETE FROM public_return_grants WHERE expires_at < now() - interval '1 day')
        INSERT INTO public_return_grants (token_hash, account_id, original_barcode, return_tracking_number, expires_at)
        VALUES (${hashOf(grant)}, ${one.account_id}::uuid, ${one.carrier_barcode}, ${made.trackingNumber},
                now() + make_interval(secs => ${GRANT_SECONDS}))`,
  );
  return {
    outcome: 'made',
    created: made.created,
    originalBarcode: one.carrier_barcode,
    trackingNumber: made.trackingNumber,
    grant,
  };
}

const hashOf = (token: string) => createHash('sha256').update(token).digest();

export interface PublicReturnGrant {
  accountId: string;
  originalBarcode: string;
  returnTrackingNumber: string;
}

/** What an unexpired grant opens, for the package it was given for; anything else is undefined. */
export async function findPublicReturnGrant(options: {
  grant: string;
  originalBarcode: string;
}): Promise<PublicReturnGrant | undefined> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(options.grant) || !isCarrierBarcode(options.originalBarcode)) return undefined;
  const row = await queryRow(
    pgPool(),
    sql<{ account_id: string; original_barcode: string; return_tracking_number: string }>`
      SELECT account_id, original_barcode, return_tracking_number FROM public_return_grants
      WHERE token_hash = ${hashOf(options.grant)} AND expires_at > now()`,
  );
  if (!row || row.original_barcode !== normalizeCarrierBarcode(options.originalBarcode)) return undefined;
  return { accountId: row.account_id, originalBarcode: row.original_barcode, returnTrackingNumber: row.return_tracking_number };
}

/** The cookie that holds a browser's grant to a package's return label: one per package, so two returns do not clash. */
export function returnCookieName(carrierBarcode: string): string {
  return `carrier_return_${carrierBarcode}`;
}
