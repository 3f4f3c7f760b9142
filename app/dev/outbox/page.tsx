import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { listOutbox } from '@/lib/mail/outbox';
import { outboxEnabled } from '@/lib/mail/settings';
import { formatDateTime } from '@/lib/portal/format';

// Named only when it exists: a production 404 must not say what would have been here.
export function generateMetadata(): Metadata {
  return outboxEnabled() ? { title: 'Outbox (development)', robots: { index: false } } : {};
}
// Read at every request: whether the outbox exists is a setting of the running server, not of the build.
export const dynamic = 'force-dynamic';

// GET /dev/outbox: the mail the service would have sent, when no SMTP_URL is set and the outbox is on (MAIL_OUTBOX;
// unset: everywhere but production). Anyone who can reach it reads every reset link in it, so in production it is
// a 404 unless MAIL_OUTBOX=on (docs/decisions/mail.md).
export default async function OutboxPage() {
  if (!outboxEnabled()) notFound();
  const mails = await listOutbox();
  return (
    <main className="mx-auto max-w-4xl px-4 py-8">
      <h1 className="text-2xl font-semibold">Outbox</h1>
      <p className="mt-1 text-sm text-slate-700">
        Development only: mail the service would have sent (no <code>SMTP_URL</code> is set), newest first, kept for a day.
      </p>
      {mails.length === 0 ? (
        <p className="mt-6 text-sm text-slate-700">Nothing has been sent yet.</p>
      ) : (
        <ol className="mt-6 space-y-4">
          {mails.map((mail) => (
            <li key={mail.id} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-testid="outbox-mail">
              <h2 className="font-semibold">{mail.subject}</h2>
              <p className="text-sm text-slate-700">
                To <span data-testid="outbox-to">{mail.to}</span>, {formatDateTime(mail.createdAt)}
              </p>
              <ul className="mt-2 space-y-1 text-sm">
                {mail.links.map((link) => (
                  <li key={link}>
                    <a href={link} className="break-all font-medium text-brand-700 underline">
                      {link}
                    </a>
                  </li>
                ))}
              </ul>
              <pre className="mt-3 whitespace-pre-wrap break-words rounded bg-slate-50 p-3 text-xs text-slate-800">
                {mail.text}
              </pre>
            </li>
          ))}
        </ol>
      )}
    </main>
  );
}
