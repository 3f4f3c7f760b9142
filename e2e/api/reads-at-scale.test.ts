import { describe, expect, it } from 'vitest';
import { db } from '@/lib/db';
import { call, expectError, newAccount, tracking } from './support/api';
import { containerSample, packageSample } from './support/samples';

// The counters the portal's reads use instead of counting packages (docs/decisions/reads-at-scale.md):
// kept by the writes, counting each accepted package once, never a retry or a refused one.

const today = () => new Date(new Date().toISOString().slice(0, 10));

/** A daily manifest's packages: its counter shards summed (lib/sharded-counters.ts). */
async function packageCount(manifestId: string): Promise<number> {
  const sum = await db.dailyManifestCount.aggregate({ where: { manifestId }, _sum: { packages: true } });
  return sum._sum.packages ?? 0;
}

/** The account's activity_days by environment and day, shards summed: [environment, day, packages, container manifests]. */
async function activityDays(accountId: string) {
  const groups = await db.activityDay.groupBy({
    by: ['environment', 'day'],
    where: { accountId },
    _sum: { packages: true, containerManifests: true },
    orderBy: [{ environment: 'asc' }, { day: 'asc' }],
  });
  return groups.map((g) => [
    g.environment,
    g.day.toISOString().slice(0, 10),
    g._sum.packages ?? 0,
    g._sum.containerManifests ?? 0,
  ]);
}

describe('counters kept by the writes', () => {
  it('a daily manifest counts its packages and lists their services; retries and conflicts change nothing', async () => {
    const shipper = await newAccount('Counters');
    const [a, b, c] = [tracking(), tracking(), tracking()];
    const ground = packageSample(c, '2026-12-01');
    ground.package.ServiceName = 'Carrier Ground';
    for (const body of [packageSample(a, '2026-12-01'), packageSample(b, '2026-12-01'), ground]) {
      expect((await call('/wf/package', { token: shipper.tokens.test, body })).status).toBe(200);
    }
    // An identical resend (twice, at once) and a changed resend of the same tracking number.
    const retries = await Promise.all(
      [0, 1].map(() => call('/wf/package', { token: shipper.tokens.test, body: packageSample(a, '2026-12-01') })),
    );
    expect(retries.map((r) => r.status)).toEqual([200, 200]);
    const changed = packageSample(b, '2026-12-01');
    changed.package.ToName = 'Someone Else';
    expectError(await call('/wf/package', { token: shipper.tokens.test, body: changed }), 409, 'conflict');
    // Another environment has its own manifest and counters.
    expect(
      (await call('/wf/package', { env: 'live', token: shipper.tokens.live, body: packageSample(tracking(), '2026-12-01') }))
        .status,
    ).toBe(200);

    const manifest = await db.dailyManifest.findFirstOrThrow({ where: { accountId: shipper.accountId, environment: 'test' } });
    expect(await packageCount(manifest.id)).toBe(3);
    expect(manifest.services).toEqual(['AirSkip', 'Carrier Ground']);
    expect(await packageCount(manifest.id)).toBe(await db.package.count({ where: { dailyManifestId: manifest.id } }));
    const live = await db.dailyManifest.findFirstOrThrow({ where: { accountId: shipper.accountId, environment: 'live' } });
    expect([await packageCount(live.id), live.services]).toEqual([1, ['AirSkip']]);

    // The dashboard's rollup: packages received today, by environment (its shards summed).
    const days = await activityDays(shipper.accountId);
    expect(days).toEqual([
      ['test', today().toISOString().slice(0, 10), 3, 0],
      ['live', today().toISOString().slice(0, 10), 1, 0],
    ]);
  });

  it('a container manifest is counted once in the rollup, a retry not again', async () => {
    const shipper = await newAccount('ContainerCounters');
    const body = containerSample(`ULD-${tracking()}`, [tracking(), tracking()]);
    for (let i = 0; i < 2; i++) expect((await call('/wf/manifest', { token: shipper.tokens.test, body })).status).toBe(200);
    const days = await activityDays(shipper.accountId);
    expect(days.map(([environment, , packages, containers]) => [environment, packages, containers])).toEqual([['test', 0, 1]]);
  });
});
