import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { newId } from '@/lib/ids';
import { call, expectError, newAccount, tracking, type TestAccount } from './support/api';
import { packageSample } from './support/samples';

let acme: TestAccount;
beforeAll(async () => {
  acme = await newAccount('Acme');
});

async function subscribe(account: TestAccount, environment: 'test' | 'live' = 'test') {
  return db.webhookEndpoint.create({
    data: {
      id: newId('we'),
      accountId: account.accountId,
      environment,
      url: 'http://127.0.0.1:9/hook',
      events: ['package.sorting'],
      secret: 'whsec_dGVzdHNlY3JldHRlc3RzZWNyZXQ=',
    },
  });
}

describe('POST /wf/package', () => {
  it('accepts the published sample (Canadian sender postal code) and answers IsSuccess true', async () => {
    const tn = tracking();
    const result = await call('/wf/package', { token: acme.tokens.test, body: packageSample(tn) });
    expect(result.status).toBe(200);
    expect(result.json.IsSuccess).toBe(true);
    expect(result.json.ManifestID).toMatch(/^MAN-/);
    const stored = await db.package.findFirstOrThrow({ where: { accountId: acme.accountId, trackingNumber: tn } });
    expect(stored.environment).toBe('test');
    expect((stored.data as Record<string, unknown>).FromPostalCode).toBe('M5X 1A9');
    expect((stored.data as Record<string, unknown>).PackageSizeWidth).toBe('8');
  });

  it('joins packages of one ManifestDate to one daily manifest, another date to another', async () => {
    const shipper = await newAccount('Daily');
    const a = await call('/wf/package', { token: shipper.tokens.test, body: packageSample(tracking(), '2026-12-01T08:00:00Z') });
    const b = await call('/wf/package', {
      token: shipper.tokens.test,
      body: packageSample(tracking(), '2026-12-01T17:30:00-05:00'),
    });
    const c = await call('/wf/package', { token: shipper.tokens.test, body: packageSample(tracking(), '2026-12-02') });
    expect(a.json.ManifestID).toBe(b.json.ManifestID);
    expect(c.json.ManifestID).not.toBe(a.json.ManifestID);
    const manifests = await db.dailyManifest.findMany({
      where: { accountId: shipper.accountId },
      include: { _count: { select: { packages: true } } },
    });
    expect(manifests.map((m) => [m.manifestDate.toISOString().slice(0, 10), m._count.packages]).sort()).toEqual([
      ['2026-12-01', 2],
      ['2026-12-02', 1],
    ]);
  });

  it('writes the notification in the same transaction when a package-sorting webhook exists', async () => {
    const shipper = await newAccount('Hooked');
    const endpoint = await subscribe(shipper);
    const tn = tracking();
    const result = await call('/wf/package', { token: shipper.tokens.test, body: packageSample(tn) });
    const messages = await db.webhookMessage.findMany({ where: { endpointId: endpoint.id }, include: { event: true } });
    expect(messages).toHaveLength(1);
    expect(messages[0].status).toBe('pending');
    expect(messages[0].event.eventType).toBe('package.sorting');
    expect(messages[0].event.payload).toEqual({ manifest_id: result.json.ManifestID, package_count: 1, tracking_numbers: [tn] });
  });

  it('writes one delivery per enabled, subscribed endpoint of its environment, each with an id of its own', async () => {
    const shipper = await newAccount('Fanout');
    const [one, two, off, live] = [
      await subscribe(shipper),
      await subscribe(shipper),
      await subscribe(shipper),
      await subscribe(shipper, 'live'),
    ];
    await db.webhookEndpoint.update({ where: { id: off.id }, data: { enabled: false } });
    await call('/wf/package', { token: shipper.tokens.test, body: packageSample(tracking()) });
    const messages = await db.webhookMessage.findMany({ where: { endpoint: { accountId: shipper.accountId } } });
    expect(messages.map((m) => m.endpointId).sort()).toEqual([one.id, two.id].sort());
    expect(new Set(messages.map((m) => m.eventId)).size).toBe(1);
    expect(new Set(messages.map((m) => m.id)).size).toBe(2);
    for (const message of messages) expect(message.id).toMatch(/^msg_[0-9a-z]+$/);
    expect(messages.some((m) => m.endpointId === live.id || m.endpointId === off.id)).toBe(false);
  });

  it('stores packages sent at once each with its own event, deliveries and ledger line; another spelling adds nothing', async () => {
    // Sent together, most of them reach the database in shared statements (lib/packages/insert-together.ts).
    const shipper = await newAccount('AtOnce');
    const [one, two] = [await subscribe(shipper), await subscribe(shipper)];
    const numbers = Array.from({ length: 120 }, () => tracking('AT'));
    const services = ['AirSkip', 'Carrier Ground'];
    const body = (n: string, i: number) => {
      const sample = packageSample(n, '2026-12-04T08:00:00Z');
      sample.package.ServiceName = services[i % 2]!;
      sample.package.PackageWeight = 1 + (i % 7);
      sample.package.WeightUnit = 'lb';
      return sample;
    };
    // Each of the first ten also sent again at the same moment, spelled in lower case: the same package.
    const answers = await Promise.all([
      ...numbers.map((n, i) => call('/wf/package', { token: shipper.tokens.test, body: body(n, i) })),
      ...numbers.slice(0, 10).map((n, i) => call('/wf/package', { token: shipper.tokens.test, body: body(n.toLowerCase(), i) })),
    ]);
    expect(answers.map((a) => a.status)).toEqual(Array(130).fill(200));
    const manifestId = answers[0].json.ManifestID as string;
    expect(new Set(answers.map((a) => a.json.ManifestID))).toEqual(new Set([manifestId]));

    const stored = await db.package.findMany({
      where: { accountId: shipper.accountId },
      select: { trackingNumber: true, id: true },
    });
    expect(stored.map((p) => p.trackingNumber.toUpperCase()).sort()).toEqual([...numbers].sort());
    const events = await db.webhookEvent.findMany({ where: { accountId: shipper.accountId }, include: { messages: true } });
    expect(events).toHaveLength(120);
    const byNumber = new Map(
      events.map((e) => [(e.payload as { tracking_numbers: string[] }).tracking_numbers[0].toUpperCase(), e]),
    );
    for (const n of numbers) {
      const event = byNumber.get(n);
      expect(event?.payload, n).toMatchObject({ manifest_id: manifestId, package_count: 1 });
      expect(event?.messages.map((m) => m.endpointId).sort(), n).toEqual([one.id, two.id].sort());
    }
    const priced = answers.slice(0, 120).filter((a) => a.json.charge?.status === 'priced').length;
    const ledger = await db.billingEntry.findMany({ where: { accountId: shipper.accountId, kind: 'charge' } });
    expect(ledger).toHaveLength(priced);
    expect(new Set(ledger.map((l) => l.packageId))).toEqual(
      new Set(stored.filter((p) => ledger.some((l) => l.packageId === p.id)).map((p) => p.id)),
    );
    const manifest = await call(`/manifests/${manifestId}`, { method: 'GET', token: shipper.tokens.test });
    expect(manifest.json.totals.package_count).toBe(120);
    expect(manifest.json.totals.total_weight_lb).toBe(numbers.reduce((sum, _, i) => sum + 1 + (i % 7), 0).toFixed(2));
    const day = await db.dailyManifest.findUniqueOrThrow({ where: { id: manifestId } });
    expect([...(day.services ?? [])].sort()).toEqual([...services].sort());
  });

  it("recovers when a day's manifest it remembered has gone", async () => {
    const shipper = await newAccount('GoneManifest');
    const first = await call('/wf/package', { token: shipper.tokens.test, body: packageSample(tracking(), '2026-12-03') });
    expect(first.status).toBe(200);
    await db.dailyManifest.delete({ where: { id: first.json.ManifestID } });
    const second = await call('/wf/package', { token: shipper.tokens.test, body: packageSample(tracking(), '2026-12-03') });
    expect(second.status).toBe(200);
    expect(second.json.ManifestID).not.toBe(first.json.ManifestID);
    expect(await db.dailyManifest.findUnique({ where: { id: second.json.ManifestID } })).not.toBeNull();
  });

  it('writes no delivery when the account has no webhook', async () => {
    const shipper = await newAccount('Unhooked');
    await call('/wf/package', { token: shipper.tokens.test, body: packageSample(tracking()) });
    expect(await db.webhookMessage.count({ where: { endpoint: { accountId: shipper.accountId } } })).toBe(0);
  });

  it('treats an identical resend as a safe retry: 200, nothing duplicated, no second notification', async () => {
    const shipper = await newAccount('Retry');
    const endpoint = await subscribe(shipper);
    const body = packageSample(tracking());
    const results = await Promise.all(Array.from({ length: 6 }, () => call('/wf/package', { token: shipper.tokens.test, body })));
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(200));
    expect(new Set(results.map((r) => r.json.ManifestID)).size).toBe(1);
    expect(await db.package.count({ where: { accountId: shipper.accountId } })).toBe(1);
    expect(await db.webhookMessage.count({ where: { endpointId: endpoint.id } })).toBe(1);
  });

  it('answers 409 when the same TrackingNumber comes with a different body, and changes nothing', async () => {
    const shipper = await newAccount('Conflict');
    const tn = tracking();
    const first = await call('/wf/package', { token: shipper.tokens.test, body: packageSample(tn, '2026-12-01') });
    const changed = await call('/wf/package', { token: shipper.tokens.test, body: packageSample(tn, '2026-12-05') });
    const error = expectError(changed, 409, 'conflict');
    expect(changed.json.IsSuccess).toBe(false);
    expect(error.details).toEqual([{ path: 'package.TrackingNumber', message: 'already accepted with different data' }]);
    expect(changed.json.error.ManifestID).toBe(first.json.ManifestID);
    // The refused request's date got no manifest of its own.
    expect(await db.dailyManifest.count({ where: { accountId: shipper.accountId } })).toBe(1);
  });

  it('answers 409 for a changed resend on a day that already has its manifest, and changes nothing', async () => {
    const shipper = await newAccount('ConflictSameDay');
    const endpoint = await subscribe(shipper);
    const tn = tracking();
    const first = await call('/wf/package', { token: shipper.tokens.test, body: packageSample(tn, '2026-12-01') });
    const changed = packageSample(tn, '2026-12-01');
    changed.package.ToName = 'Someone Else';
    const result = await call('/wf/package', { token: shipper.tokens.test, body: changed });
    expectError(result, 409, 'conflict');
    expect(result.json.error.ManifestID).toBe(first.json.ManifestID);
    const stored = await db.package.findFirstOrThrow({ where: { accountId: shipper.accountId, trackingNumber: tn } });
    expect((stored.data as { ToName: string }).ToName).not.toBe('Someone Else');
    expect(await db.webhookMessage.count({ where: { endpointId: endpoint.id } })).toBe(1);
    expect(await db.webhookEvent.count({ where: { accountId: shipper.accountId } })).toBe(1);
  });

  it('takes a TrackingNumber in another case as the same package: an identical resend is the safe retry, a changed one a 409', async () => {
    const shipper = await newAccount('AnyCase');
    const endpoint = await subscribe(shipper);
    const lower = tracking().toLowerCase();
    const first = await call('/wf/package', { token: shipper.tokens.test, body: packageSample(lower) });
    expect(first.status).toBe(200);

    const again = await call('/wf/package', { token: shipper.tokens.test, body: packageSample(lower.toUpperCase()) });
    expect(again.status, again.text).toBe(200);
    expect(again.json.ManifestID).toBe(first.json.ManifestID);

    const changed = packageSample(lower.toUpperCase());
    changed.package.ToName = 'Someone Else';
    const refused = await call('/wf/package', { token: shipper.tokens.test, body: changed });
    const error = expectError(refused, 409, 'conflict');
    expect(error.details).toEqual([{ path: 'package.TrackingNumber', message: 'already accepted with different data' }]);
    expect(refused.json.error.ManifestID).toBe(first.json.ManifestID);

    const stored = await db.package.findMany({ where: { accountId: shipper.accountId } });
    expect(stored.map((p) => [p.trackingNumber, (p.data as { ToName: string }).ToName])).toEqual([[lower, 'Jane Doe']]);
    expect(await db.webhookMessage.count({ where: { endpointId: endpoint.id } })).toBe(1);
  });

  it('stores one package when the same TrackingNumber arrives at once in two cases', async () => {
    const shipper = await newAccount('AnyCaseRace');
    const endpoint = await subscribe(shipper);
    const lower = tracking().toLowerCase();
    const results = await Promise.all(
      [lower, lower.toUpperCase(), lower, lower.toUpperCase()].map((tn) =>
        call('/wf/package', { token: shipper.tokens.test, body: packageSample(tn) }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(results.map((r) => r.json.ManifestID)).size).toBe(1);
    expect(await db.package.count({ where: { accountId: shipper.accountId } })).toBe(1);
    expect(await db.webhookMessage.count({ where: { endpointId: endpoint.id } })).toBe(1);
  });

  it.each([
    ['an array under package', (b: ReturnType<typeof packageSample>) => ({ package: [b.package] })],
    ['a top-level array', (b: ReturnType<typeof packageSample>) => [b]],
    ['a packages list beside it', (b: ReturnType<typeof packageSample>) => ({ ...b, packages: [b.package, b.package] })],
  ])('refuses %s with one_package_per_request', async (_label, shape) => {
    const result = await call('/wf/package', { token: acme.tokens.test, body: shape(packageSample(tracking())) });
    expectError(result, 422, 'one_package_per_request');
    expect(result.json.IsSuccess).toBe(false);
  });

  it('lists every missing required field with its package.* path', async () => {
    const result = await call('/wf/package', { token: acme.tokens.test, body: { package: {} } });
    const error = expectError(result, 422, 'validation_failed');
    expect(error.details!.map((d) => d.path).sort()).toEqual(
      [
        'TrackingNumber',
        'FinalMileCarrier',
        'ManifestDate',
        'ServiceName',
        'FromCompany',
        'FromAddress1',
        'FromCity',
        'FromState',
        'FromPostalCode',
        'FromCountry',
        'ToPostalCode',
        'ShipmentDescription',
        'PackageSizeLength',
        'PackageSizeWidth',
        'PackageSizeHeight',
        'PackageWeight',
        'WeightUnit',
      ]
        .map((f) => `package.${f}`)
        .sort(),
    );
    expect(error.details!.every((d) => d.message === 'is required')).toBe(true);
  });

  it('refuses a body without a package object', async () => {
    const error = expectError(
      await call('/wf/package', { token: acme.tokens.test, body: { TrackingNumber: 'X' } }),
      422,
      'validation_failed',
    );
    expect(error.details).toEqual([{ path: 'package', message: 'is required' }]);
  });

  it.each([
    ['ToPostalCode', '1234', 'package.ToPostalCode'],
    ['ToPostalCode', 'M5X1A9X', 'package.ToPostalCode'],
    ['FromPostalCode', 'DZ 123', 'package.FromPostalCode'],
    ['WeightUnit', 'oz', 'package.WeightUnit'],
    ['ManifestDate', 'tomorrow', 'package.ManifestDate'],
    ['AWB', '12345', 'package.AWB'],
    ['ToEmail', 'not-an-email', 'package.ToEmail'],
    ['PackageWeight', 0, 'package.PackageWeight'],
    ['TrackingNumber', 'has spaces in it', 'package.TrackingNumber'],
  ])('refuses a bad %s (%s)', async (field, value, path) => {
    const body = packageSample(tracking());
    (body.package as Record<string, unknown>)[field] = value;
    const error = expectError(await call('/wf/package', { token: acme.tokens.test, body }), 422, 'validation_failed');
    expect(error.details!.map((d) => d.path)).toEqual([path]);
  });

  it.each([['12345'], ['12345-6789'], ['K1A 0B1'], ['k1a0b1']])('accepts the postal code %s', async (code) => {
    const body = packageSample(tracking());
    body.package.ToPostalCode = code;
    expect((await call('/wf/package', { token: acme.tokens.test, body })).status).toBe(200);
  });
});
