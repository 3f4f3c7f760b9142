import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpsToken } from '@/lib/auth/ops-tokens';
import { pgPool } from '@/lib/db';
import { queryRow, queryRows, sql } from '@/lib/sql';
import { call, freshClientAddress, tracking, type Env } from './support/api';
import { startMailServer, type MailServer, type Received } from './support/mail-server';
import { portalCall, signUp, type Shipper } from './support/portal';
import { containerSample, packageSample } from './support/samples';

// Recipient e-mail (docs/decisions/public-tracking.md): a shipper opts in per status; a live package's ToEmail gets one
// mail per status it reaches, through the mail module to a real SMTP receiver (smtp-server), with the public tracking
// link and an unsubscribe link that works without an account. The suite's servers send none (RECIPIENT_MAIL_INTERVAL_MS
// is 0 on them): this file's own server does, with two worker processes, both sending, on the run's database.

let mail: MailServer;
let ops: string;

beforeAll(async () => {
  ops = (await createOpsToken({ name: 'recipient mail tests' })).token;
  mail = await startMailServer({
    name: 'recipient mail server',
    env: { RECIPIENT_MAIL_INTERVAL_MS: '200', APP_WORKERS: '2' },
  });
}, 180_000);

afterAll(async () => {
  await mail?.stop();
});

const STATUSES_PATH = '/portal-api/settings/recipient-mail';

async function optIn(shipper: Shipper, statuses: string[]) {
  const answer = await portalCall(shipper, 'PUT', STATUSES_PATH, { body: { statuses } });
  expect(answer.status, answer.text).toBe(200);
  return answer.json;
}

async function livePackage(shipper: Shipper, email: string | null, env: Env = 'live') {
  const number = tracking('RM');
  const body = packageSample(number);
  Object.assign(body.package, { FromCompany: shipper.name, ...(email ? { ToEmail: email } : {}) });
  const made = await call('/wf/package', { env, token: shipper.tokens[env], body });
  expect(made.status, made.text).toBe(200);
  return number;
}

async function scan(number: string, event: string, scanId = `scan-${randomUUID()}`) {
  const answer = await call('/ops/scans', {
    env: 'live',
    token: ops,
    body: {
      scans: [{ scan_id: scanId, tracking_number: number, event, location: 'JFK', occurred_at: new Date().toISOString() }],
    },
  });
  expect(answer.status, answer.text).toBe(200);
  return answer.json.results[0];
}

const inbox = (to: string) => mail.inbox.filter((m) => m.to.includes(to));
const address = () => `recipient-${randomUUID().slice(0, 8)}@example.com`;
const settle = () => new Promise((r) => setTimeout(r, 2_000));

async function rowsOf(number: string) {
  return queryRows(
    pgPool(),
    sql<{ status: string; state: string; outcome: string | null }>`SELECT r.status, r.state, r.outcome FROM recipient_mails r
     JOIN packages p ON p.carrier_barcode = r.carrier_barcode WHERE p.tracking_number = ${number} ORDER BY r.id`,
  );
}

function linkOf(received: Received, path: string): string {
  const escaped = (mail.appUrl + path).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const found = new RegExp(`${escaped}[^\\s"<>]*`).exec(received.text)?.[0];
  if (!found) throw new Error(`no ${path} link in:\n${received.text}`);
  return found.replaceAll('&amp;', '&');
}

describe('the setting', () => {
  it('is off until a shipper ticks statuses, is the same whichever environment asks, and refuses anything else', async () => {
    const shipper = await signUp('Recipient');
    expect((await portalCall(shipper, 'GET', STATUSES_PATH)).json).toEqual({ statuses: [] });
    expect(await optIn(shipper, ['delivered', 'out_for_delivery'])).toEqual({ statuses: ['out_for_delivery', 'delivered'] });
    expect((await portalCall(shipper, 'GET', STATUSES_PATH, { env: 'live' })).json).toEqual({
      statuses: ['out_for_delivery', 'delivered'],
    });
    const audit = await queryRow(
      pgPool(),
      sql<{ details: Record<string, unknown> }>`SELECT details FROM audit_events
       WHERE account_id = ${shipper.accountId}::uuid AND action = 'settings.updated' AND target_id = 'recipient_mail'`,
    );
    expect(audit?.details).toMatchObject({ statuses_before: [], statuses: ['out_for_delivery', 'delivered'] });
    for (const body of [
      { statuses: ['shipped'] },
      { statuses: 'delivered' },
      { statuses: ['delivered', 'delivered'] },
      { statuses: ['delivered', 'exception', 'out_for_delivery', 'delivered'] },
      {},
      { statuses: [], extra: true },
      { statuses: ["delivered'; DROP TABLE recipient_mails; --"] },
      { statuses: ['<script>'] },
    ]) {
      const refused = await portalCall(shipper, 'PUT', STATUSES_PATH, { body });
      expect(refused.status, `${JSON.stringify(body)}: ${refused.text}`).toBe(422);
      expect(refused.json.error.code).toBe('validation_failed');
    }
    expect((await portalCall(shipper, 'PUT', STATUSES_PATH, { body: { statuses: [] }, csrf: null })).status).toBe(403);
    expect((await portalCall(shipper, 'GET', STATUSES_PATH)).json).toEqual({ statuses: ['out_for_delivery', 'delivered'] });
  });
});

describe('the mail', () => {
  it('goes once per status reached, through SMTP, with the tracking link and a one-click unsubscribe header', async () => {
    const shipper = await signUp('Recipient');
    await optIn(shipper, ['out_for_delivery', 'delivered', 'exception']);
    const to = address();
    const number = await livePackage(shipper, to);
    await scan(number, 'received');
    await scan(number, 'in_transit');
    const scanId = `scan-${randomUUID()}`;
    expect((await scan(number, 'out_for_delivery', scanId)).result).toBe('applied');
    const first = await mail.mailTo(to, /out for delivery/);
    expect(first.raw).toMatch(/^Subject: Your package from .* is out for delivery/m);
    // Headers unfolded (a long one is continued on the next line, RFC 5322).
    const headers = first.raw.slice(0, first.raw.search(/\r?\n\r?\n/)).replace(/\r?\n(?=[ \t])/g, '');
    expect(headers).toMatch(/^List-Unsubscribe: <http:\/\/127\.0\.0\.1:\d+\/api\/unsubscribe\?token=[A-Za-z0-9_-]{43}>/m);
    expect(headers).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);
    expect(first.text).toContain(number);
    expect(first.text).not.toMatch(/9 Palm Dr|Jane Doe|Books/);
    // The same scan again, and the same status reached again after an exception, send nothing more.
    expect((await scan(number, 'out_for_delivery', scanId)).result).toBe('duplicate');
    await scan(number, 'exception');
    await mail.mailTo(to, /is delayed/);
    await scan(number, 'resolved');
    await scan(number, 'out_for_delivery');
    await scan(number, 'delivered');
    await mail.mailTo(to, /was delivered/);
    await settle();
    expect(inbox(to).map((m) => /^Subject: (.*)$/m.exec(m.raw)?.[1])).toEqual([
      expect.stringMatching(/out for delivery$/),
      expect.stringMatching(/is delayed$/),
      expect.stringMatching(/was delivered$/),
    ]);
    expect(await rowsOf(number)).toEqual([
      { status: 'out_for_delivery', state: 'sent', outcome: null },
      { status: 'exception', state: 'sent', outcome: null },
      { status: 'delivered', state: 'sent', outcome: null },
    ]);
    // The link is the public page of this package.
    const page = await fetch(linkOf(first, '/track/'), { headers: { 'x-forwarded-for': freshClientAddress() } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Delivered');
  });

  it('goes only at the statuses ticked, only for live packages with a ToEmail, and for container packages too', async () => {
    const shipper = await signUp('Recipient');
    await optIn(shipper, ['delivered']);
    const to = address();
    const number = await livePackage(shipper, to);
    const silent = await livePackage(shipper, null);
    const testTo = address();
    const testNumber = await livePackage(shipper, testTo, 'test');
    for (const n of [number, silent]) for (const event of ['received', 'in_transit', 'out_for_delivery']) await scan(n, event);
    const walked = await call(`/packages/${testNumber}/simulate`, {
      env: 'test',
      token: shipper.tokens.test,
      body: { status: 'delivered' },
    });
    expect(walked.status, walked.text).toBe(200);
    await scan(number, 'delivered');
    await scan(silent, 'delivered');
    await mail.mailTo(to, /was delivered/);
    // A container package's detail carries its own ToEmail.
    const containerTo = address();
    const inContainer = tracking('RC');
    const body = containerSample(`ULD-${randomUUID().slice(0, 8)}`, [inContainer]);
    Object.assign(body, { FromCompany: shipper.name });
    Object.assign(body.ContainerDetails[0], { ToEmail: containerTo });
    expect((await call('/wf/manifest', { env: 'live', token: shipper.tokens.live, body })).status).toBe(200);
    for (const event of ['received', 'in_transit', 'out_for_delivery', 'delivered']) await scan(inContainer, event);
    await mail.mailTo(containerTo, /was delivered/);
    await settle();
    expect(inbox(to)).toHaveLength(1);
    expect(inbox(testTo)).toHaveLength(0);
    expect(inbox(containerTo)).toHaveLength(1);
    expect(await rowsOf(silent)).toEqual([]);
    expect(await rowsOf(testNumber)).toEqual([]);
  });

  it('stops for an address that unsubscribed from that shipper, by the page’s button or a mail client’s one-click POST', async () => {
    const [shipper, other] = [await signUp('Recipient'), await signUp('Other')];
    await optIn(shipper, ['out_for_delivery', 'delivered', 'exception']);
    await optIn(other, ['out_for_delivery']);
    const to = address();
    const number = await livePackage(shipper, to);
    for (const event of ['received', 'in_transit', 'out_for_delivery']) await scan(number, event);
    const received = await mail.mailTo(to, /out for delivery/);
    const link = linkOf(received, '/unsubscribe?token=');
    const token = new URL(link).searchParams.get('token')!;
    const count = async () =>
      (
        await queryRow(
          pgPool(),
          sql<{ n: number }>`SELECT count(*)::int AS n FROM recipient_unsubscribes WHERE account_id = ${shipper.accountId}::uuid`,
        )
      )?.n;
    // Opening the link (a mail scanner does) changes nothing; the button does, without an account.
    const opened = await fetch(link, { headers: { 'x-forwarded-for': freshClientAddress() } });
    expect(opened.status).toBe(200);
    expect(await opened.text()).toContain('Stop tracking e-mails?');
    expect(await count()).toBe(0);
    const pressed = await fetch(`${mail.appUrl}/api/unsubscribe`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': freshClientAddress() },
      body: new URLSearchParams({ token }).toString(),
    });
    expect(pressed.status).toBe(303);
    expect(pressed.headers.get('location')).toBe('/unsubscribe?done=1');
    expect(await count()).toBe(1);
    // Again, by the List-Unsubscribe address: nothing more happens.
    const oneClick = await fetch(`${mail.appUrl}/api/unsubscribe?token=${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': freshClientAddress() },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.status).toBe(200);
    expect(await count()).toBe(1);
    await scan(number, 'delivered');
    // The other shipper's mail to the same address still goes.
    const theirs = await livePackage(other, to);
    for (const event of ['received', 'in_transit', 'out_for_delivery']) await scan(theirs, event);
    await mail.mailTo(to, new RegExp(`from ${other.name} is out for delivery`));
    await settle();
    expect(inbox(to)).toHaveLength(2);
    expect(await rowsOf(number)).toEqual([
      { status: 'out_for_delivery', state: 'sent', outcome: null },
      { status: 'delivered', state: 'skipped', outcome: 'unsubscribed' },
    ]);
  });

  it('refuses mangled and unknown unsubscribe tokens without a 5xx, and never unsubscribes on a GET', async () => {
    for (const token of ['', 'x', 'A'.repeat(43), "' OR 1=1 --", '<script>', 'A'.repeat(10_000)]) {
      const address = freshClientAddress();
      const page = await fetch(`${mail.appUrl}/unsubscribe?token=${encodeURIComponent(token)}`, {
        headers: { 'x-forwarded-for': address },
      });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('This link does not work');
      const oneClick = await fetch(`${mail.appUrl}/api/unsubscribe?token=${encodeURIComponent(token)}`, {
        method: 'POST',
        headers: { 'x-forwarded-for': address },
        body: 'List-Unsubscribe=One-Click',
      });
      expect(oneClick.status).toBe(404);
      const form = await fetch(`${mail.appUrl}/api/unsubscribe`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': address },
        body: new URLSearchParams({ token }).toString(),
      });
      expect(form.status).toBe(token.length > 4_000 ? 413 : 303);
      if (form.status === 303) expect(form.headers.get('location')).toBe('/unsubscribe');
    }
    const get = await fetch(`${mail.appUrl}/api/unsubscribe?token=${'A'.repeat(43)}`, { redirect: 'manual' });
    expect(get.status).toBe(303);
    expect(get.headers.get('location')).toBe(`/unsubscribe?token=${'A'.repeat(43)}`);
  });
});
