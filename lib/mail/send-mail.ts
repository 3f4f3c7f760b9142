import 'server-only';
import type { Transporter } from 'nodemailer';
import { db } from '@/lib/db';
import { env } from '@/lib/env';
import { log } from '@/lib/log';
import type { MailMessage } from './messages';
import { outboxEnabled } from './settings';

// Without SMTP_URL, mail goes to the server log and, with the outbox on, to the outbox_mails table: in the database,
// because every worker process must see the same outbox (docs/decisions/mail.md).

const KEY = Symbol.for('carrier.mailer');
type Global = typeof globalThis & { [KEY]?: { url: string; transport: Transporter } };

const OUTBOX_KEEP_MS = 24 * 3_600_000;

// nodemailer loads with the first message sent over SMTP, not with every server process that may never send one.
async function transport(url: string): Promise<Transporter> {
  const global = globalThis as Global;
  if (global[KEY]?.url === url) return global[KEY].transport;
  const { createTransport } = await import('nodemailer');
  if (global[KEY]?.url === url) return global[KEY].transport;
  const made = createTransport(url);
  global[KEY] = { url, transport: made };
  return made;
}

export async function sendMail(message: MailMessage): Promise<void> {
  const { SMTP_URL, MAIL_FROM } = env();
  if (SMTP_URL) {
    const info = (await (
      await transport(SMTP_URL)
    ).sendMail({
      from: MAIL_FROM,
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
      ...(message.headers ? { headers: message.headers } : {}),
    })) as { messageId?: string };
    log.info({ mail: { subject: message.subject, messageId: info.messageId } }, 'mail sent');
    return;
  }
  log.info(
    { mail: { to: message.to, subject: message.subject, links: message.links } },
    'mail not sent: no SMTP_URL (see the links here)',
  );
  if (!outboxEnabled()) return;
  await db.$transaction([
    db.outboxMail.deleteMany({ where: { createdAt: { lt: new Date(Date.now() - OUTBOX_KEEP_MS) } } }),
    db.outboxMail.create({
      data: { to: message.to, subject: message.subject, text: message.text, html: message.html, links: message.links },
    }),
  ]);
}

// On globalThis: Next's bundle of the portal's routes has its own copy of this module, and the server's stop must
// see its sends.
const IN_FLIGHT = Symbol.for('carrier.mail.in-flight');
const inFlight = (): Set<Promise<void>> => ((globalThis as { [IN_FLIGHT]?: Set<Promise<void>> })[IN_FLIGHT] ??= new Set());

// The answer must take as long whether or not a message goes, and a slow SMTP server must not hold a request.
export function sendMailInBackground(message: MailMessage): void {
  const sending: Promise<void> = sendMail(message)
    .catch((error: unknown) => log.error({ err: error, mail: { subject: message.subject } }, 'mail could not be sent'))
    .finally(() => inFlight().delete(sending));
  inFlight().add(sending);
}

// A sign-up answered "check your inbox" just before a deploy must still get its link.
export async function drainMail(waitMs: number): Promise<void> {
  const sending = [...inFlight()];
  if (sending.length > 0) {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), waitMs);
    });
    const outcome = await Promise.race([Promise.all(sending).then(() => 'sent' as const), late]);
    clearTimeout(timer);
    if (outcome === 'late') log.error({ mails: inFlight().size, waitedMs: waitMs }, 'mail still unsent at the stop: given up');
  }
  const global = globalThis as Global;
  global[KEY]?.transport.close();
  delete global[KEY];
}
