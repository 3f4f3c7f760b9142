import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, newAccount, tracking, type TestAccount } from './support/api';
import { containerDetail, containerSample, packageSample } from './support/samples';

// The address check of POST /addresses/validate on every accepted package's destination: a disagreement is a
// `warnings` entry naming the package and the field, never a refusal; an agreeing address adds nothing.

let acme: TestAccount;
beforeAll(async () => {
  acme = await newAccount('Address warnings');
});

const post = (path: string, body: unknown, env: 'test' | 'live' = 'test') => call(path, { env, token: acme.tokens[env], body });

describe('address warnings on accepted packages', () => {
  it('a package manifest with the review’s address (a Beverly Hills ZIP under Toronto, ON) is accepted, warned about', async () => {
    const tn = tracking('AW');
    const body = packageSample(tn);
    Object.assign(body.package, { ToAddress1: '9450 Wilshire Blvd', ToCity: 'Toronto', ToState: 'ON' });
    const answer = await post('/wf/package', body);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json).toMatchObject({ IsSuccess: true, TrackingNumber: tn });
    expect(answer.json.warnings).toEqual([
      { path: 'package.ToState', message: `is "ON", but ZIP 90210 is in CA (package ${tn})` },
      { path: 'package.ToCity', message: `is "Toronto", but ZIP 90210 is Beverly Hills, CA (package ${tn})` },
    ]);
    // The identical resend is answered the same way (the warnings come from the body, not from what was stored).
    const again = await post('/wf/package', body);
    expect(again.status).toBe(200);
    expect(again.json.warnings).toEqual(answer.json.warnings);
    // Stored as sent: the shipper's data is not corrected behind its back.
    const read = await call(`/packages/${tn}`, { method: 'GET', token: acme.tokens.test });
    expect(read.json).toMatchObject({ ToCity: 'Toronto', ToState: 'ON', ToPostalCode: '90210' });
  });

  it('an agreeing address, and one in a country the dataset does not cover, add no warnings', async () => {
    const agreeing = await post('/wf/package', packageSample(tracking('AW')));
    expect(agreeing.status, agreeing.text).toBe(200);
    expect(agreeing.json.warnings).toBeUndefined();
    const german = packageSample(tracking('AW'));
    Object.assign(german.package, { ToCity: 'Berlin', ToState: '', ToPostalCode: '10117', ToCountry: 'DE' });
    const answer = await post('/wf/package', german);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json.warnings).toBeUndefined();
  });

  it('a Canadian postal code under the wrong province and country, in live as in test', async () => {
    for (const env of ['test', 'live'] as const) {
      const tn = tracking('AW');
      const body = packageSample(tn);
      Object.assign(body.package, { ToCity: 'Toronto', ToState: 'BC', ToPostalCode: 'm5v2t6', ToCountry: 'US' });
      const answer = await post('/wf/package', body, env);
      expect(answer.status, answer.text).toBe(200);
      expect(answer.json.warnings.map((w: { path: string }) => w.path)).toEqual(['package.ToCountry', 'package.ToState']);
      expect(answer.json.warnings[1].message).toBe(`is "BC", but M5V 2T6 is in ON (package ${tn})`);
    }
  });

  it('a container manifest names each package by its index and tracking number', async () => {
    const [good, bad, none] = [tracking('AW'), tracking('AW'), tracking('AW')];
    const body = containerSample(`ULD-${randomUUID().slice(0, 8)}`, [good, bad, none]);
    Object.assign(body.ContainerDetails[1], { ToCity: 'Springfield', ToState: 'IL' });
    Object.assign(body.ContainerDetails[2], { ToCity: undefined, ToState: undefined, ToPostalCode: undefined });
    const answer = await post('/wf/manifest', body);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json.PackageCount).toBe(3);
    const address = answer.json.warnings.filter((w: { path: string }) => w.path.startsWith('ContainerDetails'));
    expect(address).toEqual([
      { path: 'ContainerDetails[1].ToState', message: `is "IL", but ZIP 90210 is in CA (package ${bad})` },
      { path: 'ContainerDetails[1].ToCity', message: `is "Springfield", but ZIP 90210 is Beverly Hills, CA (package ${bad})` },
    ]);
  });

  it('a container of 200 packages that all disagree: 50 named, one entry counts the rest; accepted whole', async () => {
    const numbers = Array.from({ length: 200 }, () => tracking('AW'));
    const body = containerSample(`ULD-${randomUUID().slice(0, 8)}`, []);
    body.ContainerDetails = numbers.map((tn) => ({ ...containerDetail(tn), ToCity: 'Toronto' }));
    const answer = await post('/wf/manifest', body);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json.PackageCount).toBe(200);
    const address = answer.json.warnings.filter((w: { path: string }) => w.path.startsWith('ContainerDetails'));
    expect(address).toHaveLength(51);
    expect(address[49].path).toBe('ContainerDetails[49].ToCity');
    expect(address[50]).toEqual({
      path: 'ContainerDetails',
      message: '150 more package(s) have an address that disagrees with its postal code; they are not named',
    });
  });

  it('hostile text in the city is quoted in the message, never refused or echoed past the field limit', async () => {
    const tn = tracking('AW');
    const body = packageSample(tn);
    Object.assign(body.package, { ToCity: `<script>${'x'.repeat(80)}\u202E`, ToState: 'Ontario' });
    const answer = await post('/wf/package', body);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json.warnings.map((w: { path: string }) => w.path).sort()).toEqual(['package.ToCity', 'package.ToState']);
    expect(answer.text.length).toBeLessThan(2_000);
  });
});
