import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { call, expectError, newAccount, tracking, type TestAccount } from './support/api';
import { containerDetail, containerSample } from './support/samples';

let acme: TestAccount;
beforeAll(async () => {
  acme = await newAccount('Acme');
});

const containerId = () => `CONT-${randomUUID().slice(0, 8)}`;

describe('POST /wf/manifest', () => {
  it('stores the published sample shape and answers IsSuccess "true" with a ManifestID', async () => {
    const body = containerSample(containerId(), [tracking(), tracking()]);
    const result = await call('/wf/manifest', { token: acme.tokens.test, body });
    expect(result.status).toBe(200);
    expect(result.json.IsSuccess).toBe('true');
    expect(result.json.ManifestID).toMatch(/^MAN-[0-9A-HJKMNP-TV-Z]{16}$/);

    const stored = await db.containerManifest.findUniqueOrThrow({
      where: { id: result.json.ManifestID },
      include: { packages: true },
    });
    expect(stored.accountId).toBe(acme.accountId);
    expect(stored.environment).toBe('test');
    expect(stored.awb).toBe('00012345675');
    expect(stored.manifestDateDefaulted).toBe(false);
    expect(stored.packages.map((p) => p.trackingNumber)).toEqual(body.ContainerDetails.map((d) => d.TrackingNumber));
    const header = stored.header as Record<string, unknown>;
    expect(header.ContainerWeight).toBe('120.5');
    expect(header.ContainerName).toBe('42');
    expect(header.ContainerCount).toBe('1');
    expect(header.FromPostalCode).toBe('07114');
    expect(header.Reference4).toBe('extra');
    expect(header.FromAddress2).toBeUndefined();
  });

  it('accepts the field-list spellings too (FromPostalcode, unspaced container names)', async () => {
    const { FromPostalCode, ['Container Weight']: weight, ['Container Name']: name, ...rest } = containerSample(containerId());
    const body = { ...rest, FromPostalcode: FromPostalCode, ContainerWeight: weight, ContainerName: name };
    const result = await call('/wf/manifest', { token: acme.tokens.test, body });
    expect(result.status).toBe(200);
    const stored = await db.containerManifest.findUniqueOrThrow({ where: { id: result.json.ManifestID } });
    expect((stored.header as Record<string, unknown>).FromPostalCode).toBe('07114');
    expect((stored.header as Record<string, unknown>).ContainerWeight).toBe('120.5');
  });

  it('defaults a missing ManifestDate to today and records that it did', async () => {
    const { ManifestDate: _omitted, AWB: _awb, ...body } = containerSample(containerId());
    const result = await call('/wf/manifest', { token: acme.tokens.test, body });
    expect(result.status).toBe(200);
    const stored = await db.containerManifest.findUniqueOrThrow({ where: { id: result.json.ManifestID } });
    expect(stored.manifestDateDefaulted).toBe(true);
    expect(stored.awb).toBeNull();
    expect(Math.abs(stored.manifestDate.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('normalises an AWB written with a hyphen or a space', async () => {
    for (const awb of ['000-12345675', '000 12345675']) {
      const result = await call('/wf/manifest', {
        token: acme.tokens.test,
        body: { ...containerSample(containerId()), AWB: awb },
      });
      expect(result.status).toBe(200);
      const stored = await db.containerManifest.findUniqueOrThrow({ where: { id: result.json.ManifestID } });
      expect(stored.awb).toBe('00012345675');
    }
  });

  it('lists every failing field at once, with its path, in the envelope', async () => {
    const body = {
      ...containerSample(containerId(), ['GOOD1']),
      ServiceName: '',
      FromCompany: undefined,
      ContainerLength: 10.123,
      ContainerWidth: 'wide',
      ContainerHeight: -1,
      AWB: '00012345670',
      ManifestDate: '2026-02-30',
      ShipmentDescription: null,
      ContainerID: undefined,
    };
    body.ContainerDetails.push({
      ...containerDetail('GOOD1'),
      PackageWeight: 'heavy' as unknown as number,
      ToPostalCode: 'ABCDE',
    });
    const result = await call('/wf/manifest', { token: acme.tokens.test, body });
    const error = expectError(result, 422, 'validation_failed');
    expect(result.json.IsSuccess).toBe('false');
    const byPath = Object.fromEntries(error.details!.map((d) => [d.path, d.message]));
    expect(byPath).toEqual({
      ServiceName: 'is required',
      FromCompany: 'is required',
      ContainerLength: 'must have at most 2 decimal places',
      ContainerWidth: 'must be a number',
      ContainerHeight: 'must be greater than 0',
      AWB: expect.stringContaining('check digit'),
      ManifestDate: 'is not a real calendar date',
      ShipmentDescription: 'is required',
      ContainerID: 'is required',
      'ContainerDetails[1].PackageWeight': 'must be a number',
      'ContainerDetails[1].ToPostalCode': expect.stringContaining('ZIP'),
      'ContainerDetails[1].TrackingNumber': 'duplicates ContainerDetails[0].TrackingNumber',
    });
  });

  it.each([
    ['too short', '0001234567'],
    ['letters', 'ABC12345675'],
    ['twelve digits', '000123456750'],
  ])('refuses an AWB that is %s', async (_label, awb) => {
    const result = await call('/wf/manifest', { token: acme.tokens.test, body: { ...containerSample(containerId()), AWB: awb } });
    const error = expectError(result, 422, 'validation_failed');
    expect(error.details).toEqual([{ path: 'AWB', message: expect.stringContaining('11 digits') }]);
  });

  it('returns the original ManifestID for an identical resend, and stores nothing twice', async () => {
    const body = containerSample(containerId(), [tracking(), tracking()]);
    const first = await call('/wf/manifest', { token: acme.tokens.test, body });
    const again = await call('/wf/manifest', { token: acme.tokens.test, body });
    expect(again.status).toBe(200);
    expect(again.json).toEqual(first.json);
    expect(await db.containerManifest.count({ where: { accountId: acme.accountId, containerId: body.ContainerID } })).toBe(1);
    expect(await db.containerPackage.count({ where: { manifestId: first.json.ManifestID } })).toBe(2);
  });

  it('gives concurrent identical requests one manifest', async () => {
    const body = containerSample(containerId(), [tracking()]);
    const results = await Promise.all(Array.from({ length: 8 }, () => call('/wf/manifest', { token: acme.tokens.test, body })));
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(new Set(results.map((r) => r.json.ManifestID)).size).toBe(1);
  });

  it('answers 409 naming the existing ManifestID when the same ContainerID comes with another body', async () => {
    const body = containerSample(containerId(), [tracking()]);
    const first = await call('/wf/manifest', { token: acme.tokens.test, body });
    const changed = await call('/wf/manifest', { token: acme.tokens.test, body: { ...body, ShipmentDescription: 'Shoes' } });
    const error = expectError(changed, 409, 'conflict');
    expect(changed.json.IsSuccess).toBe('false');
    expect(error.message).toContain(first.json.ManifestID);
    expect(changed.json.error.ManifestID).toBe(first.json.ManifestID);
    const stored = await db.containerManifest.findUniqueOrThrow({ where: { id: first.json.ManifestID } });
    expect(stored.shipmentDescription).toBe('Apparel');
  });

  it('answers 409 when a tracking number is already in another container of the account', async () => {
    const shared = tracking();
    const first = await call('/wf/manifest', { token: acme.tokens.test, body: containerSample(containerId(), [shared]) });
    const second = await call('/wf/manifest', {
      token: acme.tokens.test,
      body: containerSample(containerId(), [tracking(), shared]),
    });
    const error = expectError(second, 409, 'conflict');
    expect(error.details).toEqual([
      { path: 'ContainerDetails[1].TrackingNumber', message: `${shared} is already in manifest ${first.json.ManifestID}` },
    ]);
  });

  it('answers 409 when a tracking number is already in another container in another case', async () => {
    const shared = tracking().toLowerCase();
    const first = await call('/wf/manifest', { token: acme.tokens.test, body: containerSample(containerId(), [shared]) });
    expect(first.status).toBe(200);
    const second = await call('/wf/manifest', {
      token: acme.tokens.test,
      body: containerSample(containerId(), [tracking(), shared.toUpperCase()]),
    });
    const error = expectError(second, 409, 'conflict');
    expect(error.details).toEqual([
      {
        path: 'ContainerDetails[1].TrackingNumber',
        message: `${shared.toUpperCase()} is already in manifest ${first.json.ManifestID} (as ${shared})`,
      },
    ]);
  });

  it('refuses one tracking number twice in a container in two cases, as in one', async () => {
    const tn = tracking();
    const result = await call('/wf/manifest', {
      token: acme.tokens.test,
      body: containerSample(containerId(), [tn, tn.toLowerCase()]),
    });
    const error = expectError(result, 422, 'validation_failed');
    expect(error.details).toEqual([
      { path: 'ContainerDetails[1].TrackingNumber', message: 'duplicates ContainerDetails[0].TrackingNumber' },
    ]);
  });

  it('answers a resend with its tracking numbers in another case as the safe retry', async () => {
    const numbers = [tracking(), tracking()];
    const body = containerSample(containerId(), numbers);
    const first = await call('/wf/manifest', { token: acme.tokens.test, body });
    const again = await call('/wf/manifest', {
      token: acme.tokens.test,
      body: containerSample(body.ContainerID, [numbers[0].toLowerCase(), numbers[1]]),
    });
    expect(again.status, again.text).toBe(200);
    expect(again.json.ManifestID).toBe(first.json.ManifestID);
    expect(await db.containerPackage.count({ where: { manifestId: first.json.ManifestID } })).toBe(2);
  });

  it('stores a tracking number once when two containers carry it at once in two cases', async () => {
    const shared = tracking().toLowerCase();
    const results = await Promise.all(
      [shared, shared.toUpperCase()].map((tn) =>
        call('/wf/manifest', { token: acme.tokens.test, body: containerSample(containerId(), [tracking(), tn]) }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(
      await db.containerPackage.count({
        where: { accountId: acme.accountId, trackingNumber: { in: [shared, shared.toUpperCase()] } },
      }),
    ).toBe(1);
  });

  it('accepts 5,000 packages and refuses 5,001', async () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => `BULK${randomUUID().slice(0, 8)}${i}`);
    const max = await call('/wf/manifest', { token: acme.tokens.test, body: containerSample(containerId(), many(5000)) });
    expect(max.status).toBe(200);
    expect(await db.containerPackage.count({ where: { manifestId: max.json.ManifestID } })).toBe(5000);

    const over = await call('/wf/manifest', { token: acme.tokens.test, body: containerSample(containerId(), many(5001)) });
    const error = expectError(over, 422, 'validation_failed');
    expect(error.details).toEqual([{ path: 'ContainerDetails', message: 'must hold at most 5000 packages (got 5001)' }]);
  });
});
