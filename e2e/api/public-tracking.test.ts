import { beforeAll, describe, expect, it } from 'vitest';
import { createOpsToken } from '@/lib/auth/ops-tokens';
import { baseUrl, call, freshClientAddress, newAccount, tracking, type Env, type TestAccount, liveScan } from './support/api';
import { containerSample, packageSample } from './support/samples';

// Public tracking (docs/decisions/public-tracking.md) on the real server: GET /api/track/{id} and the /track pages,
// without a token. Live packages only; by carrier barcode, or by tracking number with the destination postal code;
// the same 404 for whatever is not one live package; nothing private in the page or the JSON; counted per client
// address. Each test looks up from an address of its own (the suite's server trusts 127.0.0.1 to name it).

let ops: string;
beforeAll(async () => {
  ops = (await createOpsToken({ name: 'public tracking tests' })).token;
});

async function get(path: string, address = freshClientAddress(), init: RequestInit = {}) {
  const response = await fetch(baseUrl + path, {
    redirect: 'manual',
    ...init,
    headers: { 'x-forwarded-for': address, ...(init.headers as Record<string, string> | undefined) },
  });
  const text = await response.text();
  let json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- assertions read arbitrary fields
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

const track = (id: string, postalCode?: string, address?: string) =>
  get(
    `/api/track/${encodeURIComponent(id)}${postalCode === undefined ? '' : `?postal_code=${encodeURIComponent(postalCode)}`}`,
    address,
  );

/** The 404's body without its request id: what must be the same for every kind of miss. */
const missBody = (answer: { json: any }) => ({ ...answer.json, error: { ...answer.json.error, request_id: undefined } }); // eslint-disable-line @typescript-eslint/no-explicit-any

async function dailyPackage(account: TestAccount, number: string, env: Env = 'live', change: Record<string, unknown> = {}) {
  const body = packageSample(number);
  Object.assign(body.package, change);
  const result = await call('/wf/package', { env, token: account.tokens[env], body });
  expect(result.status, result.text).toBe(200);
  const read = await call(`/packages/${number}`, { env, token: account.tokens[env], method: 'GET' });
  return read.json.carrier_barcode as string;
}

// Everything packageSample and containerSample send that is not on a label's public face.
const PRIVATE = [
  'Jane Doe',
  '9 Palm Dr',
  '555-0101',
  '555-0100',
  'jane@example.com',
  'dock@acme.example',
  'Dock 4',
  '100 King St W',
  '1 Industrial Way',
  'M5X 1A9',
  'Books',
  'Apparel',
  'PO-1',
  '"R1"',
  'Carrier LAX hub',
  'LAX-1',
];

describe('looking a package up', () => {
  it('finds a live daily package by tracking number and postal code, in any case, ZIP+4 or not, with nothing private', async () => {
    const account = await newAccount('Public tracking');
    const number = tracking('PT');
    const barcode = await dailyPackage(account, number);
    for (const [id, postal] of [
      [number, '90210'],
      [number.toLowerCase(), '90210-1234'],
      [` ${number} `, ' 90210 '],
      [barcode, undefined],
      [barcode.toLowerCase(), 'anything'],
    ] as const) {
      const found = await track(id, postal);
      expect(found.status, `${id} ${postal}: ${found.text}`).toBe(200);
      expect(found.json).toMatchObject({
        object: 'tracking',
        carrier_barcode: barcode,
        tracking_number: number,
        status: 'manifested',
        shipper: 'Maple Goods',
        service: 'AirSkip',
        destination: { city: 'Beverly Hills', state: 'CA', country: 'US' },
        delivered_at: null,
      });
      expect(found.json.events).toEqual([expect.objectContaining({ status: 'manifested', location: null })]);
      expect(found.headers.get('access-control-allow-origin')).toBe('*');
      expect(found.headers.get('cache-control')).toBe('no-store');
      expect(found.headers.get('x-robots-tag')).toBe('noindex');
    }
    const json = (await track(number, '90210')).text;
    const html = (await get(`/track/${number}?postal_code=90210`)).text;
    expect(html).toContain('Maple Goods');
    expect(html).toContain(barcode);
    for (const secret of [...PRIVATE, account.name, account.accountId]) {
      expect(json, secret).not.toContain(secret);
      expect(html, secret).not.toContain(secret);
    }
    expect(html).toMatch(/<meta name="robots" content="noindex, nofollow"/);
    expect(html).toMatch(/<meta name="referrer" content="no-referrer"/);
  });

  it('finds a container package by its carrier barcode, with the container’s shipper and no private field', async () => {
    const account = await newAccount('Public tracking');
    const [a, b] = [tracking('PC'), tracking('PC')];
    const made = await call('/wf/manifest', {
      env: 'live',
      token: account.tokens.live,
      body: containerSample(`ULD-${crypto.randomUUID().slice(0, 8)}`, [a, b]),
    });
    expect(made.status, made.text).toBe(200);
    const read = await call(`/packages/${a}`, { env: 'live', token: account.tokens.live, method: 'GET' });
    const found = await track(read.json.carrier_barcode);
    expect(found.status, found.text).toBe(200);
    expect(found.json).toMatchObject({ tracking_number: a, shipper: 'Acme Parcels', status: 'manifested' });
    expect((await track(b, '90210')).json.tracking_number).toBe(b);
    for (const secret of PRIVATE) expect(found.text, secret).not.toContain(secret);
  });

  it('shows the history oldest first, at city level, without exception texts, and the estimate from the transit days', async () => {
    const account = await newAccount('Public tracking');
    const number = tracking('PH');
    // Next Monday or later: the estimate is a day still ahead.
    const ahead = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    await dailyPackage(account, number, 'live', {
      ManifestDate: `${ahead}T08:00:00Z`,
      ServiceName: 'Carrier Ground',
      FromPostalCode: '10001',
      FromCountry: 'US',
      FromState: 'NY',
      FromCity: 'New York',
    });
    const before = await track(number, '90210');
    expect(before.json.estimated_delivery, before.text).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(before.json.estimated_delivery > ahead).toBe(true);
    await liveScan(ops, number, 'received', 'JFK');
    await liveScan(ops, number, 'exception', '10001', { exception_code: 'ADDR', exception_text: 'Driver note: gate code 4411' });
    await liveScan(ops, number, 'resolved', '10001');
    await liveScan(ops, number, 'out_for_delivery', '90210');
    const found = await track(number, '90210');
    expect(found.json.status).toBe('out_for_delivery');
    expect(found.json.events.map((e: { status: string }) => e.status)).toEqual([
      'manifested',
      'received',
      'exception',
      'in_transit',
      'out_for_delivery',
    ]);
    expect(found.json.events[1].location).toBe('New York, United States');
    expect(found.json.events[4].location).toBe('Beverly Hills, CA');
    expect(found.text).not.toContain('gate code');
    expect(found.text).not.toContain('ADDR');
    await liveScan(ops, number, 'delivered', '90210');
    const delivered = await track(number, '90210');
    expect(delivered.json).toMatchObject({ status: 'delivered', estimated_delivery: null });
    expect(delivered.json.delivered_at).toBe(delivered.json.status_updated_at);
    const html = await get(`/track/${number}?postal_code=90210`);
    expect(html.status).toBe(200);
    expect(html.text).toContain('Delivered');
    expect(html.text).not.toContain('gate code');
  });
});

describe('what is not one live package of the asker', () => {
  it('answers unknown numbers, wrong postal codes, test packages and hostile input with the same 404', async () => {
    const account = await newAccount('Public tracking');
    const live = tracking('PN');
    const test = tracking('PN');
    await dailyPackage(account, live);
    const testBarcode = await dailyPackage(account, test, 'test');
    const unknown = await track(tracking('PN'), '90210');
    expect(unknown.status, unknown.text).toBe(404);
    expect(unknown.json.error.code).toBe('not_found');
    const misses = [
      await track(live, '90211'),
      await track(live, '10001'),
      await track(live, 'M5V 2T6'),
      await track(test, '90210'),
      await track(testBarcode),
      // A well-formed barcode nobody holds (the check digit right).
      await track('CB0000000000000'),
      await track("1' OR '1'='1", '90210'),
      await track(`${live}' --`, '90210'),
      await track('<script>alert(1)</script>', '90210'),
      await track(live, "90210' OR 1=1 --"),
      await track(live, '<b>90210</b>'),
      await track('X'.repeat(10_000), '90210'),
      await track(live, '9'.repeat(10_000)),
      await track('%00', '90210'),
      await track(`${live}\u0000`, '90210'),
    ];
    for (const miss of misses) {
      expect(miss.status, miss.text).toBe(404);
      expect(missBody(miss)).toEqual(missBody(unknown));
    }
  });

  it('asks for the postal code with a tracking number, and tells two shippers’ same number apart by it', async () => {
    const [a, b] = [await newAccount('Shipper A'), await newAccount('Shipper B')];
    const number = tracking('PS');
    const aBarcode = await dailyPackage(a, number, 'live', { FromCompany: 'A Goods' });
    await dailyPackage(b, number, 'live', { FromCompany: 'B Goods', ToPostalCode: '10001', ToCity: 'New York', ToState: 'NY' });
    const needs = await track(number);
    expect(needs.status, needs.text).toBe(422);
    expect(needs.json.error.details).toEqual([expect.objectContaining({ path: 'postal_code' })]);
    expect((await track(number, '90210')).json.shipper).toBe('A Goods');
    expect((await track(number, '10001')).json.shipper).toBe('B Goods');
    // The same number to the same postal code: neither is shown; the barcode on the label still finds each.
    const c = await newAccount('Shipper C');
    await dailyPackage(c, number, 'live', { FromCompany: 'C Goods' });
    const ambiguous = await track(number, '90210');
    expect(ambiguous.status, ambiguous.text).toBe(409);
    expect(ambiguous.text).not.toMatch(/A Goods|C Goods/);
    expect((await track(aBarcode)).json.shipper).toBe('A Goods');
  });

  it('pages: the form, a redirect from it, a question for the postal code, the same words for every miss; never a 5xx', async () => {
    const form = await get('/track');
    expect(form.status).toBe(200);
    expect(form.text).toContain('Track a package');
    const sent = await get('/track?number=ABC123&postal_code=90210');
    expect(sent.status).toBe(307);
    expect(sent.headers.get('location')).toMatch(/\/track\/ABC123\?postal_code=90210$/);
    const asks = await get('/track/ABC123');
    expect(asks.status).toBe(200);
    expect(asks.text).toContain('Enter the postal code');
    const misses = await Promise.all([
      get('/track/NOSUCH1?postal_code=90210'),
      get(`/track/${encodeURIComponent('<script>alert(1)</script>')}?postal_code=90210`),
      get(`/track/${'X'.repeat(10_000)}?postal_code=90210`),
      get(`/track?number=${encodeURIComponent("1' OR '1'='1")}&postal_code=90210`),
    ]);
    for (const miss of misses) {
      expect(miss.status).toBe(200);
      expect(miss.text).toMatch(/No package matches this number/);
      expect(miss.text).not.toContain('<script>alert(1)');
    }
  });
});

describe('the test page', () => {
  it('answers for test packages by carrier barcode only, says so plainly, and knows no live package', async () => {
    const account = await newAccount('Public tracking test page');
    const test = tracking('TP');
    const live = tracking('TP');
    const testBarcode = await dailyPackage(account, test, 'test');
    const liveBarcode = await dailyPackage(account, live);
    const json = await get(`/api/track/test/${testBarcode}`);
    expect(json.status, json.text).toBe(200);
    expect(json.json).toMatchObject({
      object: 'tracking',
      environment: 'test',
      carrier_barcode: testBarcode,
      tracking_number: test,
    });
    expect(json.headers.get('x-robots-tag')).toBe('noindex');
    expect(json.headers.get('cache-control')).toBe('no-store');
    const page = await get(`/track/test/${testBarcode}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Test package: this is not a real shipment');
    expect(page.text).toContain('noindex');
    for (const secret of PRIVATE) {
      expect(json.text, secret).not.toContain(secret);
      expect(page.text, secret).not.toContain(secret);
    }
    // The live page's JSON says live.
    expect((await track(liveBarcode)).json.environment).toBe('live');

    // A live number on the test page, a test number on the live page, a tracking number on the test page: unknown.
    const unknown = await get('/api/track/test/CB0000000000000');
    expect(unknown.status).toBe(404);
    for (const miss of [
      await get(`/api/track/test/${liveBarcode}`),
      await get(`/api/track/test/${test}?postal_code=90210`),
      await get(`/api/track/test/${encodeURIComponent('<script>')}`),
      await get(`/api/track/test/${'X'.repeat(10_000)}`),
    ]) {
      expect(miss.status, miss.text).toBe(404);
      expect(missBody(miss)).toEqual(missBody(unknown));
    }
    expect((await track(testBarcode)).status).toBe(404);
    const livePage = await get(`/track/test/${liveBarcode}`);
    expect(livePage.text).toContain('No test package has this carrier barcode');
    expect(livePage.text).not.toContain(live);
    expect((await get(`/track/${testBarcode}`)).text).toMatch(/No package matches this number/);
  });

  it('counts the test page per client address with the live one', async () => {
    const address = freshClientAddress();
    for (let i = 0; i < 30; i++) expect((await get('/api/track/test/CB0000000000000', address)).status).toBe(404);
    expect((await get('/api/track/test/CB0000000000000', address)).status).toBe(429);
    expect((await get('/track/test/CB0000000000000', address)).status).toBe(429);
  });
});

describe('limits and methods', () => {
  it('counts lookups per client address: 429 with Retry-After past the limit, for the JSON and the page alike, never a 5xx', async () => {
    const address = freshClientAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const batch = await Promise.all(Array.from({ length: 10 }, () => track(tracking('RL'), '90210', address)));
      statuses.push(...batch.map((a) => a.status));
      const limited = batch.find((a) => a.status === 429);
      if (limited) {
        expect(limited.json.error.code).toBe('rate_limited');
        expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      }
    }
    // The suite's server allows 30 a minute (the default).
    expect(statuses.filter((s) => s === 404)).toHaveLength(30);
    expect(statuses.filter((s) => s === 429)).toHaveLength(50);
    const page = await get('/track/ANY1?postal_code=90210', address);
    expect(page.status).toBe(429);
    expect(Number(page.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toContain('Too many lookups');
    // Another address is not held up.
    expect((await track(tracking('RL'), '90210')).status).toBe(404);
  });

  it('answers a flood from one address with 429s and no 5xx', async () => {
    const address = freshClientAddress();
    const statuses = new Map<number, number>();
    for (let i = 0; i < 10; i++) {
      const batch = await Promise.all(
        Array.from({ length: 20 }, (_, j) =>
          j % 2 === 0 ? track(tracking('FL'), '90210', address) : get('/track/FLOOD1?postal_code=90210', address),
        ),
      );
      for (const answer of batch) statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    }
    expect(
      [...statuses.keys()].every((s) => s < 500),
      JSON.stringify([...statuses]),
    ).toBe(true);
    expect(statuses.get(429)).toBeGreaterThanOrEqual(200 - 30);
  });

  it('answers other methods 405 with Allow, and OPTIONS for browsers of any origin', async () => {
    const post = await get('/api/track/ABC', undefined, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    const options = await get('/api/track/ABC', undefined, { method: 'OPTIONS' });
    expect(options.status).toBe(204);
    expect(options.headers.get('access-control-allow-origin')).toBe('*');
    // The token API has no such operation, in either environment.
    expect((await get('/version-test/api/1.1/track/ABC')).status).toBe(404);
  });
});
