import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, call, newAccount, pathFor, tracking, type TestAccount } from './support/api';
import { containerSample, packageSample } from './support/samples';

// The handover document's driver block names the manifest's pickups (scheduled or completed, for the manifest or for
// some of its packages), and a closed manifest's kept document follows its pickups (scheduled, then cancelled).

let acme: TestAccount;
const dir = mkdtempSync(path.join(tmpdir(), 'handover-pickup-'));
/** `hour` UTC on the day `days` after today: a window at fixed hours, not hours from whenever the suite runs. */
const at = (days: number, hour: number) => {
  const date = new Date();
  date.setUTCHours(hour, 0, 0, 0);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString();
};
const ADDRESS = { company: 'Acme Parcels', address1: '1 Industrial Way', city: 'Newark', state: 'NJ', postal_code: '07114' };

beforeAll(async () => {
  acme = await newAccount('Handover pickups');
});

async function handoverText(manifestId: string): Promise<string> {
  const response = await fetch(`${baseUrl}${pathFor('test', `/manifests/${manifestId}/document`)}`, {
    headers: { authorization: `Token ${acme.tokens.test}` },
  });
  expect(response.status).toBe(200);
  const file = path.join(dir, `${randomUUID()}.pdf`);
  writeFileSync(file, new Uint8Array(await response.arrayBuffer()));
  return execFileSync('pdftotext', ['-layout', file, '-']).toString();
}

async function schedule(body: Record<string, unknown>) {
  const answer = await call('/pickups', { token: acme.tokens.test, body: { address: ADDRESS, ...body } });
  expect(answer.status, answer.text).toBe(201);
  return answer.json as { id: string };
}

describe('the handover’s pickup', () => {
  it('a container manifest’s pickup: its window, address, package count and instructions above the driver’s signature', async () => {
    const numbers = [tracking('HP'), tracking('HP')];
    const container = await call('/wf/manifest', {
      token: acme.tokens.test,
      body: containerSample(`ULD-${randomUUID().slice(0, 8)}`, numbers),
    });
    const manifestId: string = container.json.ManifestID;
    expect(await handoverText(manifestId)).not.toContain('PICKUP');
    const pickup = await schedule({ manifest_id: manifestId, ready_at: at(2, 13), close_at: at(2, 17), instructions: 'Dock 4' });
    const text = await handoverText(manifestId);
    expect(text).toMatch(/Scheduled \w{3}, \d+ \w{3} \d{4}, 13:00–17:00 UTC/);
    expect(text).toContain(`2 package(s) · ${pickup.id}`);
    expect(text).toContain('Acme Parcels, 1 Industrial Way, Newark, NJ 07114 · Dock 4');
    expect(text.indexOf(pickup.id)).toBeLessThan(text.indexOf('Driver signature'));
  });

  it('a closed daily manifest: the kept document shows a pickup of some of its packages, and no longer once it is cancelled', async () => {
    const day = '2026-12-03T08:00:00Z';
    const [a, b] = [tracking('HD'), tracking('HD')];
    let manifestId = '';
    for (const number of [a, b]) {
      const answer = await call('/wf/package', { token: acme.tokens.test, body: packageSample(number, day) });
      expect(answer.status, answer.text).toBe(200);
      manifestId = answer.json.ManifestID;
    }
    const closed = await call(`/manifests/${manifestId}/close`, { token: acme.tokens.test });
    expect(closed.status, closed.text).toBe(200);
    const before = await handoverText(manifestId);
    expect(before).not.toContain('PICKUP');
    // Across midnight: the window names both dates, and the pickup's id is still on the page.
    const pickup = await schedule({ tracking_numbers: [b], ready_at: at(2, 21), close_at: at(3, 1) });
    const withPickup = await handoverText(manifestId);
    expect(withPickup).toMatch(/Scheduled \w{3}, \d+ \w{3} \d{4} 21:00 – \w{3}, \d+ \w{3} \d{4} 01:00 UTC/);
    expect(withPickup).toContain(`1 package(s) · ${pickup.id}`);
    expect(await handoverText(manifestId)).toBe(withPickup);
    const cancelled = await call(`/pickups/${pickup.id}/cancel`, { token: acme.tokens.test });
    expect(cancelled.status, cancelled.text).toBe(200);
    const after = await handoverText(manifestId);
    expect(after).not.toContain(pickup.id);
    expect(after).toBe(before);
  });

  it('another account’s pickup of the same tracking numbers never shows on this handover', async () => {
    const rival = await newAccount('Handover rival');
    const number = tracking('HR');
    const mine = await call('/wf/package', { token: acme.tokens.test, body: packageSample(number, '2026-12-04T08:00:00Z') });
    const theirs = await call('/wf/package', { token: rival.tokens.test, body: packageSample(number, '2026-12-04T08:00:00Z') });
    expect(theirs.status).toBe(200);
    const pickup = await call('/pickups', {
      token: rival.tokens.test,
      body: { tracking_numbers: [number], address: ADDRESS, ready_at: at(2, 13), close_at: at(2, 17) },
    });
    expect(pickup.status, pickup.text).toBe(201);
    expect(await handoverText(mine.json.ManifestID)).not.toContain('PICKUP');
  });
});
