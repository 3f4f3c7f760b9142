import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createOpsToken } from '@/lib/auth/ops-tokens';
import { pgPool } from '@/lib/db';
import { call, newAccount, tracking, type Env, type TestAccount } from './support/api';
import { euContainerSample } from './support/samples';

// Readiness enforced at departure: a live container whose shipper turned enforcement on departs only when its customs
// readiness holds for every regime that applies; the scan is refused `customs_not_ready`, naming the regimes. Off, or
// on the test path, readiness is shown and never holds a container.

let ops: string;

/** A JFK → FRA container to Berlin: every ICS2 element present, or (gaps) no customs declaration at all. */
const euContainer = (gaps: boolean) =>
  euContainerSample(`ULD-${randomUUID().slice(0, 8)}`, [tracking('CE'), tracking('CE')], () =>
    gaps ? { Customs: undefined } : {},
  );

async function enforce(account: TestAccount, on: boolean) {
  await pgPool().query(
    `INSERT INTO customs_settings (account_id, enforce_readiness) VALUES ($1, $2)
     ON CONFLICT (account_id) DO UPDATE SET enforce_readiness = EXCLUDED.enforce_readiness`,
    [account.accountId, on],
  );
}

/** Accepts the container, receives it, then scans it departed: the departure's scan result. */
async function depart(account: TestAccount, env: Env, gaps: boolean) {
  const body = euContainer(gaps);
  const accepted = await call('/wf/manifest', { env, token: account.tokens[env], body });
  expect(accepted.status, accepted.text).toBe(200);
  const scan = (event: string, minutes: number) => ({
    scan_id: `s-${randomUUID()}`,
    container_id: body.ContainerID,
    event,
    location: 'JFK',
    occurred_at: new Date(Date.now() - 60 * 60_000 + minutes * 60_000).toISOString(),
  });
  const received = await call('/ops/scans', { env, token: ops, body: { scans: [scan('received', 0)] } });
  expect(received.json.results[0], received.text).toMatchObject({ result: 'applied' });
  const departed = await call('/ops/scans', { env, token: ops, body: { scans: [scan('departed', 1)] } });
  expect(departed.status, departed.text).toBe(200);
  const manifest = await call(`/manifests/${accepted.json.ManifestID}`, { method: 'GET', env, token: account.tokens[env] });
  return { result: departed.json.results[0], status: manifest.json.status as string };
}

beforeAll(async () => {
  ops = (await createOpsToken({ name: 'customs enforcement' })).token;
});

describe('customs readiness enforced before a live departure', () => {
  it('holds a live container that is not ready, naming the regimes; it stays received', async () => {
    const account = await newAccount('Enforcing');
    await enforce(account, true);
    const { result, status } = await depart(account, 'live', true);
    expect(result).toMatchObject({ result: 'refused', error: { code: 'customs_not_ready' } });
    expect(result.error.message).toContain('GET /manifests/');
    expect(result.error.details.map((d: { path: string }) => d.path)).toEqual(expect.arrayContaining(['regimes.eu_ics2_placi']));
    expect(status).toBe('received');
  });

  it('lets a ready live container depart', async () => {
    const account = await newAccount('Enforcing, ready');
    await enforce(account, true);
    const { result, status } = await depart(account, 'live', false);
    expect(result, JSON.stringify(result)).toMatchObject({ result: 'applied', status: 'departed' });
    expect(status).toBe('departed');
  });

  it('never holds one when the shipper has not turned it on, nor on the test path', async () => {
    const off = await newAccount('Not enforcing');
    expect((await depart(off, 'live', true)).result).toMatchObject({ result: 'applied', status: 'departed' });
    await enforce(off, false);
    expect((await depart(off, 'live', true)).status).toBe('departed');
    const on = await newAccount('Enforcing, test path');
    await enforce(on, true);
    expect((await depart(on, 'test', true)).result).toMatchObject({ result: 'applied', status: 'departed' });
  });
});
