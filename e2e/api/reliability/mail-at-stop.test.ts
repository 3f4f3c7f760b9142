import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { freshClientAddress } from '../support/api';
import { startMailServer, type MailServer } from '../support/mail-server';

// Mail goes out in the background (lib/mail/send-mail.ts): a sign-up answers 202 "check your inbox" before its link
// is sent. A stop (a deploy's SIGTERM) right after must still send it, or the user waits for a mail that never
// comes; and a stuck SMTP server must not turn the stop into a kill. the app stopped with a
// message half sent, and the receiver saw the connection reset mid-message. The wait is the production server's
// stop (server/server.ts), so these servers run it whatever TEST_SERVER says: under plain `next start`
// (START_MODE=next) Next's own SIGTERM handler exits at once, as it does for the request log's last lines.
const PRODUCTION_SERVER = { START_MODE: 'server' };

let mail: MailServer | undefined;

afterEach(async () => {
  await mail?.stop();
  mail = undefined;
});

async function signUp(server: MailServer): Promise<string> {
  const id = randomUUID().slice(0, 8);
  const email = `stop-${id}@example.com`;
  const response = await fetch(`${server.appUrl}/portal-api/auth/sign-up`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': freshClientAddress() },
    body: JSON.stringify({ company: `Stop ${id}`, email, password: `pw-${id}-correct-horse` }),
  });
  expect(response.status, await response.text()).toBe(202);
  return email;
}

describe('mail being sent when the server is told to stop', () => {
  it('a sign-up answered just before SIGTERM still gets its link: the stop waits for a slow SMTP server', async () => {
    mail = await startMailServer({ name: 'mail at stop (slow SMTP)', answerAfterMs: 1_500, env: PRODUCTION_SERVER });
    const email = await signUp(mail);
    const started = Date.now();
    const exit = await mail.app.stop('SIGTERM', { timeoutMs: 20_000 });
    const took = Date.now() - started;
    expect(exit).toBe(0);
    expect(mail.inbox.map((m) => m.to).flat()).toContain(email);
    expect(mail.errors).toEqual([]);
    // It waited for the answer, not for a timeout.
    expect(took).toBeGreaterThanOrEqual(1_000);
    expect(took).toBeLessThan(10_000);
  });

  it('an SMTP server that never answers holds the stop 4 s at most, then the server exits by itself and says so', async () => {
    mail = await startMailServer({ name: 'mail at stop (stuck SMTP)', answerAfterMs: 120_000, env: PRODUCTION_SERVER });
    const email = await signUp(mail);
    const started = Date.now();
    const exit = await mail.app.stop('SIGTERM', { timeoutMs: 30_000 });
    const took = Date.now() - started;
    expect(exit).toBe(0);
    expect(took).toBeGreaterThanOrEqual(3_500);
    expect(took).toBeLessThan(12_000);
    expect(mail.inbox.map((m) => m.to).flat()).not.toContain(email);
    expect(mail.app.output()).toContain('mail still unsent at the stop: given up');
  });
});
