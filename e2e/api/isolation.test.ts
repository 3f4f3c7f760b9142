import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { newId } from '@/lib/ids';
import { call, expectError, newAccount, tracking, type TestAccount } from './support/api';
import { containerSample, packageSample } from './support/samples';

let acme: TestAccount;
let globex: TestAccount;
beforeAll(async () => {
  [acme, globex] = await Promise.all([newAccount('Acme'), newAccount('Globex')]);
});

describe("one account never reads or changes another account's data", () => {
  it('keeps ContainerIDs per account: the same id is a new manifest for another shipper, not a retry or a conflict', async () => {
    const id = `SHARED-${randomUUID().slice(0, 8)}`;
    const mine = await call('/wf/manifest', { token: acme.tokens.test, body: containerSample(id) });
    const theirs = await call('/wf/manifest', {
      token: globex.tokens.test,
      body: { ...containerSample(id), ShipmentDescription: 'Other' },
    });
    expect(mine.status).toBe(200);
    expect(theirs.status).toBe(200);
    expect(theirs.json.ManifestID).not.toBe(mine.json.ManifestID);
    // Globex learned nothing about Acme's manifest, and Acme's is unchanged.
    expect(theirs.text).not.toContain(mine.json.ManifestID);
    const stored = await db.containerManifest.findUniqueOrThrow({ where: { id: mine.json.ManifestID } });
    expect(stored.shipmentDescription).toBe('Apparel');
  });

  it('keeps tracking numbers per account: another shipper may use the same one', async () => {
    const tn = tracking();
    const mine = await call('/wf/package', { token: acme.tokens.test, body: packageSample(tn) });
    const theirs = await call('/wf/package', { token: globex.tokens.test, body: packageSample(tn, '2026-12-24') });
    expect(mine.status).toBe(200);
    expect(theirs.status).toBe(200);
    expect(theirs.json.ManifestID).not.toBe(mine.json.ManifestID);
    const acmes = await db.package.findFirstOrThrow({ where: { accountId: acme.accountId, trackingNumber: tn } });
    expect(acmes.manifestDate.toISOString()).toBe('2026-11-23T08:00:00.000Z');
  });

  it("never queues one account's package notification for another account's webhook", async () => {
    const endpoint = await db.webhookEndpoint.create({
      data: {
        id: newId('we'),
        accountId: globex.accountId,
        environment: 'test',
        url: 'http://127.0.0.1:9/',
        events: ['package.sorting'],
        secret: 'whsec_x',
      },
    });
    await call('/wf/package', { token: acme.tokens.test, body: packageSample(tracking()) });
    expect(await db.webhookMessage.count({ where: { endpointId: endpoint.id } })).toBe(0);
  });
});

describe("the test and live environments never see each other's data", () => {
  it('keeps the same ContainerID apart in test and live', async () => {
    const id = `ENV-${randomUUID().slice(0, 8)}`;
    const test = await call('/wf/manifest', { env: 'test', token: acme.tokens.test, body: containerSample(id) });
    const live = await call('/wf/manifest', {
      env: 'live',
      token: acme.tokens.live,
      body: { ...containerSample(id), ShipmentDescription: 'Live' },
    });
    expect(test.status).toBe(200);
    expect(live.status).toBe(200);
    expect(live.json.ManifestID).not.toBe(test.json.ManifestID);
    const rows = await db.containerManifest.findMany({
      where: { accountId: acme.accountId, containerId: id },
      select: { environment: true },
    });
    expect(rows.map((r) => r.environment).sort()).toEqual(['live', 'test']);
  });

  it('never queues a test package for a live webhook', async () => {
    const shipper = await newAccount('Envs');
    const live = await db.webhookEndpoint.create({
      data: {
        id: newId('we'),
        accountId: shipper.accountId,
        environment: 'live',
        url: 'http://127.0.0.1:9/',
        events: ['package.sorting'],
        secret: 'whsec_x',
      },
    });
    await call('/wf/package', { env: 'test', token: shipper.tokens.test, body: packageSample(tracking()) });
    expect(await db.webhookMessage.count({ where: { endpointId: live.id } })).toBe(0);
    await call('/wf/package', { env: 'live', token: shipper.tokens.live, body: packageSample(tracking()) });
    expect(await db.webhookMessage.count({ where: { endpointId: live.id } })).toBe(1);
  });

  it('refuses to let a token act on the other environment', async () => {
    expectError(
      await call('/wf/package', { env: 'live', token: acme.tokens.test, body: packageSample(tracking()) }),
      401,
      'wrong_environment',
    );
  });
});
