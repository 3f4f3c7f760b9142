import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { pgPool } from '@/lib/db';
import { call, newAccount, tracking, type TestAccount } from './support/api';
import { containerSample, packageSample, rateSampleAirSkip, rateSampleAll, rateSampleExpress } from './support/samples';

// Unknown fields are accepted (clients written to the published samples send extra ones) but never silently: the
// answer's `warnings` names each one, and the request log keeps the answer.

let acme: TestAccount;
beforeAll(async () => {
  acme = await newAccount('Ignored fields');
});

const IGNORED = 'is not a field of this operation: ignored, not stored';

describe('warnings name what an operation ignored', () => {
  it('the published samples, both spellings included, draw no warnings', async () => {
    for (const body of [
      rateSampleAll(),
      rateSampleExpress(),
      rateSampleAirSkip(),
      { ...rateSampleAll(), lenght: undefined, length: 10 },
    ]) {
      const quoted = await call('/wf/rate', { token: acme.tokens.test, body });
      expect(quoted.status, quoted.text).toBe(200);
      expect(quoted.json).not.toHaveProperty('warnings');
    }
    const container = await call('/wf/manifest', {
      token: acme.tokens.test,
      body: containerSample(`ULD-${randomUUID().slice(0, 8)}`, [tracking('IGC')]),
    });
    expect(container.status, container.text).toBe(200);
    expect(container.json).not.toHaveProperty('warnings');
    const pkg = await call('/wf/package', { token: acme.tokens.test, body: packageSample(tracking('IGP')) });
    expect(pkg.status, pkg.text).toBe(200);
    expect(pkg.json).not.toHaveProperty('warnings');
  });

  it('a package with insurance data the operation does not take: 200, and the warning names it; the request log keeps it', async () => {
    const number = tracking('IGW');
    const body = packageSample(number);
    const sent = { package: { ...body.package, Insurance: { Amount: '100.00', Currency: 'USD' }, Weigth: 2 }, Note: 'x' };
    const accepted = await call('/wf/package', { token: acme.tokens.test, body: sent });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.json).toMatchObject({ IsSuccess: true, TrackingNumber: number });
    expect(accepted.json.warnings).toEqual([
      { path: 'package.Insurance', message: IGNORED },
      { path: 'package.Weigth', message: IGNORED },
      { path: 'Note', message: IGNORED },
    ]);
    // The same body again: the same answer, warnings included, nothing stored twice.
    const again = await call('/wf/package', { token: acme.tokens.test, body: sent });
    expect(again.status).toBe(200);
    expect(again.json.warnings).toEqual(accepted.json.warnings);
    const logged = await waitForLogged(accepted.headers.get('x-request-id') ?? '');
    expect(logged).toContain('package.Insurance');
  });

  it('a container names ignored fields of its packages by index; a rate request its own', async () => {
    const body = containerSample(`ULD-${randomUUID().slice(0, 8)}`, [tracking('IG1'), tracking('IG2')]);
    const details = body.ContainerDetails.map((d, i) => (i === 1 ? { ...d, HSCode: '610910' } : d));
    const accepted = await call('/wf/manifest', {
      token: acme.tokens.test,
      body: { ...body, ContainerDetails: details, ULDType: 'AKE' },
    });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.json.IsSuccess).toBe('true');
    expect(accepted.json.warnings).toEqual([
      { path: 'ContainerDetails[1].HSCode', message: IGNORED },
      { path: 'ULDType', message: IGNORED },
    ]);
    const quoted = await call('/wf/rate', { token: acme.tokens.test, body: { ...rateSampleAll(), insurance: true } });
    expect(quoted.status).toBe(200);
    expect(quoted.json.warnings).toEqual([{ path: 'insurance', message: IGNORED }]);
  });

  it('names twenty, and counts the rest', async () => {
    const extra = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`extra${i}`, i]));
    const quoted = await call('/wf/rate', { token: acme.tokens.test, body: { ...rateSampleAll(), ...extra } });
    expect(quoted.status).toBe(200);
    expect(quoted.json.warnings).toHaveLength(21);
    expect(quoted.json.warnings[20]).toEqual({ path: '(body)', message: '480 more ignored fields are not named' });
  });
});

/** The request log's stored answer for a request id (written in the background, so waited for). */
async function waitForLogged(requestId: string): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const { rows } = await pgPool().query<{ response_body: string | null }>(
      'SELECT response_body FROM request_logs WHERE request_id = $1',
      [requestId],
    );
    if (rows[0]?.response_body) return rows[0].response_body;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`request ${requestId} not logged`);
}
