import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, call, expectError, newAccount, pathFor, tracking, type Env, type TestAccount } from './support/api';
import { containerSample, packageSample } from './support/samples';

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
  containerNumbers = [tracking('DC'), tracking('DC')];
  const created = await call('/wf/manifest', { token: acme.tokens.test, body: containerSample(`CONT-${randomUUID().slice(0, 8)}`, containerNumbers) });
  expect(created.status, created.text).toBe(200);
  containerManifest = created.json.ManifestID;
  dailyNumber = tracking('DP');
  const pkg = await call('/wf/package', { token: acme.tokens.test, body: packageSample(dailyNumber) });
  expect(pkg.status, pkg.text).toBe(200);
  dailyManifest = pkg.json.ManifestID;
});

async function get(p: string, options: { env?: Env; token?: string; accept?: string } = {}) {
  const response = await fetch(baseUrl + pathFor(options.env ?? 'test', p), {
    headers: { authorization: `Token ${options.token ?? acme.tokens.test}`, ...(options.accept ? { accept: options.accept } : {}) },
  });
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

function barcodes(bytes: Uint8Array, kind: 'pdf' | 'png'): string[] {
  const file = path.join(dir, `${randomUUID()}.${kind}`);
  writeFileSync(file, bytes);
  let images = [file];
  if (kind === 'pdf') {
    execFileSync('pdftoppm', ['-r', '300', '-gray', '-png', file, file]);
    images = execFileSync('sh', ['-c', `ls ${file}-*.png`]).toString().trim().split('\n');
  }
  return images.flatMap((image) => {
    try {
      return execFileSync('zbarimg', ['-q', '--raw', image], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().split('\n').filter(Boolean);
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
    expect(barcodes(bytes, 'pdf').sort()).toEqual(['000-12345675', containerManifest].sort());
  });

  it('GET /manifests/{id}/labels and /tags, PDF and ZPL; a daily manifest too', async () => {
    const labels = await get(`/manifests/${containerManifest}/labels`);
    expect(labels.response.status).toBe(200);
    expect(barcodes(labels.bytes, 'pdf')).toEqual(containerNumbers);
    const zpl = await get(`/manifests/${containerManifest}/tags?format=zpl`);
    expect(zpl.response.headers.get('content-type')).toBe('application/zpl; charset=utf-8');
    expect(new TextDecoder().decode(zpl.bytes)).toMatch(/^\^XA\n[\s\S]*\^BCN[\s\S]*\^XZ\n$/);
    const daily = await get(`/manifests/${dailyManifest}/labels`, { accept: 'application/pdf' });
    expect(barcodes(daily.bytes, 'pdf')).toEqual([dailyNumber]);
  });

  it('GET /packages/{TrackingNumber}/label as PNG by Accept and by ?format=', async () => {
    for (const [query, accept] of [['?format=png', undefined], ['', 'image/png']] as const) {
      const { response, bytes } = await get(`/packages/${dailyNumber}/label${query}`, accept ? { accept } : {});
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/png');
      expect(response.headers.get('content-disposition')).toBe(`inline; filename="label-${dailyNumber}.png"`);
      expect(barcodes(bytes, 'png')).toEqual([dailyNumber]);
    }
  });

  it('406 for a format a document does not come in; 404 for unknown, another account\'s, the other environment\'s and %ZZ ids', async () => {
    for (const p of [`/manifests/${containerManifest}/document?format=zpl`, `/packages/${dailyNumber}/label?format=gif`]) {
      const result = await call(p, { method: 'GET', token: acme.tokens.test });
      expectError(result, 406, 'not_acceptable');
    }
    expectError(await call(`/manifests/${containerManifest}/document`, { method: 'GET', token: acme.tokens.test, headers: { accept: 'text/html' } }), 406, 'not_acceptable');
    for (const p of [`/manifests/MAN-NOPE/document`, `/manifests/%ZZ/tags`, `/packages/%ZZ/label`, `/packages/NOPE/label`]) {
      expectError(await call(p, { method: 'GET', token: acme.tokens.test }), 404, 'not_found');
    }
    expectError(await call(`/manifests/${containerManifest}/document`, { method: 'GET', token: stranger.tokens.test }), 404, 'not_found');
    expectError(await call(`/packages/${dailyNumber}/label`, { method: 'GET', token: stranger.tokens.test }), 404, 'not_found');
    expectError(await call(`/manifests/${containerManifest}/labels`, { method: 'GET', env: 'live', token: acme.tokens.live }), 404, 'not_found');
  });
});
