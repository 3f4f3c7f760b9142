// Reading the mail a server "sent" from its development outbox page (/dev/outbox: no SMTP_URL and MAIL_OUTBOX=on,
// docs/decisions/mail.md), over HTTP, for the Playwright suites, the portal benchmark and the API tests' servers of
// their own (e2e/api/trust-boundaries.test.ts), which have no handle on the server's database. The API suite's own
// server's outbox table is read instead (e2e/api/support/portal.ts).

export const SIGN_UP_MAIL_SUBJECT = 'Confirm your e-mail to create your Carrier account';
export const SIGN_UP_PATH = '/verify-email';

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * The newest link to `path` (a sign-up link by default) in a mail to `email` with that subject, from `base`'s outbox
 * page. Waited for: mail leaves after the answer that sent it.
 */
export async function linkFromOutbox(
  base: string,
  email: string,
  options: { subject?: string; path?: string; timeoutMs?: number } = {},
): Promise<string> {
  const subject = options.subject ?? SIGN_UP_MAIL_SUBJECT;
  const path = options.path ?? SIGN_UP_PATH;
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  const href = new RegExp(`href="([^"]*${path.replaceAll('/', '\\/')}\\?token=[A-Za-z0-9_-]{43})"`);
  for (;;) {
    const response = await fetch(new URL('/dev/outbox', base));
    if (response.status !== 200) throw new Error(`${base}/dev/outbox answered ${response.status}: is MAIL_OUTBOX=on?`);
    const page = await response.text();
    // Newest first: the first mail to this address with this subject.
    for (const mail of page.split('data-testid="outbox-mail"').slice(1)) {
      if (!mail.includes(`data-testid="outbox-to">${escapeHtml(email)}</span>`) || !mail.includes(`>${escapeHtml(subject)}</h2>`))
        continue;
      const link = href.exec(mail)?.[1];
      if (link) return link.replaceAll('&amp;', '&');
    }
    if (Date.now() > deadline) throw new Error(`no mail "${subject}" to ${email} on ${base}/dev/outbox`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
