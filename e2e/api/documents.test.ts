import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, call, containerAndDaily, expectError, newAccount, pathFor, type Env, type TestAccount } from './support/api';

// The document routes over HTTP: bytes, types, file names, formats, scoping; barcodes read back by zbarimg.

let acme: TestAccount;
let stranger: TestAccount;
let containerManifest = '';
let dailyManifest = '';
let containerNumbers: string[] = [];
let dailyNumber = '';
const dir = mkdtempSync(path.join(tmpdir(), 'documents-api-'));

beforeAll(async () => {
  [acme, stranger] = await Promise.all([newAccount('Docs'), newAccount('DocsStranger')]);
  ({
    containerId: containerManifest,
    containerNumbers,
    dailyId: dailyManifest,
    dailyNumber,
  } = await containerAndDaily(acme.tokens.test, 'D'));
});

async function dailyRead(): Promise<{ carrier_barcode: string }> {
  const read = await call(`/packages/${dailyNumber}`, { method: 'GET', token: acme.tokens.test });
  expect(read.status, read.text).toBe(200);
  return read.json;
}

async function get(p: string, options: { env?: Env; token?: string; accept?: string } = {}) {
  const response = await fetch(baseUrl + pathFor(options.env ?? 'test', p), {
    headers: {
      authorization: `Token ${options.token ?? acme.tokens.test}`,
      ...(options.accept ? { accept: options.accept } : {}),
    },
  });
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

function barcodes(bytes: Uint8Array, kind: 'pdf' | 'png'): string[] {
  const file = path.join(dir, `${randomUUID()}.${kind}`);
  writeFileSync(file, bytes);
  let images = [file];
  if (kind === 'pdf') {
    execFileSync('pdftoppm', ['-r', '300', '-gray', '-png', file, file]);
    images = execFileSync('sh', ['-c', `ls ${file}-*.png`])
      .toString()
      .trim()
      .split('\n');
  }
  return images.flatMap((image) => {
    try {
      return execFileSync('zbarimg', ['-q', '--raw', '-Sdisable', '-Scode128.enable', image], {
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

describe('document routes', () => {
  it('GET /manifests/{id}/document: the handover PDF with ManifestID and AWB barcodes', async () => {
    const { response, bytes } = await get(`/manifests/${containerManifest}/document`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe(`inline; filename="handover-${containerManifest}.pdf"`);
    // The AWB's barcode holds it as the API returns it: 11 digits, no hyphen.
    expect(barcodes(bytes, 'pdf').sort()).toEqual(['00012345675', containerManifest].sort());
    const read = await call(`/manifests/${containerManifest}`, { method: 'GET', token: acme.tokens.test });
    expect(barcodes(bytes, 'pdf')).toContain(read.json.AWB);
  });

  it('GET /manifests/{id}/labels and /tags, PDF and ZPL; a daily manifest too', async () => {
    const labels = await get(`/manifests/${containerManifest}/labels`);
    expect(labels.response.status).toBe(200);
    // Each label's sort barcode is the package's carrier barcode, in the manifest's order.
    const listed = await call(`/manifests/${containerManifest}/packages`, { method: 'GET', token: acme.tokens.test });
    const codes = (listed.json.data as { TrackingNumber: string; carrier_barcode: string }[]).map((p) => p.carrier_barcode);
    expect(listed.json.data.map((p: { TrackingNumber: string }) => p.TrackingNumber)).toEqual(containerNumbers);
    expect(barcodes(labels.bytes, 'pdf')).toEqual(codes);
    const zpl = await get(`/manifests/${containerManifest}/tags?format=zpl`);
    expect(zpl.response.headers.get('content-type')).toBe('application/zpl; charset=utf-8');
    expect(new TextDecoder().decode(zpl.bytes)).toMatch(/^\^XA\n[\s\S]*\^BCN[\s\S]*\^XZ\n$/);
    const daily = await get(`/manifests/${dailyManifest}/labels`, { accept: 'application/pdf' });
    expect(barcodes(daily.bytes, 'pdf')).toEqual([(await dailyRead()).carrier_barcode]);
  });

  it('GET /packages/{TrackingNumber}/label as PNG by Accept and by ?format=', async () => {
    for (const [query, accept] of [
      ['?format=png', undefined],
      ['', 'image/png'],
    ] as const) {
      const { response, bytes } = await get(`/packages/${dailyNumber}/label${query}`, accept ? { accept } : {});
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/png');
      expect(response.headers.get('content-disposition')).toBe(`inline; filename="label-${dailyNumber}.png"`);
      expect(barcodes(bytes, 'png')).toEqual([(await dailyRead()).carrier_barcode]);
    }
  });

  it('HEAD answers as GET does, without the body; a route with no GET answers HEAD 405 with Allow', async () => {
    for (const p of [`/packages/${dailyNumber}/label`, `/manifests/${containerManifest}/document`, `/packages/${dailyNumber}`]) {
      const response = await fetch(baseUrl + pathFor('test', p), {
        method: 'HEAD',
        headers: { authorization: `Token ${acme.tokens.test}` },
      });
      const got = await fetch(baseUrl + pathFor('test', p), { headers: { authorization: `Token ${acme.tokens.test}` } });
      expect(response.status, p).toBe(200);
      expect(response.headers.get('content-type')).toBe(got.headers.get('content-type'));
      expect(response.headers.get('content-disposition')).toBe(got.headers.get('content-disposition'));
      expect((await response.arrayBuffer()).byteLength).toBe(0);
      expect(response.headers.get('access-control-allow-methods')).toContain('HEAD');
    }
    const post = await fetch(baseUrl + pathFor('test', '/wf/rate'), {
      method: 'HEAD',
      headers: { authorization: `Token ${acme.tokens.test}` },
    });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('POST, OPTIONS');
    const stranger404 = await fetch(baseUrl + pathFor('test', `/packages/${dailyNumber}/label`), {
      method: 'HEAD',
      headers: { authorization: `Token ${stranger.tokens.test}` },
    });
    expect(stranger404.status).toBe(404);
  });

  it("406 for a format a document does not come in; 404 for unknown, another account's, the other environment's and %ZZ ids", async () => {
    for (const p of [`/manifests/${containerManifest}/document?format=zpl`, `/packages/${dailyNumber}/label?format=gif`]) {
      const result = await call(p, { method: 'GET', token: acme.tokens.test });
      expectError(result, 406, 'not_acceptable');
    }
    expectError(
      await call(`/manifests/${containerManifest}/document`, {
        method: 'GET',
        token: acme.tokens.test,
        headers: { accept: 'text/html' },
      }),
      406,
      'not_acceptable',
    );
    for (const p of [`/manifests/MAN-NOPE/document`, `/manifests/%ZZ/tags`, `/packages/%ZZ/label`, `/packages/NOPE/label`]) {
      expectError(await call(p, { method: 'GET', token: acme.tokens.test }), 404, 'not_found');
    }
    expectError(
      await call(`/manifests/${containerManifest}/document`, { method: 'GET', token: stranger.tokens.test }),
      404,
      'not_found',
    );
    expectError(await call(`/packages/${dailyNumber}/label`, { method: 'GET', token: stranger.tokens.test }), 404, 'not_found');
    expectError(
      await call(`/manifests/${containerManifest}/labels`, { method: 'GET', env: 'live', token: acme.tokens.live }),
      404,
      'not_found',
    );
  });
});
