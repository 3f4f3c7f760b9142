import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '@/lib/api/openapi/document';
import type * as Sdk from '@/sdk/index';
import { baseUrl, newAccount, tracking, type TestAccount } from './support/api';

// The SDK as a shipper gets it: `npm pack` of sdk/, the tarball installed with npm into an empty project (no registry:
// its one dependency is packed from this repository's node_modules), a strict tsc of an integration against the
// installed types, that integration run against the suite's server, and every operation of the OpenAPI document
// reached through its helper.

const root = fileURLToPath(new URL('../../', import.meta.url));
const DEPENDENCIES = ['openapi-fetch', 'openapi-typescript-helpers'];

function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { cwd, env: { ...process.env, ...env }, maxBuffer: 32 * 1024 * 1024, timeout: 240_000 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${command} ${args.join(' ')} (in ${cwd}) failed:\n${stdout}\n${stderr}`, { cause: error }));
        else resolve(stdout);
      },
    );
  });
}

let work = '';
let app = '';
let tarball = '';
let installed = '';
let sdk: typeof Sdk;
let acme: TestAccount;

beforeAll(async () => {
  acme = await newAccount('SDK package');
  work = mkdtempSync(join(tmpdir(), 'carrier-sdk-'));
  // Packed from a copy, so the build's dist/ never lands in the working tree; its tsc and types come from ours.
  const source = join(work, 'source');
  cpSync(join(root, 'sdk'), source, { recursive: true, filter: (path) => !/[/\\](dist|node_modules)$/.test(path) });
  symlinkSync(join(root, 'node_modules'), join(source, 'node_modules'), 'dir');
  const [packed] = JSON.parse(await run('npm', ['pack', '--json', '--pack-destination', work], source)) as { filename: string }[];
  tarball = join(work, packed.filename);
  const dependencies: string[] = [];
  for (const name of DEPENDENCIES) {
    const [dep] = JSON.parse(
      await run(
        'npm',
        ['pack', '--json', '--ignore-scripts', '--pack-destination', work, join(root, 'node_modules', name)],
        work,
      ),
    ) as { filename: string }[];
    dependencies.push(join(work, dep.filename));
  }

  app = join(work, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'shipper-integration', private: true, type: 'module' }));
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball, ...dependencies], app);
  installed = join(app, 'node_modules', '@carrier', 'sdk');
  sdk = (await import(/* @vite-ignore */ pathToFileURL(join(installed, 'dist', 'index.js')).href)) as typeof Sdk;
}, 600_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the SDK package', () => {
  it('packs built ESM and declarations with a README and a changelog, and installs with openapi-fetch alone', async () => {
    const files = (await run('tar', ['-tzf', tarball], work)).trim().split('\n').sort();
    expect(files).toEqual(
      expect.arrayContaining([
        'package/package.json',
        'package/README.md',
        'package/CHANGELOG.md',
        'package/dist/index.js',
        'package/dist/index.d.ts',
        'package/dist/webhooks.js',
        'package/dist/webhooks.d.ts',
        'package/dist/generated/schema.d.ts',
      ]),
    );
    expect(files.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))).toEqual([]);

    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
    const ours = JSON.parse(readFileSync(join(root, 'sdk', 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({ name: '@carrier/sdk', version: ours.version, type: 'module' });
    expect(manifest.exports['.']).toEqual({ types: './dist/index.d.ts', default: './dist/index.js' });
    expect(Object.keys(manifest.dependencies)).toEqual(['openapi-fetch']);
    expect(manifest.devDependencies).toBeUndefined();

    type Tree = { dependencies?: Record<string, Tree> };
    const names = (tree: Tree): string[] =>
      Object.entries(tree.dependencies ?? {}).flatMap(([name, node]) => [name, ...names(node)]);
    const tree = JSON.parse(await run('npm', ['ls', '--all', '--json'], app)) as Tree;
    expect([...new Set(names(tree))].sort()).toEqual(['@carrier/sdk', 'openapi-fetch', 'openapi-typescript-helpers']);
  });

  it('type-checks a strict integration against the installed types, and runs it against the server', async () => {
    const secret = `whsec_${Buffer.from('package-test-secret-0123456789abcdef').toString('base64')}`;
    const body = JSON.stringify({ manifest_id: 'MAN-1', package_count: 1, tracking_numbers: ['1Z'] });
    const now = new Date();
    const signed = {
      'webhook-id': 'msg_package_test',
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign('msg_package_test', now, body),
    };
    writeFileSync(join(app, 'integration.ts'), INTEGRATION);
    writeFileSync(join(app, 'types-refused.ts'), TYPES_REFUSED);
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noUncheckedIndexedAccess: true,
          exactOptionalPropertyTypes: true,
          outDir: 'out',
          typeRoots: [join(root, 'node_modules', '@types')],
          types: ['node'],
        },
        files: ['integration.ts', 'types-refused.ts'],
      }),
    );
    await run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', app], app);

    const output = await run(process.execPath, [join(app, 'out', 'integration.js')], app, {
      CARRIER_API_TOKEN: acme.tokens.test,
      CARRIER_BASE_URL: baseUrl,
      TRACKING: tracking('PKT'),
      WEBHOOK_SECRET: secret,
      WEBHOOK_BODY: body,
      WEBHOOK_HEADERS: JSON.stringify(signed),
    });
    const result = JSON.parse(output.trim().split('\n').at(-1)!);
    expect(result).toEqual({
      rates: expect.any(Number),
      container: { IsSuccess: 'true', PackageCount: 2 },
      manifestPackages: 2,
      packagesOnePerPage: [result.tracking[0], result.tracking[1], result.tracking[2]].sort(),
      tracking: expect.any(Array),
      label: { contentType: 'application/pdf', magic: '%PDF', filename: expect.stringContaining('.pdf') },
      zpl: { contentType: expect.stringMatching(/zpl/), startsWith: '^XA' },
      handover: '%PDF',
      cancelled: 'cancelled',
      notFound: { isCarrierApiError: true, status: 404, code: 'not_found', requestId: true },
      refused: { status: 422, code: 'validation_failed', paths: ['package.ManifestDate'] },
      network: { isConnectionError: true, isCarrierApiError: true, status: 0, code: 'network_error' },
      webhook: { created: true, secret: true, listed: 1, description: 'Renamed', rotated: true, deleted: 0 },
      events: { type: 'package.sorting', found: true },
      verified: { id: 'msg_package_test', type: 'package.sorting', manifest_id: 'MAN-1', forgedRefused: true },
    });
  }, 300_000);

  it('reaches every operation of the OpenAPI document through a helper, on its method and path', async () => {
    // The document the SDK's types are generated from (the server's own, at /api/1.1/openapi.json, is the same).
    const document = openApiDocument() as unknown as { paths: Record<string, Record<string, { operationId: string }>> };
    const seen: { method: string; url: URL; headers: Headers }[] = [];
    const canned: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      seen.push({ method: request.method, url, headers: request.headers });
      if (request.method === 'DELETE') return new Response(null, { status: 204 });
      if (/\/(document|tags|labels|label|customs-declarations?)$/.test(url.pathname))
        return new Response('%PDF-1.7', { headers: { 'content-type': 'application/pdf' } });
      return Response.json({ object: 'list', '@context': {}, '@graph': [], data: [], has_more: false, next_cursor: null });
    };
    const carrier = sdk.createCarrierClient({ token: 'ck_test_x', baseUrl: 'http://sdk.invalid', fetch: canned });
    const helpers = carrier as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;

    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
        .map(([method, operation]) => ({ path, method: method.toUpperCase(), id: operation.operationId })),
    );
    expect(operations.length).toBeGreaterThan(30);
    const missing = operations.filter((operation) => typeof helpers[operation.id] !== 'function').map((o) => o.id);
    expect(missing, 'operations without an SDK helper').toEqual([]);

    for (const operation of operations) {
      const names = [...operation.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      const values = names.map((name, i) => `${name}-${i}`);
      seen.length = 0;
      await helpers[operation.id](...values, {});
      const expected = `/version-test/api/1.1${operation.path.replace(/\{(\w+)\}/g, (_, name: string) => `${name}-${names.indexOf(name)}`)}`;
      expect(
        seen.map((s) => `${s.method} ${s.url.pathname}`),
        operation.id,
      ).toEqual([`${operation.method} ${expected}`]);
      const headers = seen[0].headers;
      expect(headers.get('authorization'), operation.id).toBe('Token ck_test_x');
      expect(headers.get('user-agent'), operation.id).toBe(
        `carrier-sdk-node/${JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')).version}`,
      );
      if (operation.method === 'POST') expect(headers.get('idempotency-key'), operation.id).toMatch(/^[0-9a-f-]{36}$/);
      else expect(headers.get('idempotency-key'), operation.id).toBeNull();
    }
  });

  it('iterates every page, retries 503 and a busy key under the same Idempotency-Key, and not a conflict', async () => {
    const pages: string[] = [];
    const keys: (string | null)[] = [];
    let conflicts = 0;
    const answers: { status: number; headers: Record<string, string>; body: unknown }[] = [
      { status: 503, headers: { 'retry-after': '0' }, body: { error: { code: 'service_unavailable', message: 'busy' } } },
      { status: 409, headers: { 'retry-after': '0' }, body: { error: { code: 'conflict', message: 'key still running' } } },
      { status: 200, headers: {}, body: { rates: [] } },
    ];
    const fake: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      if (url.pathname.endsWith('/wf/manifest')) {
        conflicts += 1;
        return Response.json({ error: { code: 'conflict', message: 'ULD-1 is stored with another body' } }, { status: 409 });
      }
      if (request.method === 'POST') {
        keys.push(request.headers.get('idempotency-key'));
        const answer = answers[keys.length - 1];
        return Response.json(answer.body, { status: answer.status, headers: answer.headers });
      }
      pages.push(url.pathname + url.search);
      const n = Number(url.searchParams.get('cursor') ?? 0);
      return Response.json({
        object: 'list',
        data: [{ n: n * 2 }, { n: n * 2 + 1 }],
        has_more: n < 2,
        next_cursor: n < 2 ? String(n + 1) : null,
      });
    };
    const carrier = sdk.createCarrierClient({ token: 'ck_live_x', baseUrl: 'http://sdk.invalid', fetch: fake, maxDelayMs: 10 });
    const seen: unknown[] = [];
    for await (const item of carrier.listPackages({ status: 'received', limit: 2 })) seen.push(item);
    expect(seen).toEqual([0, 1, 2, 3, 4, 5].map((n) => ({ n })));
    expect(pages).toEqual([
      '/api/1.1/packages?status=received&limit=2',
      '/api/1.1/packages?status=received&limit=2&cursor=1',
      '/api/1.1/packages?status=received&limit=2&cursor=2',
    ]);
    expect((await carrier.listPackages()).data).toHaveLength(2);

    const quote = { weight: 1, weight_unit: 'kg', length: 1, width: 1, height: 1 } as const;
    expect(await carrier.quoteRates(quote, { idempotencyKey: 'mine-1' })).toEqual({ rates: [] });
    expect(keys).toEqual(['mine-1', 'mine-1', 'mine-1']);

    const conflict = await carrier.createContainerManifest({} as never).catch((error: unknown) => error);
    expect(conflict).toBeInstanceOf(sdk.CarrierApiError);
    expect(conflict).toMatchObject({ status: 409, code: 'conflict', retryAfter: null });
    expect(conflicts).toBe(1);
  });
});

// Written as a shipper would, against the installed package only: inline literals, no casts.
const INTEGRATION = String.raw`
import {
  CarrierApiError,
  CarrierConnectionError,
  createCarrierClient,
  verifyWebhook,
  verifyWebhookEvent,
  type Schemas,
} from '@carrier/sdk';
import { WebhookVerificationError } from '@carrier/sdk/webhooks';

const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new Error(name + ' is not set');
  return value;
};
const carrier = createCarrierClient({ token: env('CARRIER_API_TOKEN'), baseUrl: env('CARRIER_BASE_URL') });
const base = env('TRACKING');
const tracking = [base + 'A', base + 'B', base + 'C'];

const { rates } = await carrier.quoteRates({
  weight: 5, weight_unit: 'lb', from_zip: '10001', to_zip: '90210', length: 10, width: 8, height: 6,
});

const detail = (trackingNumber: string): Schemas['ContainerDetail'] => ({
  TrackingNumber: trackingNumber, PackageWeight: 2.5, PackageWeightUnit: 'lb', ToPostalCode: '90210',
});
const container = await carrier.createContainerManifest({
  ManifestDate: '2026-11-23T08:00:00Z', ServiceName: 'AirSkip', FromCompany: 'Acme Parcels',
  ContainerID: 'ULD-' + base, ContainerLength: 48, ContainerWidth: 40, ContainerHeight: 36,
  ShipmentDescription: 'Apparel', AWB: '000-12345675', 'Container Weight': 120.5,
  ContainerDetails: [detail(base + 'X'), detail(base + 'Y')],
});
const manifestPackages = (await carrier.listManifestPackages(container.ManifestID)).data.length;
const handover = await carrier.getManifestDocument(container.ManifestID, { paper: 'a4' });

const parcel = (trackingNumber: string, manifestDate = '2026-11-23'): Schemas['PackageManifestRequest'] => ({
  package: {
    TrackingNumber: trackingNumber, FinalMileCarrier: 'Carrier', ManifestDate: manifestDate, ServiceName: 'AirSkip',
    FromCompany: 'Maple Goods', FromAddress1: '100 King St W', FromCity: 'Toronto', FromState: 'ON',
    FromPostalCode: 'M5X 1A9', FromCountry: 'CA', ToPostalCode: '90210', ShipmentDescription: 'Books',
    PackageSizeLength: 10, PackageSizeWidth: 8, PackageSizeHeight: 4, PackageWeight: 1.2, WeightUnit: 'kg',
  },
});
for (const trackingNumber of tracking) await carrier.createPackageManifest(parcel(trackingNumber));
const packagesOnePerPage: string[] = [];
for await (const pkg of carrier.listPackages({ tracking_number: base, limit: 1 })) {
  if (pkg.TrackingNumber !== null && tracking.includes(pkg.TrackingNumber)) packagesOnePerPage.push(pkg.TrackingNumber);
}

const first = tracking[0] ?? '';
const label = await carrier.getPackageLabel(first);
const reader = label.stream().getReader();
const chunk = await reader.read();
await reader.cancel();
const zpl = await carrier.getPackageLabel(first, { format: 'zpl' });
const zplText = await zpl.text();
const cancelled = await carrier.cancelPackage(tracking[2] ?? '');

const notFound = await carrier.getPackage('NOSUCHPACKAGE' + base).catch((error: unknown) => error);
const refused = await carrier.createPackageManifest(parcel(base + 'Z', '1999-12-31')).catch((error: unknown) => error);
const unreachable = createCarrierClient({ token: 'ck_test_x', baseUrl: 'http://127.0.0.1:1', maxRetries: 0 });
const network = await unreachable.getManifest('MAN-X').catch((error: unknown) => error);

const endpoint = await carrier.createWebhook({ url: 'https://93.184.215.14/hooks/' + base, events: ['package.sorting'] });
const listed = await carrier.listWebhooks();
const updated = await carrier.updateWebhook(endpoint.id, { description: 'Renamed' });
const rotated = await carrier.rotateWebhookSecret(endpoint.id, { grace_period_seconds: 0 });
await carrier.deleteWebhook(endpoint.id);
const afterDelete = await carrier.listWebhooks();

const events = await carrier.listEvents({ type: 'package.sorting', limit: 10 });
const event = events.data.find((e) => JSON.stringify(e.data).includes(first));

const headers: Record<string, string> = JSON.parse(env('WEBHOOK_HEADERS'));
const verified = verifyWebhookEvent(env('WEBHOOK_SECRET'), env('WEBHOOK_BODY'), headers);
let forgedRefused = false;
try {
  verifyWebhook(env('WEBHOOK_SECRET'), env('WEBHOOK_BODY').replace('MAN-1', 'MAN-2'), headers);
} catch (error) {
  forgedRefused = error instanceof WebhookVerificationError;
}
const manifestId = verified.type === 'package.sorting' ? verified.data.manifest_id : null;

console.log(JSON.stringify({
  rates: rates.length,
  container: { IsSuccess: container.IsSuccess, PackageCount: container.PackageCount },
  manifestPackages,
  packagesOnePerPage: packagesOnePerPage.sort(),
  tracking,
  label: {
    contentType: label.contentType,
    magic: new TextDecoder().decode(chunk.value?.slice(0, 4)),
    filename: label.filename,
  },
  zpl: { contentType: zpl.contentType, startsWith: zplText.slice(0, 3) },
  handover: new TextDecoder().decode((await handover.bytes()).slice(0, 4)),
  cancelled: cancelled.status,
  notFound: {
    isCarrierApiError: notFound instanceof CarrierApiError,
    status: notFound instanceof CarrierApiError ? notFound.status : null,
    code: notFound instanceof CarrierApiError ? notFound.code : null,
    requestId: notFound instanceof CarrierApiError && typeof notFound.requestId === 'string',
  },
  refused: refused instanceof CarrierApiError
    ? { status: refused.status, code: refused.code, paths: refused.details.map((d) => d.path) }
    : String(refused),
  network: {
    isConnectionError: network instanceof CarrierConnectionError,
    isCarrierApiError: network instanceof CarrierApiError,
    status: network instanceof CarrierApiError ? network.status : null,
    code: network instanceof CarrierApiError ? network.code : null,
  },
  webhook: {
    created: endpoint.id.length > 0,
    secret: endpoint.secret.startsWith('whsec_'),
    listed: listed.data.length,
    description: updated.description,
    rotated: rotated.secret !== endpoint.secret,
    deleted: afterDelete.data.length,
  },
  events: { type: event?.type, found: event !== undefined },
  verified: { id: verified.id, type: verified.type, manifest_id: manifestId, forgedRefused },
}));
`;

// Each line must be refused by tsc: were the helpers typed loosely, the unused @ts-expect-error would fail the build.
const TYPES_REFUSED = String.raw`
import { createCarrierClient, type CarrierClient } from '@carrier/sdk';

export async function refused(carrier: CarrierClient): Promise<void> {
  // @ts-expect-error weight_unit is lb, oz, kg or g
  await carrier.quoteRates({ weight: 1, weight_unit: 'stone', length: 1, width: 1, height: 1 });
  // @ts-expect-error listPackages takes a query of the document's parameters
  await carrier.listPackages({ colour: 'red' });
  // @ts-expect-error a package's TrackingNumber is text (or null)
  const count: number = (await carrier.getPackage('X')).TrackingNumber;
  // @ts-expect-error a document is read as bytes, a stream or text, not as JSON
  (await carrier.getPackageLabel('X')).data;
  // @ts-expect-error there is no such operation
  await carrier.shipEverything();
  // @ts-expect-error the token is required
  createCarrierClient({ baseUrl: 'http://localhost:3000' });
  return void count;
}
`;
