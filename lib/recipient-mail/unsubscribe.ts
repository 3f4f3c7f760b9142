import 'server-only';
import { createHash } from 'node:crypto';
import { pgPool } from '@/lib/db';
import { queryRow, sql } from '@/lib/sql';

// The unsubscribe link's token names one mail (only its SHA-256 is stored), hence the shipper and the address. Opening
// the link changes nothing (mail scanners open links); the button or a one-click POST (RFC 8058) unsubscribes.

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export interface UnsubscribeTarget {
  /** The shipper's company as on the label, for the page to name. */
  shipper: string | null;
  unsubscribed: boolean;
}

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

// The mail's package, whichever table holds it: its ToEmail and its shipper.
const MAIL_PACKAGE = sql`
  SELECT r.account_id, pk.to_email, pk.shipper FROM recipient_mails r
  CROSS JOIN LATERAL (
    SELECT p.data->>'ToEmail' AS to_email, p.data->>'FromCompany' AS shipper FROM packages p
    WHERE p.carrier_barcode = r.carrier_barcode AND p.environment = 'live'
    UNION ALL
    SELECT cp.detail->>'ToEmail', m.from_company FROM container_packages cp JOIN container_manifests m ON m.id = cp.manifest_id
    WHERE cp.carrier_barcode = r.carrier_barcode AND cp.environment = 'live'
    LIMIT 1
  ) pk`;

/** What the link names, or undefined for a token that is mangled, unknown or whose package is gone. */
export async function findUnsubscribe(token: string): Promise<UnsubscribeTarget | undefined> {
  if (!TOKEN.test(token)) return undefined;
  const row = await queryRow(
    pgPool(),
    sql<{
      shipper: string | null;
      unsubscribed: boolean;
    }>`WITH target AS (${MAIL_PACKAGE} WHERE r.unsubscribe_hash = ${hashOf(token)})
     SELECT t.shipper, EXISTS (SELECT 1 FROM recipient_unsubscribes u WHERE u.account_id = t.account_id
              AND u.email_hash = encode(sha256(convert_to(lower(t.to_email), 'UTF8')), 'hex')) AS unsubscribed
     FROM target t WHERE coalesce(t.to_email, '') <> ''`,
  );
  return row ? { shipper: row.shipper, unsubscribed: row.unsubscribed } : undefined;
}

/** Unsubscribes the link's address from its shipper's tracking e-mails (again: nothing more happens). */
export async function unsubscribe(token: string): Promise<UnsubscribeTarget | undefined> {
  if (!TOKEN.test(token)) return undefined;
  const row = await queryRow(
    pgPool(),
    sql<{ shipper: string | null }>`WITH target AS (${MAIL_PACKAGE} WHERE r.unsubscribe_hash = ${hashOf(token)}),
     added AS (
       INSERT INTO recipient_unsubscribes (account_id, email_hash)
       SELECT t.account_id, encode(sha256(convert_to(lower(t.to_email), 'UTF8')), 'hex') FROM target t
       WHERE coalesce(t.to_email, '') <> ''
       ON CONFLICT DO NOTHING
     )
     SELECT t.shipper FROM target t WHERE coalesce(t.to_email, '') <> ''`,
  );
  return row ? { shipper: row.shipper, unsubscribed: true } : undefined;
}
