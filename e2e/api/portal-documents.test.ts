import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, call, containerAndDaily, pathFor, tracking } from './support/api';
import { address, signUp, type Shipper } from './support/portal';
import { containerSample } from './support/samples';

// The portal's print buttons (Portal): GET /portal-api/manifests/{id}/document|tags|labels and
// /portal-api/packages/{TrackingNumber}/label run the API's own document operations behind the session.
// Through the real server: the PDF and its file name are the API's, the barcodes read back are the
// manifest's, and the session's account and the page's environment (?environment=) scope every id.

let owner: Shipper;
let stranger: Shipper;
let container = '';
let daily = '';
let containerNumbers: string[] = [];
let dailyNumber = '';
const dir = mkdtempSync(path.join(tmpdir(), 'portal-documents-'));
/** What Chrome sends when a link opens a new tab: the portal's own navigation, no format asked for. */
const NAVIGATION_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8';

beforeAll(async () => {
  [owner, stranger] = await Promise.all([signUp('Printer'), signUp('PrintStranger')]);
  ({ containerId: container, containerNumbers, dailyId: daily, dailyNumber } = await containerAndDaily(owner.tokens.test, 'P'));
});

interface Answer {
  status: number;
  headers: Headers;
  bytes: Uint8Array;
  text: string;
}

/** A GET as the print link sends it: the session's cookie, the environment in the query, no CSRF header (a navigation). */
async function portalGet(
  who: Shipper | null,
  route: string,
  options: { env?: 'test' | 'live' | null; accept?: string } = {},
): Promise<Answer> {
  const env = options.env === undefined ? 'test' : options.env;
  const url = `${baseUrl}${route}${env ? `${route.includes('?') ? '&' : '?'}environment=${env}` : ''}`;
  const response = await fetch(url, {
    headers: {
      'x-forwarded-for': address(),
      accept: options.accept ?? NAVIGATION_ACCEPT,
      ...(who ? { cookie: who.cookie } : {}),
    },
  });
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, bytes, text: new TextDecoder().decode(bytes) };
}

/** The same document from the public API, with the owner's token. */
async function apiGet(route: string): Promise<Response> {
  return fetch(baseUrl + pathFor('test', route), { headers: { authorization: `Token ${owner.tokens.test}` } });
}

function expectEnvelope(answer: Answer, status: number, code: string) {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.headers.get('content-type')).toBe('application/json');
  const body = JSON.parse(answer.text) as { error: { code: string; request_id: string } };
  expect(body.error.code, answer.text).toBe(code);
  expect(answer.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
  expect(body.error.request_id).toBe(answer.headers.get('x-request-id'));
}

function barcodes(bytes: Uint8Array): string[] {
  const file = path.join(dir, `${randomUUID()}.pdf`);
  writeFileSync(file, bytes);
  execFileSync('pdftoppm', ['-r', '300', '-gray', '-png', file, file]);
  const images = readdirSync(dir).filter((name) => name.startsWith(path.basename(file)) && name.endsWith('.png'));
  return images.sort().flatMap((image) => {
    try {
      return execFileSync('zbarimg', ['-q', '--raw', '-Sdisable', '-Scode128.enable', path.join(dir, image)], {
        stdio: ['ignore', 'pipe', 'ignore'],
      })
        .toString()
        .split('\n')
        .filter(Boolean);
    } catch {
      return [];
    }
  });
}

describe('portal documents: the print buttons', () => {
  it("each route answers the PDF with the API's own Content-Disposition, and the barcodes read back are the manifest's", async () => {
    // A label's barcode is its package's carrier barcode; the AWB's, its 11 digits as the API returns them.
    const barcodeOf = async (number: string) =>
      ((await (await apiGet(`/packages/${number}`)).json()) as { carrier_barcode: string }).carrier_barcode;
    const containerCodes = await Promise.all(containerNumbers.map(barcodeOf));
    const dailyCode = await barcodeOf(dailyNumber);
    const cases = [
      { route: `/manifests/${container}/document`, file: `handover-${container}.pdf`, codes: ['00012345675', container] },
      { route: `/manifests/${container}/tags`, file: null, codes: null },
      { route: `/manifests/${container}/labels`, file: `labels-${container}.pdf`, codes: containerCodes },
      { route: `/manifests/${daily}/document`, file: `handover-${daily}.pdf`, codes: null },
      { route: `/manifests/${daily}/labels`, file: `labels-${daily}.pdf`, codes: [dailyCode] },
      { route: `/packages/${containerNumbers[0]}/label`, file: `label-${containerNumbers[0]}.pdf`, codes: null },
      { route: `/packages/${dailyNumber}/label`, file: `label-${dailyNumber}.pdf`, codes: [dailyCode] },
    ];
    for (const { route, file, codes } of cases) {
      const answer = await portalGet(owner, `/portal-api${route}?format=pdf`);
      expect(answer.status, `${route}: ${answer.text.slice(0, 300)}`).toBe(200);
      expect(answer.headers.get('content-type'), route).toBe('application/pdf');
      expect(new TextDecoder().decode(answer.bytes.slice(0, 5)), route).toBe('%PDF-');
      expect(answer.headers.get('x-content-type-options'), route).toBe('nosniff');
      expect(answer.headers.get('cache-control'), route).toBe('no-store');
      expect(answer.headers.get('x-request-id'), route).toMatch(/^req_[0-9a-f]{32}$/);
      // Byte for byte the API's header: one function names the file for both.
      const api = await apiGet(route);
      expect(api.status, route).toBe(200);
      expect(answer.headers.get('content-disposition'), route).toBe(api.headers.get('content-disposition'));
      if (file) expect(answer.headers.get('content-disposition'), route).toBe(`inline; filename="${file}"`);
      if (codes) expect(barcodes(answer.bytes).sort(), route).toEqual([...codes].sort());
    }
    // Fourteen renders, the first of them starting the portal's and the API's render threads (one per process), at
    // the idle priority renders run at, while the rest of the suite runs beside: about 7 s alone.
  }, 120_000);

  it("a new tab's navigation Accept, with no ?format=, still gets the PDF; ?format= the API's other formats and its 406", async () => {
    const navigation = await portalGet(owner, `/portal-api/manifests/${container}/labels`);
    expect(navigation.status, navigation.text.slice(0, 300)).toBe(200);
    expect(navigation.headers.get('content-type')).toBe('application/pdf');
    expect(new TextDecoder().decode(navigation.bytes.slice(0, 5))).toBe('%PDF-');
    const zpl = await portalGet(owner, `/portal-api/manifests/${container}/tags?format=zpl`);
    expect(zpl.status).toBe(200);
    expect(zpl.headers.get('content-type')).toBe('application/zpl; charset=utf-8');
    expect(zpl.text).toMatch(/^\^XA\n[\s\S]*\^XZ\n$/);
    expectEnvelope(await portalGet(owner, `/portal-api/manifests/${container}/document?format=zpl`), 406, 'not_acceptable');
    expectEnvelope(await portalGet(owner, `/portal-api/packages/${dailyNumber}/label?format=gif`), 406, 'not_acceptable');
    expectEnvelope(await portalGet(owner, `/portal-api/manifests/${container}/document?paper=legal`), 422, 'validation_failed');
  });

  it('a document large enough to pass through a file (1 MB and more) comes whole through the portal, after the API sent one', async () => {
    // The process's render pool is one, made by whichever of the API's code and Next's renders first; a large document
    // it hands the portal must be recognised there as it is by the API.
    const numbers = Array.from({ length: 1_500 }, () => tracking('PB'));
    const created = await call('/wf/manifest', {
      token: owner.tokens.test,
      body: containerSample(`PRINTBIG-${randomUUID().slice(0, 8)}`, numbers),
    });
    expect(created.status, created.text).toBe(200);
    const big = created.json.ManifestID as string;
    const api = await fetch(baseUrl + pathFor('test', `/manifests/${big}/labels`), {
      headers: { authorization: `Token ${owner.tokens.test}` },
    });
    const apiBytes = new Uint8Array(await api.arrayBuffer());
    expect(api.status).toBe(200);
    expect(apiBytes.byteLength).toBeGreaterThan(1024 * 1024);
    const portal = await portalGet(owner, `/portal-api/manifests/${big}/labels`);
    expect(portal.status, portal.text.slice(0, 300)).toBe(200);
    expect(portal.bytes.byteLength).toBe(apiBytes.byteLength);
    const file = path.join(dir, `big-${big}.pdf`);
    writeFileSync(file, portal.bytes);
    expect(execFileSync('pdfinfo', [file]).toString()).toMatch(/Pages:\s+1500\n/);
  });

  const routes = () => [
    `/portal-api/manifests/${container}/document`,
    `/portal-api/manifests/${container}/tags`,
    `/portal-api/manifests/${container}/labels`,
    `/portal-api/manifests/${daily}/document`,
    `/portal-api/manifests/${daily}/labels`,
    `/portal-api/packages/${containerNumbers[0]}/label`,
    `/portal-api/packages/${dailyNumber}/label`,
  ];

  it("another account's session: 404 for every id; the owner's own session in live: 404 (the ids are test's)", async () => {
    for (const route of routes()) {
      expectEnvelope(await portalGet(stranger, route), 404, 'not_found');
      expectEnvelope(await portalGet(stranger, route, { env: 'live' }), 404, 'not_found');
      expectEnvelope(await portalGet(owner, route, { env: 'live' }), 404, 'not_found');
    }
  });

  it('no session: 401; no environment, or one that is neither test nor live: 400 environment_required', async () => {
    for (const route of routes()) {
      expectEnvelope(await portalGet(null, route), 401, 'unauthorized');
      expectEnvelope(await portalGet(owner, route, { env: null }), 400, 'environment_required');
      expectEnvelope(await portalGet(owner, `${route}?environment=prod`, { env: null }), 400, 'environment_required');
    }
  });

  it.each([['%ZZ'], ['%00'], ['%E0%A4'], ['x'.repeat(5_000)], ['MAN-DOESNOTEXIST']])(
    'id %s: a 404 envelope on every route, never 5xx',
    async (id) => {
      for (const route of [
        `/portal-api/manifests/${id}/document`,
        `/portal-api/manifests/${id}/tags`,
        `/portal-api/manifests/${id}/labels`,
        `/portal-api/packages/${id}/label`,
      ]) {
        const answer = await portalGet(owner, route);
        expectEnvelope(answer, 404, 'not_found');
      }
    },
  );
});
