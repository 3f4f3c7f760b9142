import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { pgPool } from '@/lib/db';
import { call, expectError, newAccount, tracking, type Env, type TestAccount } from './support/api';
import { euContainerSample, packageSample } from './support/samples';

// PATCH /manifests/{id}: a container's air cargo header (AWB, ULD, seal, flight, airports, security) amended until it
// departs, each field held to its rule at acceptance, with readiness following, an event of the container, its
// webhook event and an audit record; after departure 409 not_amendable; another account's or environment's is a 404.

const GET = { method: 'GET' } as const;
const PATCH = { method: 'PATCH' } as const;

let acme: TestAccount;
let other: TestAccount;
beforeAll(async () => {
  [acme, other] = await Promise.all([newAccount('Container amendments'), newAccount('Container amendments other')]); // Webhook events are stored for a subscribed endpoint only: one, never reached (a documentation address).
  const endpoint = await call('/webhooks', {
    token: acme.tokens.test,
    body: { url: 'https://93.184.215.14/container-amended', events: ['container.amended'] },
  });
  expect(endpoint.status, endpoint.text).toBe(201);
});

/** A container to Berlin whose header lacks the flight: not ready for ICS2 until it is amended in. */
async function container(env: Env = 'test') {
  const containerId = `ULD-${randomUUID().slice(0, 8)}`;
  const body = { ...euContainerSample(containerId, [tracking('CAM')]), FlightNumber: undefined, FlightDate: undefined };
  const accepted = await call('/wf/manifest', { env, token: acme.tokens[env], body });
  expect(accepted.status, accepted.text).toBe(200);
  return { manifestId: accepted.json.ManifestID as string, containerId };
}

const amend = (id: string, body: unknown, account = acme, env: Env = 'test') =>
  call(`/manifests/${encodeURIComponent(id)}`, { ...PATCH, env, token: account.tokens[env], body });
const read = async (path: string) => (await call(path, { ...GET, token: acme.tokens.test })).json;
const placi = (readiness: { regimes: { regime: string }[] }) => readiness.regimes.find((r) => r.regime === 'eu_ics2_placi');

describe('PATCH /manifests/{id}', () => {
  it('amends the header, readiness follows, with an event, its webhook event and an audit record', async () => {
    const { manifestId, containerId } = await container();
    expect(placi(await read(`/manifests/${manifestId}/customs`))).toMatchObject({ ready: false });

    const answer = await amend(manifestId, {
      FlightNumber: 'lh 401',
      FlightDate: '2026-11-24',
      AWB: '020-12345675',
      ULD: 'AKE12345XH',
      SealNumber: 'S-1',
      Security: { Status: 'SPX', ScreeningMethod: 'XRY', IssuedBy: 'RA-DE-0001' },
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json).toMatchObject({
      ManifestID: manifestId,
      ContainerID: containerId,
      FlightDate: '2026-11-24',
      AWB: expect.stringMatching(/^020-?12345675$/),
      ULD: 'AKE12345XH',
      SealNumber: 'S-1',
    });
    expect(answer.json.FlightNumber).toMatch(/^LH ?401$/);
    const readiness = await read(`/manifests/${manifestId}/customs`);
    expect(readiness).toMatchObject({ FlightDate: '2026-11-24', ULD: 'AKE12345XH' });
    expect(placi(readiness)).toMatchObject({ ready: true });

    const events = (await read('/events?type=container.amended')).data as { data: Record<string, unknown> }[];
    const mine = events.filter((e) => e.data.manifest_id === manifestId);
    expect(mine).toHaveLength(1);
    expect(mine[0]?.data).toMatchObject({ container_id: containerId, status: 'manifested' });
    expect(mine[0]?.data.fields).toEqual(
      expect.arrayContaining(['AWB', 'ULD', 'SealNumber', 'FlightNumber', 'FlightDate', 'Security']),
    );
    const { rows } = await pgPool().query(
      `SELECT details FROM audit_events WHERE account_id = $1 AND action = 'container.amended' AND target_id = $2`,
      [acme.accountId, manifestId],
    );
    expect(rows).toHaveLength(1);

    // The same again changes nothing and records nothing; null removes an optional field.
    expect((await amend(manifestId, { FlightDate: '2026-11-24' })).status).toBe(200);
    expect(
      (await read('/events?type=container.amended')).data.filter(
        (e: { data: { manifest_id: string } }) => e.data.manifest_id === manifestId,
      ),
    ).toHaveLength(1);
    const removed = await amend(manifestId, { SealNumber: null, FlightDate: '' });
    expect(removed.status, removed.text).toBe(200);
    expect(removed.json.SealNumber).toBeUndefined();
    expect(placi(await read(`/manifests/${manifestId}/customs`))).toMatchObject({ ready: false });
  });

  it('names every field that fails its rule, and every field that cannot be amended', async () => {
    const { manifestId } = await container();
    const bad = expectError(
      await amend(manifestId, {
        FlightDate: '2026-02-30',
        ULD: 'ZZZ1XH',
        OriginAirport: 'J\u0000K',
        AWB: '12',
        FlightNumber: 'x'.repeat(10_000),
        SealNumber: '\uD800',
      }),
      422,
      'validation_failed',
    );
    expect(bad.details?.map((d) => d.path).sort()).toEqual(
      ['AWB', 'FlightDate', 'FlightNumber', 'OriginAirport', 'SealNumber', 'ULD'].sort(),
    );
    const unknown = expectError(await amend(manifestId, { ContainerID: 'X', ServiceName: 'Y' }), 422, 'validation_failed');
    expect(unknown.details?.map((d) => d.path)).toEqual(['ContainerID', 'ServiceName']);
    for (const body of [{}, [], 'FlightDate', null, 7]) expect((await amend(manifestId, body)).status).toBe(422);
    const proto = await call(`/manifests/${manifestId}`, {
      ...PATCH,
      token: acme.tokens.test,
      rawBody: '{"__proto__": {"FlightDate": "2026-11-24"}}',
    });
    expect(proto.status, proto.text).toBe(422);
    // Nothing of that was written.
    expect((await read(`/manifests/${manifestId}`)).FlightDate).toBeUndefined();
  });

  it('refuses after departure and for a daily manifest; another account or environment is not found', async () => {
    const { manifestId } = await container();
    const departed = await call(`/manifests/${manifestId}/simulate`, {
      method: 'POST',
      token: acme.tokens.test,
      body: { status: 'departed' },
    });
    expect(departed.status, departed.text).toBe(200);
    const late = expectError(await amend(manifestId, { FlightNumber: 'LH402' }), 409, 'not_amendable');
    expect(late.message).toMatch(/departed/);
    expect((await amend(manifestId, { FlightNumber: 'LH402' })).json.error.current_status).toBe('departed');

    const n = tracking('CAD');
    const daily = await call('/wf/package', { token: acme.tokens.test, body: packageSample(n) });
    const dailyId = (await read(`/packages/${n}`)).ManifestID as string;
    expect(daily.status).toBe(200);
    expect((await amend(dailyId, { FlightNumber: 'LH402' })).json.error).toMatchObject({
      code: 'not_amendable',
      current_status: 'daily',
    });

    const fresh = await container();
    expectError(await amend(fresh.manifestId, { FlightNumber: 'LH402' }, other), 404, 'not_found');
    expectError(await amend(fresh.manifestId, { FlightNumber: 'LH402' }, acme, 'live'), 404, 'not_found');
    expectError(await amend('MAN-NOSUCHMANIFEST', { FlightNumber: 'LH402' }), 404, 'not_found');
    expect((await read(`/manifests/${fresh.manifestId}`)).FlightNumber).toBeUndefined();
  });

  it('records one amendment under concurrent identical requests', async () => {
    const { manifestId } = await container();
    const answers = await Promise.all(Array.from({ length: 6 }, () => amend(manifestId, { FlightNumber: 'LH401' })));
    for (const answer of answers) expect(answer.status, answer.text).toBe(200);
    const events = (await read('/events?type=container.amended')).data as { data: { manifest_id: string } }[];
    expect(events.filter((e) => e.data.manifest_id === manifestId)).toHaveLength(1);
  });
});
