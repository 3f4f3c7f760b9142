import { beforeAll, describe, expect, it } from 'vitest';
import { createOpsToken } from '@/lib/auth/ops-tokens';
import { pgPool } from '@/lib/db';
import { baseUrl, call, freshClientAddress, newAccount, tracking, type TestAccount, liveScan } from './support/api';
import { portalCall, signUp, type Shipper } from './support/portal';
import { packageSample } from './support/samples';

// Returns from the public tracking page (docs/decisions/returns.md "From the public tracking page") on the real server:
// the shipper's setting, POST /api/track/{id}/return proven by the destination postal code, the label for that proven
// request only, one answer for every miss, counted per address and per package, same-origin only. Each test posts
// from addresses of its own (the suite's server trusts 127.0.0.1 to name them).

let ops: string;
let shipper: Shipper;
let rival: TestAccount;

beforeAll(async () => {
  ops = (await createOpsToken({ name: 'public returns tests' })).token;
  [shipper, rival] = await Promise.all([signUp('PublicReturns'), newAccount('Public returns rival')]);
  const allowed = await portalCall(shipper, 'PUT', '/portal-api/settings/returns', { body: { public_returns: true } });
  expect(allowed.status, allowed.text).toBe(200);
  // Events are stored when an endpoint subscribes to them.
  const hook = await call('/webhooks', {
    env: 'live',
    token: shipper.tokens.live,
    body: { url: 'https://93.184.215.14/hooks/public-returns', events: ['package.return_created'] },
  });
  expect(hook.status, hook.text).toBe(201);
});

/** A live package of `account`, walked to `status` by carrier scans; its tracking number and carrier barcode. */
async function livePackage(account: TestAccount, status: 'manifested' | 'out_for_delivery' | 'delivered' = 'delivered') {
  const number = tracking('PR');
  const made = await call('/wf/package', { env: 'live', token: account.tokens.live, body: packageSample(number) });
  expect(made.status, made.text).toBe(200);
  if (status !== 'manifested') {
    await liveScan(ops, number, 'received');
    await liveScan(ops, number, 'in_transit');
    await liveScan(ops, number, 'out_for_delivery');
    if (status === 'delivered') await liveScan(ops, number, 'delivered');
  }
  const read = await call(`/packages/${number}`, { env: 'live', token: account.tokens.live, method: 'GET' });
  return { number, barcode: read.json.carrier_barcode as string };
}

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- assertions read arbitrary fields
}

async function send(path: string, init: RequestInit & { address?: string } = {}): Promise<Answer> {
  const { address = freshClientAddress(), ...rest } = init;
  const response = await fetch(baseUrl + path, {
    redirect: 'manual',
    ...rest,
    headers: { 'x-forwarded-for': address, ...(rest.headers as Record<string, string> | undefined) },
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** The JSON twin's POST, as a non-browser client sends it (no Origin). */
const ask = (id: string, postalCode: unknown, address?: string) =>
  send(`/api/track/${encodeURIComponent(id)}/return`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ postal_code: postalCode }),
    address,
  });

/**
 * The page's form, as a browser on this site sends it (`headers` replace the browser's own): the page's no-referrer
 * policy makes a browser send `Origin: null`, and Sec-Fetch-Site says it is this site's.
 */
const submit = (
  barcode: string,
  postalCode: string,
  headers: Record<string, string> = { origin: 'null', 'sec-fetch-site': 'same-origin' },
  address?: string,
) =>
  send(`/api/track/${barcode}/return`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams({ postal_code: postalCode }).toString(),
    address,
  });

const missBody = (answer: Answer) => ({ ...answer.json, error: { ...answer.json.error, request_id: undefined } });

async function returnsOf(barcode: string) {
  const { rows } = await pgPool().query<{ return_barcode: string }>(
    'SELECT return_barcode FROM package_returns WHERE original_barcode = $1',
    [barcode],
  );
  return rows;
}

describe('the shipper’s setting', () => {
  it('is off by default, read and changed in Settings, audited; only settings:manage changes it', async () => {
    const fresh = await signUp('ReturnsSetting');
    const read = await portalCall(fresh, 'GET', '/portal-api/settings/returns');
    expect(read.status, read.text).toBe(200);
    expect(read.json).toEqual({ public_returns: false });
    for (const body of [{}, { public_returns: 'yes' }, { public_returns: true, extra: 1 }]) {
      const refused = await portalCall(fresh, 'PUT', '/portal-api/settings/returns', { body });
      expect(refused.status, refused.text).toBe(422);
    }
    const on = await portalCall(fresh, 'PUT', '/portal-api/settings/returns', { body: { public_returns: true } });
    expect(on.json).toEqual({ public_returns: true });
    expect((await portalCall(fresh, 'GET', '/portal-api/settings/returns', { env: 'live' })).json).toEqual({
      public_returns: true,
    });
    const { rows } = await pgPool().query(
      `SELECT details FROM audit_events WHERE account_id = $1 AND action = 'settings.updated' AND target_id = 'returns'`,
      [fresh.accountId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].details).toMatchObject({ public_returns_before: false, public_returns: true });
    const noCsrf = await portalCall(fresh, 'PUT', '/portal-api/settings/returns', {
      body: { public_returns: false },
      csrf: null,
    });
    expect(noCsrf.status).toBe(403);
  });
});

describe('POST /api/track/{id}/return', () => {
  it('makes the return for the right postal code, once: a second request, by number or barcode, answers the same one', async () => {
    const { number, barcode } = await livePackage(shipper);
    const first = await ask(barcode, '90210-1234');
    expect(first.status, first.text).toBe(201);
    expect(first.json).toMatchObject({
      object: 'public_return',
      carrier_barcode: barcode,
      return_tracking_number: `RTN-${barcode}-1`,
    });
    expect(first.json.label_url).toMatch(new RegExp(`^/api/track/${barcode}/return/label\\?grant=[A-Za-z0-9_-]{43}$`));
    // Nothing private in the answer: no name, street, phone or e-mail.
    for (const secret of ['Jane Doe', '9 Palm Dr', '555-0101', 'jane@example.com', '100 King St W'])
      expect(first.text).not.toContain(secret);
    const again = await ask(number.toLowerCase(), ' 90210 ');
    expect(again.status, again.text).toBe(200);
    expect(again.json.return_tracking_number).toBe(`RTN-${barcode}-1`);
    expect(again.json.label_url).not.toBe(first.json.label_url);

    // The label: a PDF for each proven request's grant; nothing without one, or with another package's.
    const label = await send(first.json.label_url);
    expect(label.status).toBe(200);
    expect(label.headers.get('content-type')).toBe('application/pdf');
    expect(label.headers.get('cache-control')).toBe('no-store');
    expect(label.text.startsWith('%PDF')).toBe(true);
    expect((await send(again.json.label_url)).status).toBe(200);
    expect((await send(`/api/track/${barcode}/return/label`)).status).toBe(404);
    expect((await send(`/api/track/${barcode}/return/label?grant=${'A'.repeat(43)}`)).status).toBe(404);
    const other = await livePackage(shipper);
    const grant = new URL(first.json.label_url, baseUrl).searchParams.get('grant');
    expect((await send(`/api/track/${other.barcode}/return/label?grant=${grant}`)).status).toBe(404);

    // The shipper sees it as a return made through the API would be: linked, its webhook event, and audited.
    const original = await call(`/packages/${number}`, { env: 'live', token: shipper.tokens.live, method: 'GET' });
    expect(original.json.returns).toEqual([expect.objectContaining({ tracking_number: `RTN-${barcode}-1` })]);
    const { rows: events } = await pgPool().query(
      `SELECT payload FROM webhook_events WHERE account_id = $1 AND environment = 'live' AND event_type = 'package.return_created'
         AND payload->'original'->>'carrier_barcode' = $2`,
      [shipper.accountId, barcode],
    );
    expect(events).toHaveLength(1);
    const { rows: audit } = await pgPool().query(
      `SELECT actor_kind, details FROM audit_events WHERE account_id = $1 AND action = 'package.return_created' AND target_id = $2`,
      [shipper.accountId, barcode],
    );
    expect(audit).toEqual([
      expect.objectContaining({
        actor_kind: 'system',
        details: expect.objectContaining({ return_tracking_number: `RTN-${barcode}-1`, via: 'public_tracking' }),
      }),
    ]);
  });

  it('two requests at once make one return', async () => {
    const { barcode } = await livePackage(shipper, 'out_for_delivery');
    const answers = await Promise.all([
      ask(barcode, '90210'),
      ask(barcode, '90210'),
      ask(barcode, '90210'),
      submit(barcode, '90210'),
    ]);
    const json = answers.slice(0, 3);
    // Whichever came first made it (201, or the form's 303); the others found it (200).
    expect(answers[3]?.status).toBe(303);
    for (const answer of json) expect([200, 201]).toContain(answer.status);
    expect(json.filter((a) => a.status === 201).length).toBeLessThanOrEqual(1);
    expect(new Set(json.map((a) => a.json.return_tracking_number))).toEqual(new Set([`RTN-${barcode}-1`]));
    expect(await returnsOf(barcode)).toHaveLength(1);
  });

  it('answers one 404 for unknown numbers, wrong codes, not allowed, not delivered, another account’s and test packages', async () => {
    const delivered = await livePackage(shipper);
    const early = await livePackage(shipper, 'manifested');
    const notAllowed = await livePackage(rival);
    const testNumber = tracking('PR');
    expect((await call('/wf/package', { token: shipper.tokens.test, body: packageSample(testNumber) })).status).toBe(200);
    const testRead = await call(`/packages/${testNumber}`, { token: shipper.tokens.test, method: 'GET' });
    const misses = [
      await ask('CB000000000000', '90210'),
      await ask(tracking('NO'), '90210'),
      await ask(delivered.barcode, '10001'),
      await ask(early.barcode, '90210'),
      await ask(notAllowed.barcode, '90210'),
      await ask(notAllowed.number, '90210'),
      await ask(testRead.json.carrier_barcode, '90210'),
      await ask('<script>', '90210'),
    ];
    for (const miss of misses) expect(miss.status, miss.text).toBe(404);
    const bodies = misses.map(missBody);
    for (const body of bodies) expect(body).toEqual(bodies[0]);
    for (const barcode of [delivered.barcode, early.barcode, notAllowed.barcode]) expect(await returnsOf(barcode)).toEqual([]);
  });

  it('refuses hostile postal codes by their shape (422 naming postal_code), never a 5xx', async () => {
    const { barcode } = await livePackage(shipper);
    for (const bad of ['9021\u0000', '\ud800', 'x'.repeat(10_000), '', '   ', '<b>9</b>', '90210\u202e', 42, null, ['90210']]) {
      const answer = await ask(barcode, bad);
      expect(answer.status, `${JSON.stringify(bad).slice(0, 40)}: ${answer.text}`).toBe(422);
      expect(answer.json.error.details[0].path).toBe('postal_code');
    }
    const huge = await send(`/api/track/${barcode}/return`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ postal_code: 'x'.repeat(20_000) }),
    });
    expect(huge.status).toBe(413);
    const notJson = await send(`/api/track/${barcode}/return`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"postal_code":',
    });
    expect(notJson.status).toBe(400);
    const text = await send(`/api/track/${barcode}/return`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '90210',
    });
    expect(text.status).toBe(415);
    expect(await returnsOf(barcode)).toEqual([]);
  });

  it('counts wrong postal codes per package from any address: 429, then even the right code waits', async () => {
    const { barcode } = await livePackage(shipper);
    for (let attempt = 0; attempt < 5; attempt += 1) expect((await ask(barcode, `1000${attempt}`)).status).toBe(404);
    const limited = await ask(barcode, '90210');
    expect(limited.status, limited.text).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await returnsOf(barcode)).toEqual([]);
    // Unknown numbers are counted the same way: a 429 tells nothing about which numbers exist.
    const unknown = 'CB000000000001';
    for (let attempt = 0; attempt < 5; attempt += 1) expect((await ask(unknown, '90210')).status).toBe(404);
    expect((await ask(unknown, '90210')).status).toBe(429);
  });

  it('counts attempts per client address: 429 past 20 an hour, for other packages too', async () => {
    const address = freshClientAddress();
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const answer = await ask(`CB${String(attempt).padStart(12, '7')}`, '90210', address);
      expect(answer.status).toBe(404);
    }
    const { barcode } = await livePackage(shipper);
    expect((await ask(barcode, '90210', address)).status).toBe(429);
    expect((await ask(barcode, '90210')).status).toBe(201);
  });

  it('the form: same-origin only; its answer goes back to the page, with the label for that browser only', async () => {
    const { barcode } = await livePackage(shipper);
    const crossSite: Record<string, string>[] = [
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      { origin: 'null', 'sec-fetch-site': 'cross-site' },
      { origin: 'null', 'sec-fetch-site': 'same-site' },
      { origin: 'https://evil.example', 'sec-fetch-site': 'same-origin' },
      // Without Sec-Fetch-Site (an older browser), the Origin decides: it must be this host.
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { origin: '' },
      {},
    ];
    for (const headers of crossSite) {
      const refused = await submit(barcode, '90210', headers);
      expect(refused.status, `${JSON.stringify(headers)}: ${refused.text}`).toBe(403);
    }
    const json = await send(`/api/track/${barcode}/return`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body: JSON.stringify({ postal_code: '90210' }),
    });
    expect(json.status).toBe(403);
    expect(await returnsOf(barcode)).toEqual([]);

    const wrong = await submit(barcode, '10001');
    expect(wrong.status).toBe(303);
    expect(wrong.headers.get('location')).toBe(`/track/${barcode}?return=wrong`);
    expect(wrong.headers.get('set-cookie')).toBeNull();
    const invalid = await submit(barcode, '\u0000');
    expect(invalid.headers.get('location')).toBe(`/track/${barcode}?return=invalid`);

    // An older browser: no Sec-Fetch-Site, this host's Origin.
    expect((await submit(barcode, '10001', { origin: baseUrl })).headers.get('location')).toBe(`/track/${barcode}?return=wrong`);
    const made = await submit(barcode, '90210');
    expect(made.status).toBe(303);
    expect(made.headers.get('location')).toBe(`/track/${barcode}?return=made`);
    const cookie = /carrier_return_CB\d+=[A-Za-z0-9_-]{43}/.exec(made.headers.get('set-cookie') ?? '')?.[0];
    expect(cookie).toBeDefined();
    expect(made.headers.get('set-cookie')).toMatch(/HttpOnly/);
    expect(made.headers.get('set-cookie')).toMatch(/SameSite=Strict/);

    // With the cookie: the page says the return is ready and links the label; without it, only the offer.
    const page = await send(`/track/${barcode}?return=made`, { headers: { cookie: cookie! } });
    expect(page.text).toContain('Your return is ready');
    expect(page.text).toContain(`RTN-${barcode}-1`);
    for (const secret of ['Jane Doe', '9 Palm Dr', '555-0101', 'jane@example.com', '100 King St W', '90210'])
      expect(page.text, secret).not.toContain(secret);
    expect((await send(`/api/track/${barcode}/return/label`, { headers: { cookie: cookie! } })).status).toBe(200);
    const stranger = await send(`/track/${barcode}?return=made`);
    expect(stranger.text).not.toContain('Your return is ready');
    expect(stranger.text).not.toContain(`RTN-${barcode}`);
    expect(stranger.text).toContain('Return this parcel');
  });

  it('the page offers the return only when allowed and out for delivery or delivered', async () => {
    const delivered = await livePackage(shipper);
    const early = await livePackage(shipper, 'manifested');
    const notAllowed = await livePackage(rival);
    expect((await send(`/track/${delivered.barcode}`)).text).toContain('Return this parcel');
    expect((await send(`/track/${early.barcode}`)).text).not.toContain('Return this parcel');
    expect((await send(`/track/${notAllowed.barcode}`)).text).not.toContain('Return this parcel');
    const wrong = await send(`/track/${delivered.barcode}?return=wrong`);
    expect(wrong.text).toContain('That postal code does not match this parcel');
    // Other methods on the POST route: Next's own 405.
    expect((await send(`/api/track/${delivered.barcode}/return`)).status).toBe(405);
  });
});
