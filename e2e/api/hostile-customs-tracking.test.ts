import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CUSTOMS_ITEMS } from '@/lib/schemas/customs';
import { baseUrl, call, freshClientAddress, newAccount, pathFor, tracking, type TestAccount } from './support/api';
import { containerDetail, containerSample } from './support/samples';

// What the air-cargo operations and the public tracking pages answer an attacker: hostile bytes in the path and in
// every amendable text field, the largest item list and one past it, impossible flight dates, another account's and
// the other environment's identifiers, two amendments of one package at once, and eight heavy documents at once.
// Every answer is a 4xx envelope or works; never a 5xx, and the server still answers after.

let acme: TestAccount;
let stranger: TestAccount;
let manifestId = '';
const numbers: string[] = [];
const fivexx: string[] = [];

const CUSTOMS = {
  ContentsType: 'merchandise',
  Incoterm: 'DDP',
  Currency: 'EUR',
  Items: [{ Description: 'Cotton T-shirt', Quantity: 2, Value: '9.50', HSCode: '610910', OriginCountry: 'CN' }],
};

const parcel = (tn: string, over: Record<string, unknown> = {}) => ({
  ...containerDetail(tn),
  ToCity: 'Paris',
  ToState: '',
  ToPostalCode: '75002',
  ToCountry: 'FR',
  Customs: CUSTOMS,
  ...over,
});

const header = (id: string) => ({
  ...containerSample(id),
  FlightNumber: 'AC874',
  FlightDate: '2026-12-01',
  OriginAirport: 'YYZ',
  DestinationAirport: 'CDG',
});

function note(where: string, status: number, text: string) {
  if (status >= 500) fivexx.push(`${where}: ${status} ${text.slice(0, 200)}`);
}

async function send(method: string, env: 'test' | 'live', path: string, body: unknown, token: string) {
  const answer = await call(path, { env, method, body, token, headers: { 'x-forwarded-for': freshClientAddress() } });
  note(`${method} ${env} ${path}`, answer.status, answer.text);
  return answer;
}

beforeAll(async () => {
  [acme, stranger] = await Promise.all([newAccount('HostileCustoms'), newAccount('HostileCustomsStranger')]);
  for (let i = 0; i < 300; i++) numbers.push(tracking('HC'));
  const created = await send(
    'POST',
    'test',
    '/wf/manifest',
    { ...header(`AKE${String(Math.floor(Math.random() * 90000) + 10000)}XH`), ContainerDetails: numbers.map((tn) => parcel(tn)) },
    acme.tokens.test,
  );
  expect(created.status, created.text).toBe(200);
  manifestId = created.json.ManifestID as string;
}, 120_000);

afterAll(() => {
  expect(fivexx).toEqual([]);
});

describe('amendments under attack', () => {
  const fields = ['ToName', 'ToAddress1', 'ToCity', 'ToPhone', 'ToEmail'];
  const bad = ['a\u0000b', '\ud800', 'x'.repeat(10_000)];

  it('a NUL, a lone surrogate or 10,000 characters in every text field is a 422 naming it', async () => {
    for (const field of fields) {
      for (const value of bad) {
        const answer = await send('PATCH', 'test', `/packages/${numbers[0]}`, { [field]: value }, acme.tokens.test);
        expect(answer.status, `${field}: ${answer.text}`).toBe(422);
        expect(JSON.stringify(answer.json.error.details), field).toContain(field);
      }
    }
    const description = await send(
      'PATCH',
      'test',
      `/packages/${numbers[0]}`,
      { Customs: { Items: [{ ...CUSTOMS.Items[0], Description: 'Cotton\u0000shirt' }] } },
      acme.tokens.test,
    );
    expect(description.status, description.text).toBe(422);
    expect(JSON.stringify(description.json.error.details)).toContain('Description');
  });

  it('the most items a parcel may declare is accepted and one more is a single 422', async () => {
    const item = CUSTOMS.Items[0];
    const most = await send(
      'PATCH',
      'test',
      `/packages/${numbers[1]}`,
      { Customs: { Items: Array.from({ length: MAX_CUSTOMS_ITEMS }, () => item) } },
      acme.tokens.test,
    );
    expect(most.status, most.text).toBe(200);
    const past = await send(
      'PATCH',
      'test',
      `/packages/${numbers[1]}`,
      { Customs: { Items: Array.from({ length: MAX_CUSTOMS_ITEMS + 1 }, () => item) } },
      acme.tokens.test,
    );
    expect(past.status, past.text).toBe(422);
    expect(past.json.error.details.length).toBeLessThanOrEqual(2);
  });

  it('another account’s tracking number and the other environment are a 404, and change nothing', async () => {
    const strangers = await send('PATCH', 'test', `/packages/${numbers[2]}`, { ToName: 'taken' }, stranger.tokens.test);
    expect(strangers.status, strangers.text).toBe(404);
    const live = await send('PATCH', 'live', `/packages/${numbers[2]}`, { ToName: 'taken' }, acme.tokens.live);
    expect(live.status, live.text).toBe(404);
    const read = await send('GET', 'test', `/packages/${numbers[2]}`, undefined, acme.tokens.test);
    expect(read.json.ToName).not.toBe('taken');
  });

  it('two amendments of one package at once: each answered, the package holds one of them, both in its timeline', async () => {
    const tn = numbers[3];
    const answers = await Promise.all(
      ['First Name', 'Second Name'].map((name) => send('PATCH', 'test', `/packages/${tn}`, { ToName: name }, acme.tokens.test)),
    );
    for (const answer of answers) expect([200, 409], answer.text).toContain(answer.status);
    const read = await send('GET', 'test', `/packages/${tn}`, undefined, acme.tokens.test);
    expect(['First Name', 'Second Name']).toContain(read.json.ToName);
    const events = await send('GET', 'test', `/packages/${tn}/events`, undefined, acme.tokens.test);
    const amended = (events.json.data as { type: string }[]).filter((e) => e.type === 'package.amended');
    expect(amended.length).toBe(answers.filter((a) => a.status === 200).length);
  });

  it('impossible flight dates on a container are a 422 naming FlightDate', async () => {
    for (const date of ['2026-02-30', '2026-13-01', '0000-00-00', '99999-01-01', '2026-01-01T25:00:00Z']) {
      const answer = await send(
        'POST',
        'test',
        '/wf/manifest',
        {
          ...header(`AKE${String(Math.floor(Math.random() * 90000) + 10000)}XH`),
          FlightDate: date,
          ContainerDetails: [parcel(tracking('HD'))],
        },
        acme.tokens.test,
      );
      expect(answer.status, `${date}: ${answer.text}`).toBe(422);
      expect(JSON.stringify(answer.json.error.details), date).toContain('FlightDate');
    }
  });
});

describe('heavy customs documents at once', () => {
  it('eight CN 23 PDFs and eight ONE Record exports of one container at once: each 200, 429 or 503, and the server answers after', async () => {
    const paths = [
      ...Array.from({ length: 8 }, () => `/manifests/${manifestId}/customs-declarations`),
      ...Array.from({ length: 8 }, () => `/manifests/${manifestId}/one-record`),
    ];
    const answers = await Promise.all(
      paths.map((path) =>
        fetch(`${baseUrl}${pathFor('test', path)}`, {
          headers: { authorization: `Token ${acme.tokens.test}`, 'x-forwarded-for': freshClientAddress() },
        }).then(async (r) => ({ path, status: r.status, text: r.status >= 400 ? await r.text() : (await r.arrayBuffer(), '') })),
      ),
    );
    for (const a of answers) {
      note(a.path, a.status, a.text);
      expect([200, 429, 503], `${a.path}: ${a.status} ${a.text}`).toContain(a.status);
      if (a.status !== 200) expect(JSON.parse(a.text).error.code).toMatch(/rate_limited|service_unavailable/);
    }
    expect(answers.some((a) => a.status === 200)).toBe(true);
    const rate = await send('GET', 'test', `/manifests/${manifestId}/customs`, undefined, acme.tokens.test);
    expect(rate.status, rate.text).toBe(200);
  }, 180_000);
});

describe('public tracking under attack', () => {
  const segments = ['%ZZ', '%', 'a%00b', '%00', '%ED%A0%80', '%C0%80', '..%2F..%2Fapi', 'x'.repeat(5_000)];

  it('a malformed escape, NUL, a lone surrogate or a huge segment in the path: the JSON a 4xx, the page its miss; never a 5xx', async () => {
    const miss = await fetch(`${baseUrl}/track/NOSUCH${Date.now()}`, { headers: { 'x-forwarded-for': freshClientAddress() } });
    const missText = await miss.text();
    for (const segment of segments) {
      const json = await fetch(`${baseUrl}/api/track/${segment}`, { headers: { 'x-forwarded-for': freshClientAddress() } });
      const jsonText = await json.text();
      note(`/api/track/${segment}`, json.status, jsonText);
      expect(json.status, `${segment}: ${jsonText.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
      expect(json.status, segment).toBeLessThan(500);
      expect((JSON.parse(jsonText) as { error: { code: string } }).error.code, segment).toBeTruthy();
      // The page answers a miss with its own words (the same for every miss), or refuses the path outright.
      const page = await fetch(`${baseUrl}/track/${segment}`, { headers: { 'x-forwarded-for': freshClientAddress() } });
      const pageText = await page.text();
      note(`/track/${segment}`, page.status, pageText);
      expect(page.status, segment).toBeLessThan(500);
      if (page.status === 200) expect(pageText.includes('<h1') && missText.includes('<h1'), segment).toBe(true);
    }
  });

  it('another shipper’s test-mode number with its postal code is the same 404 as an unknown one', async () => {
    const unknown = await fetch(`${baseUrl}/api/track/NOSUCH${Date.now()}?postal_code=75002`, {
      headers: { 'x-forwarded-for': freshClientAddress() },
    });
    const test = await fetch(`${baseUrl}/api/track/${numbers[4]}?postal_code=75002`, {
      headers: { 'x-forwarded-for': freshClientAddress() },
    });
    expect(test.status).toBe(404);
    const [a, b] = [
      (await unknown.json()) as { error: { code: string; message: string } },
      (await test.json()) as { error: { code: string; message: string } },
    ];
    expect(b.error.code).toBe(a.error.code);
    expect(b.error.message).toBe(a.error.message);
  });
});
