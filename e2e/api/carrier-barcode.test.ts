import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpsToken } from '@/lib/auth/ops-tokens';
import { isCarrierBarcode } from '@/lib/schemas/carrier-barcode';
import { baseUrl, call, expectError, newAccount, pathFor, tracking, type Env, type TestAccount } from './support/api';
import { containerDetail, containerSample, packageSample } from './support/samples';

// The carrier barcode: ours on every package (daily and container, with or without a TrackingNumber), the label's
// sort barcode, returned by the reads, and what makes a scan unambiguous when shippers send the same tracking number.

const GET = { method: 'GET' } as const;
const dir = mkdtempSync(path.join(tmpdir(), 'carrier-barcode-'));
let ops: string;
let victim: TestAccount;
let squatter: TestAccount;

beforeAll(async () => {
  ops = (await createOpsToken({ name: 'carrier barcode tests' })).token;
  [victim, squatter] = await Promise.all([newAccount('Victim'), newAccount('Squatter')]);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function dailyPackage(account: TestAccount, number: string, env: Env = 'test') {
  const created = await call('/wf/package', { env, token: account.tokens[env], body: packageSample(number) });
  expect(created.status, created.text).toBe(200);
  const read = await call(`/packages/${number}`, { ...GET, env, token: account.tokens[env] });
  expect(read.status, read.text).toBe(200);
  return read.json as { carrier_barcode: string; ManifestID: string; status: string };
}

async function scan(body: Record<string, unknown>, env: Env = 'test') {
  const result = await call('/ops/scans', {
    env,
    token: ops,
    body: { scans: [{ scan_id: `s-${randomUUID()}`, location: 'JFK', occurred_at: new Date().toISOString(), ...body }] },
  });
  expect(result.status, result.text).toBe(200);
  return result.json.results[0];
}

function labelBarcodes(bytes: Uint8Array): string[] {
  const file = path.join(dir, `${randomUUID()}.png`);
  writeFileSync(file, bytes);
  try {
    return execFileSync('zbarimg', ['-q', '--raw', '-Sdisable', '-Scode128.enable', file], {
      stdio: ['ignore', 'pipe', 'ignore'],
    })
      .toString()
      .split('\n')
      .filter(Boolean);
  } catch {
    return [];
  }
}

async function label(account: TestAccount, identifier: string, env: Env = 'test') {
  const response = await fetch(`${baseUrl}${pathFor(env, `/packages/${identifier}/label?format=png`)}`, {
    headers: { authorization: `Token ${account.tokens[env]}` },
  });
  return { status: response.status, bytes: new Uint8Array(await response.arrayBuffer()) };
}

describe('every package gets a carrier barcode', () => {
  it('daily and container packages, with or without a TrackingNumber, each a distinct well-formed one; found by it, in any case', async () => {
    const account = await newAccount('Barcodes');
    const daily = await dailyPackage(account, tracking('CBD'));
    const containerId = `ULD-${randomUUID().slice(0, 8)}`;
    const numbered = tracking('CBC');
    const body = containerSample(containerId, [numbered]);
    const untracked = containerDetail('');
    delete (untracked as Record<string, unknown>).TrackingNumber;
    body.ContainerDetails.push(untracked);
    const created = await call('/wf/manifest', { token: account.tokens.test, body });
    expect(created.status, created.text).toBe(200);
    const listed = await call(`/manifests/${created.json.ManifestID}/packages`, { ...GET, token: account.tokens.test });
    expect(listed.status, listed.text).toBe(200);
    const [first, second] = listed.json.data as { TrackingNumber: string | null; carrier_barcode: string }[];
    expect(first?.TrackingNumber).toBe(numbered);
    expect(second?.TrackingNumber ?? null).toBeNull();
    const codes = [daily.carrier_barcode, first?.carrier_barcode, second?.carrier_barcode];
    for (const code of codes) expect(isCarrierBarcode(code ?? ''), code).toBe(true);
    expect(new Set(codes).size).toBe(3);
    const live = await dailyPackage(account, tracking('CBL'), 'live');
    expect(codes).not.toContain(live.carrier_barcode);

    // The untracked package is found, labelled and listed by its barcode; lowercase works too.
    const found = await call(`/packages/${second?.carrier_barcode.toLowerCase()}`, { ...GET, token: account.tokens.test });
    expect(found.status, found.text).toBe(200);
    expect(found.json).toMatchObject({ carrier_barcode: second?.carrier_barcode, ManifestID: created.json.ManifestID });
    const events = await call(`/packages/${second?.carrier_barcode}/events`, { ...GET, token: account.tokens.test });
    expect(events.status, events.text).toBe(200);
    const png = await label(account, second?.carrier_barcode ?? '');
    expect(png.status).toBe(200);
    expect(labelBarcodes(png.bytes)).toEqual([second?.carrier_barcode]);
    // Another account's barcode, or this one's from the other environment: 404, as for any id not yours.
    expectError(await call(`/packages/${second?.carrier_barcode}`, { ...GET, token: victim.tokens.test }), 404, 'not_found');
    expectError(
      await call(`/packages/${daily.carrier_barcode}`, { ...GET, env: 'live', token: account.tokens.live }),
      404,
      'not_found',
    );
  });

  it('the label sorts by the carrier barcode, prints the tracking number beside it, and a cancelled one has no barcode', async () => {
    const account = await newAccount('Labels');
    const number = tracking('CBLB');
    const pkg = await dailyPackage(account, number);
    const png = await label(account, number);
    expect(labelBarcodes(png.bytes)).toEqual([pkg.carrier_barcode]);
    expect((await call(`/packages/${number}/cancel`, { token: account.tokens.test })).status).toBe(200);
    const cancelled = await label(account, number);
    expect(cancelled.status).toBe(200);
    expect(labelBarcodes(cancelled.bytes)).toEqual([]);
  });

  it('GET /packages/{TrackingNumber} finds a package whatever the case it is asked in, as the list filter does', async () => {
    const account = await newAccount('Case');
    const number = `MiXeD${randomUUID().slice(0, 8)}`;
    const pkg = await dailyPackage(account, number);
    for (const asked of [number.toLowerCase(), number.toUpperCase()]) {
      const read = await call(`/packages/${asked}`, { ...GET, token: account.tokens.test });
      expect(read.status, read.text).toBe(200);
      expect(read.json).toMatchObject({ TrackingNumber: number, carrier_barcode: pkg.carrier_barcode });
      expect((await call(`/packages/${asked}/events`, { ...GET, token: account.tokens.test })).status).toBe(200);
    }
  });
});

describe("a shipper cannot make another shipper's package unscannable", () => {
  it('a squatted tracking number: a scan by it alone says which barcodes would resolve it; the barcode always scans', async () => {
    const number = tracking('SQT');
    const mine = await dailyPackage(victim, number);
    const theirs = await dailyPackage(squatter, number);
    // The squatter in live too, and a cancelled copy: neither is in the test environment's choice.
    await dailyPackage(squatter, number, 'live');

    const ambiguous = await scan({ tracking_number: number, event: 'received' });
    expect(ambiguous).toMatchObject({
      result: 'refused',
      error: { code: 'ambiguous', message: expect.stringContaining('carrier barcode') },
    });
    const named = (ambiguous.error.details as { path: string; message: string }[]).map((d) => d.message).join(' ');
    expect(named).toContain(mine.carrier_barcode);
    expect(named).toContain(theirs.carrier_barcode);

    // By barcode: applied to the victim's package alone.
    expect(await scan({ carrier_barcode: mine.carrier_barcode.toLowerCase(), event: 'received' })).toMatchObject({
      result: 'applied',
      status: 'received',
    });
    expect((await call(`/packages/${number}`, { ...GET, token: victim.tokens.test })).json.status).toBe('received');
    expect((await call(`/packages/${number}`, { ...GET, token: squatter.tokens.test })).json.status).toBe('manifested');

    // Now only the victim's package can take an in_transit scan: the tracking number alone resolves to it.
    expect(await scan({ tracking_number: number, event: 'in_transit' })).toMatchObject({
      result: 'applied',
      status: 'in_transit',
    });
    expect((await call(`/packages/${number}`, { ...GET, token: victim.tokens.test })).json.status).toBe('in_transit');
    expect((await call(`/packages/${number}`, { ...GET, token: squatter.tokens.test })).json.status).toBe('manifested');

    // Narrowed by the manifest it travels on, a tracking number scans too.
    expect(await scan({ tracking_number: number, manifest_id: mine.ManifestID, event: 'out_for_delivery' })).toMatchObject({
      result: 'applied',
    });
    expect(await scan({ tracking_number: number, manifest_id: 'MAN-NOSUCHMANIFEST', event: 'delivered' })).toMatchObject({
      result: 'refused',
      error: { code: 'not_found' },
    });
  });

  it("a squatter who registers after the victim's package was received changes nothing for its scans", async () => {
    const number = tracking('SQA');
    const mine = await dailyPackage(victim, number);
    expect(await scan({ tracking_number: number, event: 'received' })).toMatchObject({ result: 'applied' });
    await dailyPackage(squatter, number);
    expect(await scan({ tracking_number: number, event: 'in_transit' })).toMatchObject({ result: 'applied' });
    expect(await scan({ carrier_barcode: mine.carrier_barcode, event: 'out_for_delivery' })).toMatchObject({ result: 'applied' });
  });

  it('a container package by tracking number with its container_id, and by barcode', async () => {
    const account = await newAccount('Container scans');
    const number = tracking('SQC');
    const containerId = `ULD-${randomUUID().slice(0, 8)}`;
    const created = await call('/wf/manifest', { token: account.tokens.test, body: containerSample(containerId, [number]) });
    expect(created.status, created.text).toBe(200);
    await dailyPackage(squatter, number);
    expect(await scan({ tracking_number: number, container_id: containerId, event: 'received' })).toMatchObject({
      result: 'applied',
    });
    const read = await call(`/packages/${number}`, { ...GET, token: account.tokens.test });
    expect(await scan({ carrier_barcode: read.json.carrier_barcode, event: 'in_transit' })).toMatchObject({ result: 'applied' });
    expect((await call(`/packages/${number}`, { ...GET, token: squatter.tokens.test })).json.status).toBe('manifested');
  });

  it('refuses a barcode with a wrong check digit, an unknown one, and a barcode sent with a tracking number', async () => {
    const pkg = await dailyPackage(victim, tracking('SQB'));
    const code = pkg.carrier_barcode;
    const wrong = `${code.slice(0, -1)}${(Number(code.at(-1)) + 1) % 10}`;
    const refused = await scan({ carrier_barcode: wrong, event: 'received' });
    expect(refused).toMatchObject({ result: 'refused', error: { code: 'validation_failed' } });
    expect(refused.error.details[0].path).toContain('carrier_barcode');
    expect(await scan({ carrier_barcode: 'CB0000000000000', event: 'received' })).toMatchObject({
      result: 'refused',
      error: { code: 'not_found' },
    });
    expect(await scan({ carrier_barcode: code, tracking_number: 'X1', event: 'received' })).toMatchObject({
      result: 'refused',
      error: { code: 'validation_failed' },
    });
    // The live path does not see a test package by its barcode.
    expect(await scan({ carrier_barcode: code, event: 'received' }, 'live')).toMatchObject({
      result: 'refused',
      error: { code: 'not_found' },
    });
  });
});
