import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { createOpsToken } from '@/lib/auth/ops-tokens';
import { pgPool } from '@/lib/db';
import { MAX_IMAGE_BYTES } from '@/lib/proof-of-delivery/images';
import { SAMPLE_PHOTO_JPEG, SAMPLE_SIGNATURE_PNG } from '@/lib/proof-of-delivery/samples';
import { baseUrl, call, expectError, newAccount, pathFor, tracking, type Env, type TestAccount } from './support/api';
import { packageSample } from './support/samples';

// Proof of delivery: a delivered scan's recipient name, signature and photo (PNG or JPEG by their bytes, at most
// 512 KB, nothing after their end), kept apart and served only to the package's own account and environment, as JSON,
// as the images themselves and as a PDF certificate; the simulator attaches samples. Hostile uploads refuse the scan.

let ops: string;
let acme: TestAccount;
let rival: TestAccount;
const OUT = path.join(process.cwd(), 'test-results', 'proof-of-delivery');

beforeAll(async () => {
  ops = (await createOpsToken({ name: 'proof of delivery tests' })).token;
  [acme, rival] = await Promise.all([newAccount('Proof'), newAccount('Proof rival')]);
  mkdirSync(OUT, { recursive: true });
});

/** A package of acme's, walked out for delivery: a delivered scan applies to it. */
async function outForDelivery(account = acme, env: Env = 'test'): Promise<{ number: string; barcode: string }> {
  const number = tracking('POD');
  const made = await call('/wf/package', { env, token: account.tokens[env], body: packageSample(number) });
  expect(made.status, made.text).toBe(200);
  const barcode = (await call(`/packages/${number}`, { env, method: 'GET', token: account.tokens[env] })).json.carrier_barcode;
  if (env === 'test') {
    const walked = await call(`/packages/${number}/simulate`, {
      token: account.tokens.test,
      body: { status: 'out_for_delivery' },
    });
    expect(walked.status, walked.text).toBe(200);
  }
  return { number, barcode };
}

function deliveredScan(barcode: string, proof: Record<string, unknown>, scanId = `pod-${randomUUID()}`) {
  return {
    scan_id: scanId,
    carrier_barcode: barcode,
    event: 'delivered',
    location: '90210',
    occurred_at: new Date().toISOString(),
    proof_of_delivery: proof,
  };
}

async function sendScan(scan: Record<string, unknown>, env: Env = 'test', offContract = false) {
  // A scan the document itself forbids (past a maxLength, an unknown field) goes around the suite's contract check:
  // the server's own answer to it is what is tested.
  const answer = offContract
    ? await fetch(baseUrl + pathFor(env, '/ops/scans'), {
        method: 'POST',
        headers: { authorization: `Token ${ops}`, 'content-type': 'application/json' },
        body: JSON.stringify({ scans: [scan] }),
      }).then(async (r) => ({ status: r.status, text: await r.clone().text(), json: await r.json() }))
    : await call('/ops/scans', { env, token: ops, body: { scans: [scan] } });
  expect(answer.status, answer.text).toBe(200);
  return answer.json.results[0] as { result: string; error?: { code: string; details?: { path: string; message: string }[] } };
}

async function get(p: string, token = acme.tokens.test, env: Env = 'test') {
  const response = await fetch(baseUrl + pathFor(env, p), { headers: { authorization: `Token ${token}` } });
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

/** A structurally valid PNG of exactly `size` bytes (a 1×1 image with a private chunk filling the rest). */
function pngOfSize(size: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length);
    head.write(type, 4, 'latin1');
    return Buffer.concat([head, data, Buffer.alloc(4)]);
  };
  const ihdr = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0]);
  const fixed = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.from([0, 0]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  const filler = size - fixed.length - 12;
  const iend = fixed.length - 12;
  return Buffer.concat([fixed.subarray(0, iend), chunk('prIv', Buffer.alloc(filler, 0x41)), fixed.subarray(iend)]);
}

const b64 = (bytes: Buffer | string) => Buffer.from(bytes).toString('base64');

describe('a delivered scan with a proof of delivery', () => {
  it('keeps the name, signature and photo; the shipper reads them as JSON, as the images and as a PDF certificate', async () => {
    const { number, barcode } = await outForDelivery();
    const scan = deliveredScan(barcode, {
      recipient_name: 'Jane Doe — concierge',
      signature: SAMPLE_SIGNATURE_PNG,
      photo: SAMPLE_PHOTO_JPEG,
    });
    expect((await sendScan(scan)).result).toBe('applied');
    const proof = await call(`/packages/${number}/proof-of-delivery`, { method: 'GET', token: acme.tokens.test });
    expect(proof.status, proof.text).toBe(200);
    expect(proof.json).toMatchObject({
      object: 'proof_of_delivery',
      tracking_number: number,
      carrier_barcode: barcode,
      status: 'delivered',
      recipient_name: 'Jane Doe — concierge',
      location: '90210',
      scan_id: scan.scan_id,
      signature: { content_type: 'image/png', bytes: Buffer.from(SAMPLE_SIGNATURE_PNG, 'base64').length },
      photo: { content_type: 'image/jpeg', bytes: Buffer.from(SAMPLE_PHOTO_JPEG, 'base64').length },
    });
    const signature = await get(proof.json.signature.path);
    expect(signature.response.status).toBe(200);
    expect(signature.response.headers.get('content-type')).toBe('image/png');
    expect(signature.response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(signature.bytes).equals(Buffer.from(SAMPLE_SIGNATURE_PNG, 'base64'))).toBe(true);
    const photo = await get(proof.json.photo.path);
    expect(photo.response.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(photo.bytes).equals(Buffer.from(SAMPLE_PHOTO_JPEG, 'base64'))).toBe(true);
    // Not in the package's or its events' rows: a separate table.
    const rows = await pgPool().query(`SELECT data::text FROM packages WHERE carrier_barcode = $1`, [barcode]);
    expect(rows.rows[0].data).not.toContain(SAMPLE_SIGNATURE_PNG.slice(0, 40));
    const document = await get(proof.json.document_path);
    expect(document.response.status).toBe(200);
    expect(document.response.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(document.bytes.subarray(0, 5)).toString()).toBe('%PDF-');
    const pdf = path.join(OUT, 'certificate.pdf');
    writeFileSync(pdf, document.bytes);
    execFileSync('pdftoppm', ['-r', '80', '-png', '-singlefile', pdf, path.join(OUT, 'certificate')]);
    const text = execFileSync('pdftotext', [pdf, '-']).toString();
    for (const expected of ['Proof of delivery', number, barcode, 'Jane Doe — concierge', 'TEST'])
      expect(text).toContain(expected);
    expect(readFileSync(path.join(OUT, 'certificate.png')).subarray(1, 4).toString()).toBe('PNG');
  });

  it('a resent scan keeps the first proof; a later delivered scan (history only) does not replace it', async () => {
    const { number, barcode } = await outForDelivery();
    const scan = deliveredScan(barcode, { recipient_name: 'First' });
    expect((await sendScan(scan)).result).toBe('applied');
    expect((await sendScan({ ...scan, proof_of_delivery: { recipient_name: 'Changed' } })).result).toBe('duplicate');
    const proof = await call(`/packages/${number}/proof-of-delivery`, { method: 'GET', token: acme.tokens.test });
    expect(proof.json).toMatchObject({ recipient_name: 'First', signature: null, photo: null });
    expectError(
      await call(`/packages/${number}/proof-of-delivery/signature`, { method: 'GET', token: acme.tokens.test }),
      404,
      'not_found',
    );
  });

  it('the simulator attaches a sample proof when it delivers a test package', async () => {
    const { number } = await outForDelivery();
    await call(`/packages/${number}/simulate`, { token: acme.tokens.test, body: { status: 'delivered' } });
    const proof = await call(`/packages/${number}/proof-of-delivery`, { method: 'GET', token: acme.tokens.test });
    expect(proof.status, proof.text).toBe(200);
    expect(proof.json).toMatchObject({
      recipient_name: 'A. Recipient (test)',
      signature: { content_type: 'image/png' },
      photo: { content_type: 'image/jpeg' },
    });
  });

  it('a package without a proof, or not delivered, answers 404 on every proof route', async () => {
    const { number } = await outForDelivery();
    for (const suffix of ['', '/signature', '/photo', '/document'])
      expectError(
        await call(`/packages/${number}/proof-of-delivery${suffix}`, { method: 'GET', token: acme.tokens.test }),
        404,
        'not_found',
      );
  });

  it("another account's and the other environment's reads are 404, on every proof route", async () => {
    const { number, barcode } = await outForDelivery();
    expect((await sendScan(deliveredScan(barcode, { recipient_name: 'Private', signature: SAMPLE_SIGNATURE_PNG }))).result).toBe(
      'applied',
    );
    for (const suffix of ['', '/signature', '/photo', '/document']) {
      for (const id of [number, barcode]) {
        expectError(
          await call(`/packages/${id}/proof-of-delivery${suffix}`, { method: 'GET', token: rival.tokens.test }),
          404,
          'not_found',
        );
        expectError(
          await call(`/packages/${id}/proof-of-delivery${suffix}`, { method: 'GET', env: 'live', token: acme.tokens.live }),
          404,
          'not_found',
        );
      }
    }
    // A live scan of a test package's barcode finds nothing: the proof stays with nobody.
    const live = await sendScan(deliveredScan(barcode, { recipient_name: 'Live' }), 'live');
    expect(live.result).toBe('refused');
    const kept = await pgPool().query(`SELECT environment, recipient_name FROM proofs_of_delivery WHERE carrier_barcode = $1`, [
      barcode,
    ]);
    expect(kept.rows).toEqual([{ environment: 'test', recipient_name: 'Private' }]);
  });
});

describe('hostile proofs refuse the scan, naming the field, and keep nothing', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['oversized (1 MB)', { signature: b64(pngOfSize(1024 * 1024)) }, 'proof_of_delivery.signature'],
    ['one byte past the limit', { photo: b64(pngOfSize(MAX_IMAGE_BYTES + 1)) }, 'proof_of_delivery.photo'],
    ['wrong magic bytes (GIF)', { signature: b64('GIF89a\x01\x00\x01\x00\x00\x00\x00;') }, 'proof_of_delivery.signature'],
    ['an HTML page', { photo: b64('<html><script>alert(1)</script></html>') }, 'proof_of_delivery.photo'],
    [
      'a PNG with HTML after IEND (polyglot)',
      { signature: b64(Buffer.concat([Buffer.from(SAMPLE_SIGNATURE_PNG, 'base64'), Buffer.from('<script>alert(1)</script>')])) },
      'proof_of_delivery.signature',
    ],
    [
      'a JPEG with a ZIP after EOI (polyglot)',
      { photo: b64(Buffer.concat([Buffer.from(SAMPLE_PHOTO_JPEG, 'base64'), Buffer.from('PK\x03\x04zipzipzip')])) },
      'proof_of_delivery.photo',
    ],
    [
      'a truncated PNG',
      { signature: b64(Buffer.from(SAMPLE_SIGNATURE_PNG, 'base64').subarray(0, 100)) },
      'proof_of_delivery.signature',
    ],
    ['malformed base64', { signature: 'iVBORw0KGgo$$$' }, 'proof_of_delivery.signature'],
    ['base64 with a data: prefix', { photo: `data:image/jpeg;base64,${SAMPLE_PHOTO_JPEG}` }, 'proof_of_delivery.photo'],
    ['base64 with line breaks', { photo: SAMPLE_PHOTO_JPEG.replace(/(.{76})/g, '$1\n') }, 'proof_of_delivery.photo'],
    ['bad padding', { signature: `${SAMPLE_SIGNATURE_PNG.replace(/=+$/, '')}=` }, 'proof_of_delivery.signature'],
    ['empty image', { signature: '' }, 'proof_of_delivery.signature'],
    ['an image as a number', { signature: 12345 }, 'proof_of_delivery.signature'],
    ['NUL in the name', { recipient_name: 'Jane\u0000Doe' }, 'proof_of_delivery.recipient_name'],
    ['a lone surrogate in the name', { recipient_name: 'Jane \ud800' }, 'proof_of_delivery.recipient_name'],
    ['a name past 100 characters', { recipient_name: 'x'.repeat(101) }, 'proof_of_delivery.recipient_name'],
    ['an unknown field', { fingerprint: 'x' }, 'proof_of_delivery'],
  ];
  for (const [name, proof, field] of cases) {
    it(name, async () => {
      const { barcode } = await outForDelivery();
      const result = await sendScan(deliveredScan(barcode, proof), 'test', true);
      expect(result.result).toBe('refused');
      expect(result.error?.code).toBe('validation_failed');
      expect(result.error?.details?.map((d) => d.path).join(' ')).toContain(field);
      const kept = await pgPool().query(`SELECT 1 FROM proofs_of_delivery WHERE carrier_barcode = $1`, [barcode]);
      expect(kept.rowCount).toBe(0);
      // The package was not delivered by the refused scan.
      expect((await call(`/packages/${barcode}`, { method: 'GET', token: acme.tokens.test })).json.status).toBe(
        'out_for_delivery',
      );
    });
  }

  it('exactly the limit is kept', async () => {
    const { number, barcode } = await outForDelivery();
    expect((await sendScan(deliveredScan(barcode, { signature: b64(pngOfSize(MAX_IMAGE_BYTES)) }))).result).toBe('applied');
    const proof = await call(`/packages/${number}/proof-of-delivery`, { method: 'GET', token: acme.tokens.test });
    expect(proof.json.signature).toMatchObject({ content_type: 'image/png', bytes: MAX_IMAGE_BYTES });
    // An image the checks pass but a decoder cannot draw: the certificate says so instead of failing.
    const document = await get(`/packages/${number}/proof-of-delivery/document`);
    expect(document.response.status).toBe(200);
  });

  it('a proof on a scan other than delivered is refused', async () => {
    const { barcode } = await outForDelivery();
    const scan = { ...deliveredScan(barcode, { recipient_name: 'Early' }), event: 'exception' };
    const result = await sendScan(scan);
    expect(result.result).toBe('refused');
    expect(result.error?.details?.map((d) => d.path)).toContain('proof_of_delivery');
  });
});
