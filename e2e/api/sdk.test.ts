import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { CarrierApiError, createCarrierClient, verifyWebhook, type CarrierClient } from '@/sdk/index';

// The published samples are built by functions whose strings are widened; a caller's inline literal needs no cast.
type ContainerBody = Parameters<CarrierClient['createContainerManifest']>[0];
type PackageBody = Parameters<CarrierClient['createPackageManifest']>[0];
import { baseUrl, newAccount, tracking, type TestAccount } from './support/api';
import { containerSample, packageSample } from './support/samples';

// The SDK (sdk/) against the suite's server: the three operations and the reads through its typed client,
// a refusal as a typed CarrierApiError, retries that honour Retry-After, and webhook verification.

let acme: TestAccount;
let carrier: CarrierClient;
beforeAll(async () => {
  acme = await newAccount('SDK');
  carrier = createCarrierClient({ token: acme.tokens.test, baseUrl });
});

describe('the SDK', () => {
  it('quotes, manifests a container and a package, and reads them back', async () => {
    // As a caller writes it: the published spelling `lenght`, numeric text, "" for no value.
    const { rates } = await carrier.quoteRates({
      weight: '2.5',
      weight_unit: 'lb',
      from_zip: '10001',
      to_zip: '60601',
      service: 'Carrier Express',
      lenght: '12',
      width: '10',
      height: '4',
      origin: '',
      destination: '',
    });
    expect(rates.map((r) => r.service)).toEqual(['Carrier Express']);
    expect(rates[0]?.amount).toMatch(/^\d+\.\d{2}$/);

    const tn = tracking('SDK');
    const container = await carrier.createContainerManifest(containerSample(`ULD-${tn}`, [tn]) as ContainerBody);
    // The sample container is AirSkip without airports: accepted unpriced, its total zero.
    expect(container).toEqual({
      IsSuccess: 'true',
      ManifestID: expect.stringMatching(/^MAN-/),
      PackageCount: 1,
      ChargeTotal: '0.00',
      Currency: 'USD',
      PricedCount: 0,
      UnpricedCount: 1,
    });
    expect((await carrier.getManifest(container.ManifestID)).PackageCount).toBe(1);

    const single = tracking('SDP');
    const created = await carrier.createPackageManifest(packageSample(single) as PackageBody);
    expect(created).toEqual({
      IsSuccess: true,
      ManifestID: expect.stringMatching(/^MAN-/),
      TrackingNumber: single,
      charge: expect.objectContaining({ status: 'unpriced', reason: expect.stringMatching(/airports/) }),
    });
    const read = await carrier.getPackage(single);
    expect(read).toMatchObject({ TrackingNumber: single, status: 'manifested' });
    const events = await carrier.listEvents({ type: 'package.sorting', limit: 5 });
    expect(events.data[0]?.data).toMatchObject({ tracking_numbers: [single] });
    expect(await carrier.getEvent(events.data[0].id)).toEqual(events.data[0]);
  });

  it('answers a refusal with a CarrierApiError carrying the envelope', async () => {
    const error = await carrier
      .createPackageManifest({ package: { ...packageSample(tracking('BAD')).package, PackageWeight: 'heavy' } } as PackageBody)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CarrierApiError);
    expect(error).toMatchObject({ status: 422, code: 'validation_failed', requestId: expect.any(String) });
    expect((error as CarrierApiError).details).toContainEqual(expect.objectContaining({ path: 'package.PackageWeight' }));
    await expect(carrier.getPackage('NOSUCHPACKAGE1')).rejects.toMatchObject({ status: 404, code: 'not_found' });
    const wrong = createCarrierClient({ token: acme.tokens.test, baseUrl, environment: 'live' });
    await expect(wrong.getPackage('X1')).rejects.toMatchObject({ status: 401, code: 'wrong_environment' });
  });

  describe('retries', () => {
    let server: ReturnType<typeof createServer>;
    let hits: number[] = [];
    let origin = '';
    beforeAll(async () => {
      // Answers 503 (Retry-After: 1), then 429 (no Retry-After), then the rate response.
      server = createServer((req, res) => {
        hits.push(Date.now());
        if (hits.length === 1)
          return void res
            .writeHead(503, { 'retry-after': '1', 'content-type': 'application/json' })
            .end('{"error":{"code":"service_unavailable","message":"down"}}');
        if (hits.length === 2)
          return void res
            .writeHead(429, { 'content-type': 'application/json' })
            .end('{"error":{"code":"rate_limited","message":"slow"}}');
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"rates":[]}');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise((resolve) => server.close(resolve)));

    it('tries again on 503 after Retry-After and on 429 with backoff, then answers', async () => {
      hits = [];
      const client = createCarrierClient({ token: 'ck_test_x', baseUrl: origin });
      expect(await client.quoteRates({ weight: 1, weight_unit: 'kg', length: 1, width: 1, height: 1 })).toEqual({ rates: [] });
      expect(hits.length).toBe(3);
      expect(hits[1] - hits[0]).toBeGreaterThanOrEqual(950);
    });

    it('gives up after maxRetries with the last refusal, and names a network failure', async () => {
      hits = [];
      const client = createCarrierClient({ token: 'ck_test_x', baseUrl: origin, maxRetries: 1, maxDelayMs: 10 });
      await expect(client.quoteRates({ weight: 1, weight_unit: 'kg', length: 1, width: 1, height: 1 })).rejects.toMatchObject({
        status: 429,
        code: 'rate_limited',
      });
      expect(hits.length).toBe(2);
      const nowhere = createCarrierClient({ token: 'ck_test_x', baseUrl: 'http://127.0.0.1:1', maxRetries: 1, maxDelayMs: 10 });
      await expect(nowhere.quoteRates({ weight: 1, weight_unit: 'kg', length: 1, width: 1, height: 1 })).rejects.toMatchObject({
        status: 0,
        code: 'network_error',
      });
    });
  });

  it('verifies a webhook with the endpoint secret and refuses a tampered one', () => {
    const secret = `whsec_${Buffer.from('sdk-secret-0123456789abcdefghij').toString('base64')}`;
    const body = JSON.stringify({ manifest_id: 'MAN-1', package_count: 1, tracking_numbers: ['1Z'] });
    const now = new Date();
    const headers = {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign('msg_1', now, body),
    };
    expect(verifyWebhook(secret, body, headers)).toEqual(JSON.parse(body));
    expect(verifyWebhook(secret, body, new Headers(headers))).toEqual(JSON.parse(body));
    expect(() => verifyWebhook(secret, body.replace('MAN-1', 'MAN-2'), headers)).toThrow();
  });

  it('a POST retried after a lost answer makes one endpoint: every POST carries the same Idempotency-Key on each attempt', async () => {
    const shipper = await newAccount('SDK retries');
    let calls = 0;
    const keys: (string | null)[] = [];
    // The first attempt reaches the server, and its answer is lost on the way back.
    const losing: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      keys.push(request.headers.get('idempotency-key'));
      const response = await fetch(request);
      calls += 1;
      if (calls === 1) throw new TypeError('fetch failed: the connection was reset');
      return response;
    };
    const client = createCarrierClient({ token: shipper.tokens.test, baseUrl, fetch: losing, maxDelayMs: 10 });
    const { data, response } = await client.raw.POST('/webhooks', {
      body: { url: 'https://93.184.215.14/hooks/sdk', events: ['package.sorting'] },
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('idempotent-replayed')).toBe('true');
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    const listed = await client.raw.GET('/webhooks');
    expect(listed.data?.data.map((e) => e.id)).toEqual([data?.id]);
  });
});
