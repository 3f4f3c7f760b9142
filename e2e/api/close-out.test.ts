import { SYSTEM_ORIGIN } from '@/lib/audit/record-audit';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { closeManifest } from '@/lib/close-out/close-manifest';
import { closeDueManifests, setCloseOutSettings } from '@/lib/close-out/cutoff';
import { pgPool } from '@/lib/db';
import { baseUrl, call, expectError, newAccount, pathFor, tracking, type Env, type TestAccount } from './support/api';
import { portalCall, signUp } from './support/portal';
import { containerSample, packageSample } from './support/samples';

// The close-out end to end on the real server: POST /manifests/{id}/close in both environments, the new daily
// manifest after a close (and its package.sorting), what a closed manifest refuses, its unchanging document, hostile
// ids and bodies, closes racing package posts (from this process: another instance, whose close the server's cached
// manifest id does not know of), and the cut-off job driven with a clock the test sets.

const GET = { method: 'GET' } as const;
const dir = mkdtempSync(path.join(tmpdir(), 'close-out-'));

async function post(account: TestAccount, number: string, env: Env = 'test', date?: string) {
  const result = await call('/wf/package', { env, token: account.tokens[env], body: packageSample(number, date) });
  expect(result.status, result.text).toBe(200);
  return result.json.ManifestID as string;
}

async function close(account: TestAccount, id: string, env: Env = 'test', init: { rawBody?: string } = {}) {
  return call(`/manifests/${encodeURIComponent(id)}/close`, { env, token: account.tokens[env], ...init });
}

async function outbox(accountId: string, type: string) {
  const { rows } = await pgPool().query<{ payload: Record<string, unknown>; environment: string }>(
    `SELECT payload, environment FROM webhook_events WHERE account_id = $1 AND event_type = $2 ORDER BY created_at, id`,
    [accountId, type],
  );
  return rows;
}

async function closedHistory(manifestId: string) {
  const { rows } = await pgPool().query<{ status: string; previous_status: string; source: string; occurred_at: Date }>(
    `SELECT status, previous_status, source, occurred_at FROM lifecycle_events WHERE manifest_id = $1 AND type = 'manifest.closed'`,
    [manifestId],
  );
  return rows;
}

/** An endpoint subscribed to package.sorting and manifest.closed (a public address: this server keeps the SSRF guard). */
async function subscribe(account: TestAccount, env: Env = 'test') {
  const created = await call('/webhooks', {
    env,
    token: account.tokens[env],
    body: { url: 'https://93.184.215.14/hooks', events: ['package.sorting', 'manifest.closed'] },
  });
  expect(created.status, created.text).toBe(201);
}

function pdfText(bytes: Uint8Array): string {
  const file = path.join(dir, `${randomUUID()}.pdf`);
  writeFileSync(file, bytes);
  return execFileSync('pdftotext', ['-layout', file, '-']).toString();
}

async function download(account: TestAccount, path: string, env: Env = 'test'): Promise<Uint8Array> {
  const response = await fetch(baseUrl + pathFor(env, path), { headers: { authorization: `Token ${account.tokens[env]}` } });
  expect(response.status).toBe(200);
  return new Uint8Array(await response.arrayBuffer());
}

async function documentText(account: TestAccount, id: string, env: Env = 'test') {
  return pdfText(await download(account, `/manifests/${id}/document`, env));
}

describe('POST /manifests/{id}/close', () => {
  for (const env of ['test', 'live'] as const) {
    it(`closes a daily manifest (${env}); again is the same answer; the next package for that day opens a new manifest, whose package.sorting names it`, async () => {
      const account = await newAccount('Close');
      await subscribe(account, env);
      const [a, b, c] = [tracking('CA'), tracking('CB'), tracking('CC')];
      const first = await post(account, a, env);
      expect(await post(account, b, env)).toBe(first);

      const closed = await close(account, first, env);
      expect(closed.status, closed.text).toBe(200);
      expect(closed.json).toMatchObject({
        object: 'manifest',
        ManifestID: first,
        type: 'daily',
        ManifestDate: '2026-11-23',
        PackageCount: 2,
        status: 'closed',
      });
      expect(closed.json.totals).toEqual({ package_count: 2, by_status: { manifested: 2 }, total_weight_lb: '5.29' });
      // The read shape: exactly what GET /manifests/{id} answers.
      const read = await call(`/manifests/${first}`, { ...GET, env, token: account.tokens[env] });
      expect(read.json).toEqual(closed.json);
      // Idempotent: the same closed manifest, no second event.
      const again = await close(account, first, env);
      expect(again.status, again.text).toBe(200);
      expect(again.json).toEqual(closed.json);

      const second = await post(account, c, env);
      expect(second).not.toBe(first);
      expect(second).toMatch(/^[A-Z0-9-]+$/);
      // A resend of a package of the closed manifest is still answered with its manifest; nothing is added.
      const resent = await call('/wf/package', { env, token: account.tokens[env], body: packageSample(a) });
      expect(resent.status, resent.text).toBe(200);
      expect(resent.json.ManifestID).toBe(first);
      const after = await call(`/manifests/${first}`, { ...GET, env, token: account.tokens[env] });
      expect(after.json).toEqual(closed.json);
      const opened = await call(`/manifests/${second}`, { ...GET, env, token: account.tokens[env] });
      expect(opened.json).toMatchObject({
        ManifestID: second,
        type: 'daily',
        ManifestDate: '2026-11-23',
        PackageCount: 1,
        status: 'manifested',
      });

      const sorting = await outbox(account.accountId, 'package.sorting');
      expect(sorting.map((e) => [e.payload.tracking_numbers, e.payload.manifest_id])).toEqual([
        [[a], first],
        [[b], first],
        [[c], second],
      ]);
      const events = await outbox(account.accountId, 'manifest.closed');
      const prefix = env === 'test' ? '/version-test/api/1.1' : '/api/1.1';
      expect(events.map((e) => [e.environment, e.payload])).toEqual([
        [
          env,
          {
            manifest_id: first,
            status: 'closed',
            previous_status: 'manifested',
            occurred_at: closed.json.status_updated_at,
            location: null,
            package_count: 2,
            document_path: `${prefix}/manifests/${first}/document`,
            closed_by: 'shipper',
          },
        ],
      ]);
      expect((await closedHistory(first)).map((r) => [r.status, r.previous_status, r.source])).toEqual([
        ['closed', 'manifested', 'api'],
      ]);
    });
  }

  it('refuses a container manifest and a cancelled daily manifest with 409 not_closable naming type and status', async () => {
    const account = await newAccount('CloseRefuse');
    const containerId = `ULD-${randomUUID().slice(0, 8)}`;
    const created = await call('/wf/manifest', {
      token: account.tokens.test,
      body: containerSample(containerId, [tracking('CK')]),
    });
    expect(created.status, created.text).toBe(200);
    const refused = await close(account, created.json.ManifestID);
    const error = expectError(refused, 409, 'not_closable');
    expect(refused.json.error).toMatchObject({ type: 'container', current_status: 'manifested' });
    expect(error.message).toContain(containerId);
    expect(refused.headers.get('x-request-id')).toMatch(/^req_/);

    const n = tracking('CX');
    const daily = await post(account, n, 'test', '2026-11-26T08:00:00Z');
    const cancelled = await call(`/manifests/${daily}/cancel`, { token: account.tokens.test });
    expect(cancelled.json.status).toBe('cancelled');
    const again = await close(account, daily);
    expectError(again, 409, 'not_closable');
    expect(again.json.error).toMatchObject({ type: 'daily', current_status: 'cancelled' });
    // A cancelled manifest takes no more packages either: the day's next package opens a new one.
    const next = await post(account, tracking('CY'), 'test', '2026-11-26T09:00:00Z');
    expect(next).not.toBe(daily);
    expect((await outbox(account.accountId, 'manifest.closed')).length).toBe(0);
  });

  it('a closed manifest is not changed: cancels are 409 not_cancellable and its document stays the same', async () => {
    const account = await newAccount('CloseFrozen');
    const [a, b] = [tracking('CF'), tracking('CG')];
    const id = await post(account, a, 'test', '2026-11-27T08:00:00Z');
    await post(account, b, 'test', '2026-11-27T08:00:00Z');
    expect((await close(account, id)).status).toBe(200);
    const before = await documentText(account, id);
    const bytes = await download(account, `/manifests/${id}/document`);
    expect(before).toContain(id);
    expect(before).toContain('CLOSED');
    expect(before).toContain(a);
    expect(before).toContain(b);

    const cancelPackage = await call(`/packages/${a}/cancel`, { token: account.tokens.test });
    expectError(cancelPackage, 409, 'not_cancellable');
    expect(cancelPackage.json.error).toMatchObject({ current_status: 'closed', ManifestID: id });
    expectError(await call(`/manifests/${id}/cancel`, { token: account.tokens.test }), 409, 'not_cancellable');
    expectError(
      await call(`/packages/${b}/simulate`, { token: account.tokens.test, body: { status: 'cancelled' } }),
      409,
      'not_cancellable',
    );
    expectError(
      await call(`/manifests/${id}/simulate`, { token: account.tokens.test, body: { status: 'cancelled' } }),
      409,
      'not_cancellable',
    );
    const added = tracking('CH');
    const elsewhere = await post(account, added, 'test', '2026-11-27T10:00:00Z');
    expect(elsewhere).not.toBe(id);

    const after = await documentText(account, id);
    expect(after).toBe(before);
    expect(after).not.toContain(added);
    const pkg = await call(`/packages/${a}`, { ...GET, token: account.tokens.test });
    expect(pkg.json.status).toBe('manifested');
    // The carrier still takes a closed manifest's packages: scans (here the simulator) move them, the paper stays.
    const walked = await call(`/packages/${b}/simulate`, { token: account.tokens.test, body: { status: 'received' } });
    expect(walked.status, walked.text).toBe(200);
    expect(await documentText(account, id)).toBe(before);
    // Byte for byte, not only its text: the PDF's own dates are the close's, not the download's.
    expect(Buffer.compare(Buffer.from(await download(account, `/manifests/${id}/document`)), Buffer.from(bytes))).toBe(0);
  });

  it("a cancelled package is not on the paper the dock counts: not listed or totalled, no label in the manifest's, its own label says CANCELLED", async () => {
    const account = await newAccount('CancelledPaper');
    const [kept, gone] = [tracking('CK'), tracking('CX')];
    const id = await post(account, kept, 'test', '2026-11-28T08:00:00Z');
    expect(await post(account, gone, 'test', '2026-11-28T08:00:00Z')).toBe(id);
    expect((await call(`/packages/${gone}/cancel`, { token: account.tokens.test })).status).toBe(200);
    const text = await documentText(account, id);
    expect(text).toContain(kept);
    expect(text).not.toContain(gone);
    expect(text).toMatch(/Packages: 1\b/);
    expect(text).toContain('1 cancelled package(s) are not listed, counted or handed over.');
    const labels = Buffer.from(await download(account, `/manifests/${id}/labels?format=zpl`)).toString();
    expect(labels).toContain(kept);
    expect(labels).not.toContain(gone);
    expect(labels.match(/\^XA/g)).toHaveLength(1);
    const own = Buffer.from(await download(account, `/packages/${gone}/label?format=zpl`)).toString();
    expect(own).toContain('CANCELLED');
    expect(Buffer.from(await download(account, `/packages/${kept}/label?format=zpl`)).toString()).not.toContain('CANCELLED');
    const tag = Buffer.from(await download(account, `/manifests/${id}/tags?format=zpl`)).toString();
    expect(tag).toMatch(/\^FD1\^FS/); // one piece
  });

  it('answers hostile ids and bodies with 4xx envelopes, another account or environment with 404, and two parallel closes with one event', async () => {
    const [account, stranger] = await Promise.all([newAccount('CloseHostile'), newAccount('CloseStranger')]);
    await subscribe(account);
    const id = await post(account, tracking('CZ'), 'test', '2026-11-28T08:00:00Z');

    for (const segment of ['%ZZ', '%00', 'abc%00def', '%E0%A4%A', `${'A'.repeat(600)}`]) {
      const result = await call(`/manifests/${segment}/close`, { token: account.tokens.test });
      expectError(result, 404, 'not_found');
      expect(result.headers.get('x-request-id')).toMatch(/^req_/);
    }
    // A NUL in the id (raw, as a client that does not escape would send it) never reaches a query.
    const nul = await call(`/manifests/${id}\u0000/close`, { token: account.tokens.test });
    expect(nul.status).toBeGreaterThanOrEqual(400);
    expect(nul.status).toBeLessThan(500);
    // Another account's id and the other environment's path: 404, and nothing closed.
    expectError(await close(stranger, id), 404, 'not_found');
    expectError(await close(account, id, 'live'), 404, 'not_found');
    expectError(await call(`/manifests/${id}/close`, { token: account.tokens.live }), 401, 'wrong_environment');
    expect((await call(`/manifests/${id}`, { ...GET, token: account.tokens.test })).json.status).toBe('manifested');
    // GET is not close.
    expectError(await call(`/manifests/${id}/close`, { ...GET, token: account.tokens.test }), 405, 'method_not_allowed');

    // Close takes no options: a body, even one that is not JSON, is not read.
    const withBody = await Promise.all([
      close(account, id, 'test', { rawBody: '{"at": "2026-01-01", "reopen": true}' }),
      close(account, id, 'test', { rawBody: 'not json \u0000' }),
      close(account, id),
      close(account, id),
    ]);
    expect(withBody.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    for (const r of withBody) expect(r.json).toMatchObject({ ManifestID: id, status: 'closed' });
    expect(new Set(withBody.map((r) => r.json.status_updated_at)).size).toBe(1);
    expect(await closedHistory(id)).toHaveLength(1);
    expect(await outbox(account.accountId, 'manifest.closed')).toHaveLength(1);
  });
});

describe('close racing package posts', () => {
  for (const via of ['the API', 'another instance'] as const) {
    it(`every accepted package is in exactly one manifest, none in the closed one after its close (close through ${via})`, async () => {
      const account = await newAccount(`CloseRace ${via}`);
      const date = '2026-11-29T08:00:00Z';
      const seed = tracking('RS');
      const first = await post(account, seed, 'test', date);
      const numbers = Array.from({ length: 120 }, () => tracking('RR'));
      let closeAnswer: Promise<number> | undefined;
      const answers = await Promise.all(
        numbers.map(async (n, i) => {
          if (i === 40) {
            closeAnswer =
              via === 'the API'
                ? close(account, first).then((r) => r.status)
                : closeManifest({
                    accountId: account.accountId,
                    environment: 'test',
                    manifestId: first,
                    origin: SYSTEM_ORIGIN,
                  }).then(() => 200);
          }
          return call('/wf/package', { token: account.tokens.test, body: packageSample(n, date) });
        }),
      );
      expect(await closeAnswer).toBe(200);
      expect(
        answers.map((r) => r.status).filter((s) => s !== 200),
        answers.find((r) => r.status !== 200)?.text,
      ).toEqual([]);
      const answered = new Map(answers.map((r, i) => [numbers[i], r.json.ManifestID as string]));

      const { rows } = await pgPool().query<{ tracking_number: string; daily_manifest_id: string }>(
        `SELECT tracking_number, daily_manifest_id FROM packages WHERE account_id = $1`,
        [account.accountId],
      );
      // None lost, none twice, each where its answer said.
      expect(rows.length).toBe(numbers.length + 1);
      for (const row of rows)
        if (row.tracking_number !== seed)
          expect(row.daily_manifest_id, row.tracking_number).toBe(answered.get(row.tracking_number));
      // The closed manifest holds exactly what it held when it closed (the count its manifest.closed... and history say).
      const inClosed = rows.filter((r) => r.daily_manifest_id === first).length;
      const manifest = await call(`/manifests/${first}`, { ...GET, token: account.tokens.test });
      expect(manifest.json).toMatchObject({ status: 'closed', PackageCount: inClosed });
      expect(manifest.json.totals.package_count).toBe(inClosed);
      const { rows: counted } = await pgPool().query<{ n: number }>(
        `SELECT count(*)::int AS n FROM packages p JOIN lifecycle_events e ON e.manifest_id = p.daily_manifest_id AND e.type = 'manifest.closed'
         WHERE p.daily_manifest_id = $1 AND p.created_at > e.occurred_at`,
        [first],
      );
      expect(counted[0]?.n).toBe(0);
      // Every other package is in ONE new open manifest of that day.
      const others = new Set(rows.filter((r) => r.daily_manifest_id !== first).map((r) => r.daily_manifest_id));
      // (The close is sent a third of the way into 120 concurrent posts: both manifests get some.)
      console.info(
        `close-out race via ${via}: ${inClosed} packages in the closed manifest, ${rows.length - inClosed} in the new one`,
      );
      expect(inClosed).toBeGreaterThanOrEqual(1);
      expect(others.size).toBe(1);
      const [next] = [...others];
      const read = await call(`/manifests/${next}`, { ...GET, token: account.tokens.test });
      expect(read.json).toMatchObject({
        status: 'manifested',
        ManifestDate: '2026-11-29',
        PackageCount: numbers.length + 1 - inClosed,
      });
      // After the race, the day's next package goes to that open manifest too.
      expect(await post(account, tracking('RT'), 'test', date)).toBe(next);
    });
  }
});

describe('automatic close at the cut-off hour', () => {
  it('closes open daily manifests whose ManifestDate reached the hour in the zone, per environment, once each, with two runs at once', async () => {
    const [account, other] = await Promise.all([newAccount('Cutoff'), newAccount('CutoffNone')]);
    await subscribe(account);
    // 17:00 in New York: 22:00 UTC in winter (EST), 21:00 UTC in summer (EDT). Test environment only.
    await setCloseOutSettings(
      { accountId: account.accountId, environment: 'test', origin: SYSTEM_ORIGIN },
      { cutoff_hour: 17, time_zone: 'America/New_York' },
    );
    const winter = await post(account, tracking('KW'), 'test', '2027-01-15T08:00:00Z');
    const summer = await post(account, tracking('KS'), 'test', '2027-07-15T08:00:00Z');
    const live = await post(account, tracking('KL'), 'live', '2027-01-15T08:00:00Z');
    const none = await post(other, tracking('KN'), 'test', '2027-01-15T08:00:00Z');
    const mine = (closed: { manifestId: string }[]) =>
      closed
        .map((c) => c.manifestId)
        .filter((id) => [winter, summer, live, none].includes(id))
        .sort();

    expect(mine(await closeDueManifests({ now: new Date('2027-01-15T21:59:59.999Z') }))).toEqual([]);
    const at = new Date('2027-01-15T22:00:00.000Z');
    // Two processes' runs at the same moment: each manifest closed by exactly one of them.
    const [one, two] = await Promise.all([closeDueManifests({ now: at }), closeDueManifests({ now: at })]);
    expect([...mine(one), ...mine(two)]).toEqual([winter]);
    expect(mine(await closeDueManifests({ now: new Date('2027-07-15T20:59:59.999Z') }))).toEqual([]);
    expect(mine(await closeDueManifests({ now: new Date('2027-07-15T21:00:00.000Z') }))).toEqual([summer]);
    expect(mine(await closeDueManifests({ now: new Date('2027-08-01T00:00:00Z') }))).toEqual([]);

    const read = await call(`/manifests/${winter}`, { ...GET, token: account.tokens.test });
    expect(read.json).toMatchObject({ status: 'closed', status_updated_at: '2027-01-15T22:00:00.000Z' });
    expect((await call(`/manifests/${live}`, { ...GET, env: 'live', token: account.tokens.live })).json.status).toBe(
      'manifested',
    );
    expect((await call(`/manifests/${none}`, { ...GET, token: other.tokens.test })).json.status).toBe('manifested');
    const events = await outbox(account.accountId, 'manifest.closed');
    expect(events.map((e) => e.payload)).toEqual([
      {
        manifest_id: winter,
        status: 'closed',
        previous_status: 'manifested',
        occurred_at: '2027-01-15T22:00:00.000Z',
        location: null,
        package_count: 1,
        document_path: `/version-test/api/1.1/manifests/${winter}/document`,
        closed_by: 'cutoff',
      },
      {
        manifest_id: summer,
        status: 'closed',
        previous_status: 'manifested',
        occurred_at: '2027-07-15T21:00:00.000Z',
        location: null,
        package_count: 1,
        document_path: `/version-test/api/1.1/manifests/${summer}/document`,
        closed_by: 'cutoff',
      },
    ]);
    expect((await closedHistory(winter)).map((r) => r.source)).toEqual(['cutoff']);
    // The shipper's close after the cut-off's: the same closed manifest, no second event.
    const again = await close(account, winter);
    expect(again.json).toMatchObject({ status: 'closed', status_updated_at: '2027-01-15T22:00:00.000Z' });
    expect(await outbox(account.accountId, 'manifest.closed')).toHaveLength(2);
    // And the day goes on in a new manifest.
    expect(await post(account, tracking('KX'), 'test', '2027-01-15T23:00:00Z')).not.toBe(winter);
  });
});

// The portal's side: the same close through portal-api (session, CSRF, the page's environment), and the cut-off setting.
const portal = portalCall;

describe('portal-api', () => {
  it("closes through POST /portal-api/manifests/{id}/close with the API's answer and rules", async () => {
    const [shipper, stranger] = await Promise.all([signUp('PortalClose'), signUp('PortalCloseStranger')]);
    const id = await post(shipper, tracking('PC'), 'test', '2026-11-30T08:00:00Z');
    // Without the CSRF token, from another account, in the other environment, a hostile id: refused, nothing closed.
    expect((await portal(shipper, 'POST', `/portal-api/manifests/${id}/close`, { csrf: null })).json.error.code).toBe(
      'forbidden',
    );
    expect((await portal(stranger, 'POST', `/portal-api/manifests/${id}/close`)).status).toBe(404);
    expect((await portal(shipper, 'POST', `/portal-api/manifests/${id}/close`, { env: 'live' })).status).toBe(404);
    for (const bad of ['%ZZ', '%00', 'a%00b']) {
      const refused = await portal(shipper, 'POST', `/portal-api/manifests/${bad}/close`);
      expect(refused.status, bad).toBe(404);
      expect(refused.json.error.code).toBe('not_found');
    }
    expect((await call(`/manifests/${id}`, { ...GET, token: shipper.tokens.test })).json.status).toBe('manifested');

    const [one, two] = await Promise.all([
      portal(shipper, 'POST', `/portal-api/manifests/${id}/close`),
      portal(shipper, 'POST', `/portal-api/manifests/${id}/close`),
    ]);
    expect([one.status, two.status]).toEqual([200, 200]);
    expect(one.json).toEqual(two.json);
    expect(one.json).toMatchObject({ ManifestID: id, type: 'daily', status: 'closed' });
    expect(one.json).toEqual((await call(`/manifests/${id}`, { ...GET, token: shipper.tokens.test })).json);
    expect(await closedHistory(id)).toHaveLength(1);

    const containerId = `ULD-${randomUUID().slice(0, 8)}`;
    const created = await call('/wf/manifest', {
      token: shipper.tokens.test,
      body: containerSample(containerId, [tracking('PK')]),
    });
    const refused = await portal(shipper, 'POST', `/portal-api/manifests/${created.json.ManifestID}/close`);
    expect(refused.status).toBe(409);
    expect(refused.json.error).toMatchObject({ code: 'not_closable', type: 'container', current_status: 'manifested' });
  });

  it('reads and writes the cut-off per environment, refusing an impossible hour, an unknown zone and unknown fields', async () => {
    const shipper = await signUp('PortalCutoff');
    const path = '/portal-api/settings/close-out';
    expect((await portal(shipper, 'GET', path)).json).toEqual({ cutoff_hour: null, time_zone: 'UTC' });
    const saved = await portal(shipper, 'PUT', path, { body: { cutoff_hour: 18, time_zone: ' America/Chicago ' } });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.json).toEqual({ cutoff_hour: 18, time_zone: 'America/Chicago' });
    expect((await portal(shipper, 'GET', path)).json).toEqual({ cutoff_hour: 18, time_zone: 'America/Chicago' });
    expect((await portal(shipper, 'GET', path, { env: 'live' })).json).toEqual({ cutoff_hour: null, time_zone: 'UTC' });

    const refusals: [unknown, string][] = [
      [{ cutoff_hour: 24, time_zone: 'UTC' }, 'cutoff_hour'],
      [{ cutoff_hour: -1, time_zone: 'UTC' }, 'cutoff_hour'],
      [{ cutoff_hour: 7.5, time_zone: 'UTC' }, 'cutoff_hour'],
      [{ cutoff_hour: '7', time_zone: 'UTC' }, 'cutoff_hour'],
      [{ cutoff_hour: 7, time_zone: 'Mars/Olympus_Mons' }, 'time_zone'],
      [{ cutoff_hour: 7, time_zone: 'UTC\u0000' }, 'time_zone'],
      [{ cutoff_hour: 7, time_zone: "UTC'; DROP TABLE close_out_settings; --" }, 'time_zone'],
      [{ cutoff_hour: 7, time_zone: 'A'.repeat(10_000) }, 'time_zone'],
      [{ cutoff_hour: 7, time_zone: 'UTC', reopen: true }, 'reopen'],
    ];
    for (const [body, field] of refusals) {
      const refused = await portal(shipper, 'PUT', path, { body });
      expect(refused.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(refused.json.error.code).toBe('validation_failed');
      // A field's own error names it as its path; an unknown field is named in the body's error.
      expect(JSON.stringify(refused.json.error.details)).toContain(field);
    }
    expect((await portal(shipper, 'PUT', path, { rawBody: '{"cutoff_hour": 7,' })).status).toBe(400);
    expect((await portal(shipper, 'PUT', path, { body: { cutoff_hour: 7, time_zone: 'UTC' }, csrf: null })).status).toBe(403);
    // Unchanged by every refusal; null turns the automatic close off.
    expect((await portal(shipper, 'GET', path)).json).toEqual({ cutoff_hour: 18, time_zone: 'America/Chicago' });
    expect((await portal(shipper, 'PUT', path, { body: { cutoff_hour: null, time_zone: 'UTC' } })).json).toEqual({
      cutoff_hour: null,
      time_zone: 'UTC',
    });
  });
});
