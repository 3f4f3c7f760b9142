import { SMTPServer } from 'smtp-server';
import { inject } from 'vitest';
import { freePort, startApp, testServerEnv, type AppProcess } from './spawn';

// A server of a test file's own whose SMTP_URL points at a real SMTP receiver (smtp-server) started beside it: the
// tests read the mail it receives and follow its links (mail-reset, sign-up verification, invitations).
// It shares the run's database with the suite's server.

export interface Received {
  to: string[];
  raw: string;
  /** The message with quoted-printable undone, where the links are read. */
  text: string;
}

export interface MailServer {
  app: AppProcess;
  /** The app's base URL, which is also its APP_URL (every mailed link starts with it). */
  appUrl: string;
  /** Every mail received, in order. */
  inbox: Received[];
  /**
   * Connection errors the receiver saw (a client that reset it mid-message: a mail lost). Kept here rather than
   * thrown: smtp-server emits them on the server, and with no listener that would crash the test process.
   */
  errors: Error[];
  /** Waits for a mail to `to` whose text matches, among those after the first `after` of the inbox. */
  mailTo(to: string, match: RegExp, after?: number, timeoutMs?: number): Promise<Received>;
  /** The first link to `path` (`/reset-password`) in a mail: `APP_URL + path?token=<43 characters>`. */
  linkIn(mail: Received, path: string): string;
  /** Stops the app (SIGTERM) and the receiver. */
  stop(): Promise<void>;
}

export function unQuotedPrintable(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** Starts the receiver and the app (`env`: settings beside the test server's, SMTP_URL, MAIL_FROM and APP_URL). */
export async function startMailServer(options: {
  name: string;
  env?: Record<string, string>;
  answerAfterMs?: number;
}): Promise<MailServer> {
  const inbox: Received[] = [];
  const errors: Error[] = [];
  const closed = new Set<string>();
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        // A slow SMTP server (answerAfterMs): the message is taken only when it answers, and only if the client is
        // still there to hear it (a client gone before the answer does not know its mail arrived: it is lost).
        setTimeout(() => {
          if (!closed.has(session.id))
            inbox.push({ to: session.envelope.rcptTo.map((r) => r.address), raw, text: unQuotedPrintable(raw) });
          callback();
        }, options.answerAfterMs ?? 0);
      });
    },
    onClose(session) {
      closed.add(session.id);
    },
  });
  smtp.on('error', (error: Error) => errors.push(error));
  const smtpPort = await freePort();
  await new Promise<void>((resolve) => smtp.listen(smtpPort, '127.0.0.1', resolve));
  const port = await freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  const app = await startApp({
    name: options.name,
    port,
    env: {
      ...testServerEnv(inject('databaseUrl'), process.env.TEST_SERVER ?? 'server'),
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      MAIL_FROM: 'Carrier <no-reply@carrier.test>',
      APP_URL: appUrl,
      ...options.env,
    },
  });
  return {
    app,
    appUrl,
    inbox,
    errors,
    async mailTo(to, match, after = 0, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = inbox.slice(after).find((m) => m.to.includes(to) && match.test(m.text));
        if (found) return found;
        if (Date.now() > deadline)
          throw new Error(`no mail to ${to} matching ${match} within ${timeoutMs} ms (inbox: ${inbox.length})`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    linkIn(mail, path) {
      const link = new RegExp(`${appUrl.replaceAll('.', '\\.')}${path.replaceAll('/', '\\/')}\\?token=[A-Za-z0-9_-]{43}`).exec(
        mail.text,
      )?.[0];
      if (!link) throw new Error(`no ${path} link in:\n${mail.text}`);
      return link;
    },
    async stop() {
      await app.stop('SIGTERM');
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    },
  };
}
