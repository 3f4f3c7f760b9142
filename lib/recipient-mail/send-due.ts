import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { pgPool } from '@/lib/db';
import { startPeriodic } from '@/lib/jobs/periodic';
import { log } from '@/lib/log';
import { trackingUpdateMail } from '@/lib/mail/messages';
import { sendMail } from '@/lib/mail/send-mail';
import { appLink } from '@/lib/mail/settings';
import type { RecipientMailStatus } from '@/lib/schemas/public-tracking';
import { execute, queryRow, queryRows, sql } from '@/lib/sql';

// Sends pending recipient mails from every app process: claims take rows with SKIP LOCKED under a lease, so two
// processes never hold the same mail; only a process dying between the send and its mark sends one twice.

const BATCH = 20;
const LEASE_SECONDS = 600;
/** After the 1st, 2nd, … failed attempt; the last failure gives up. */
const RETRY_SECONDS = [60, 300, 1_800, 7_200];

interface Claimed {
  id: string;
  account_id: string;
  carrier_barcode: string;
  status: RecipientMailStatus;
  attempts: number;
}

interface Recipient {
  to_email: string | null;
  shipper: string | null;
  tracking_number: string | null;
  enabled: boolean;
  unsubscribed: boolean;
}

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

async function claim(): Promise<Claimed[]> {
  return queryRows(
    pgPool(),
    sql<Claimed>`WITH due AS (
       SELECT id FROM recipient_mails WHERE state = 'pending' AND next_attempt_at <= now()
       ORDER BY next_attempt_at, id LIMIT ${BATCH}::int FOR UPDATE SKIP LOCKED
     )
     UPDATE recipient_mails r SET attempts = r.attempts + 1, next_attempt_at = now() + make_interval(secs => ${LEASE_SECONDS}::int)
     FROM due WHERE r.id = due.id
     RETURNING r.id::text AS id, r.account_id, r.carrier_barcode, r.status, r.attempts`,
  );
}

// Read when sending, not when enqueued: an address corrected since, a shipper that turned the mail off, a recipient
// who unsubscribed in between all count.
function recipientOf(mail: Claimed): Promise<Recipient | undefined> {
  return queryRow(
    pgPool(),
    sql<Recipient>`SELECT pk.to_email, pk.shipper, pk.tracking_number,
            EXISTS (SELECT 1 FROM recipient_mail_settings s WHERE s.account_id = ${mail.account_id}::uuid AND ${mail.status} = ANY(s.statuses)) AS enabled,
            EXISTS (SELECT 1 FROM recipient_unsubscribes u WHERE u.account_id = ${mail.account_id}::uuid
                    AND u.email_hash = encode(sha256(convert_to(lower(pk.to_email), 'UTF8')), 'hex')) AS unsubscribed
     FROM (
       SELECT p.data->>'ToEmail' AS to_email, p.data->>'FromCompany' AS shipper, p.tracking_number
       FROM packages p WHERE p.carrier_barcode = ${mail.carrier_barcode} AND p.environment = 'live'
       UNION ALL
       SELECT cp.detail->>'ToEmail', m.from_company, cp.tracking_number
       FROM container_packages cp JOIN container_manifests m ON m.id = cp.manifest_id
       WHERE cp.carrier_barcode = ${mail.carrier_barcode} AND cp.environment = 'live'
     ) pk LIMIT 1`,
  );
}

async function finish(id: string, state: 'sent' | 'skipped' | 'failed', outcome: string | null): Promise<void> {
  await execute(
    pgPool(),
    sql`UPDATE recipient_mails SET state = ${state}, outcome = ${outcome}, sent_at = CASE WHEN ${state} = 'sent' THEN now() END
     WHERE id = ${id}::bigint AND state = 'pending'`,
  );
}

async function sendOne(mail: Claimed): Promise<void> {
  const recipient = await recipientOf(mail);
  if (!recipient?.to_email) return finish(mail.id, 'skipped', 'no_address');
  if (!recipient.enabled) return finish(mail.id, 'skipped', 'turned_off');
  if (recipient.unsubscribed) return finish(mail.id, 'skipped', 'unsubscribed');
  const token = randomBytes(32).toString('base64url');
  await execute(pgPool(), sql`UPDATE recipient_mails SET unsubscribe_hash = ${hashOf(token)} WHERE id = ${mail.id}::bigint`);
  try {
    await sendMail(
      trackingUpdateMail({
        to: recipient.to_email,
        status: mail.status,
        shipper: recipient.shipper,
        trackingNumber: recipient.tracking_number,
        trackLink: appLink(`/track/${mail.carrier_barcode}`),
        unsubscribeLink: appLink('/unsubscribe', { token }),
        oneClickUnsubscribeLink: appLink('/api/unsubscribe', { token }),
      }),
    );
  } catch (error) {
    const wait = RETRY_SECONDS[mail.attempts - 1];
    log.warn({ err: error, recipientMail: mail.id, attempts: mail.attempts }, 'recipient mail not sent');
    if (wait === undefined) return finish(mail.id, 'failed', error instanceof Error ? error.message.slice(0, 200) : 'failed');
    await execute(
      pgPool(),
      sql`UPDATE recipient_mails SET next_attempt_at = now() + make_interval(secs => ${wait}::int) WHERE id = ${mail.id}::bigint AND state = 'pending'`,
    );
    return;
  }
  await finish(mail.id, 'sent', null);
}

/** One batch; resolves to whether it was full (then the next runs at once). */
export async function sendDueRecipientMails(): Promise<boolean> {
  const claimed = await claim();
  for (const mail of claimed) await sendOne(mail);
  return claimed.length >= BATCH;
}

export function startRecipientMailSender(intervalMs: number): { stop: () => void } {
  return startPeriodic({ name: 'recipient mail', intervalMs, run: sendDueRecipientMails });
}
