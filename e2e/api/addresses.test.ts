import { beforeAll, describe, expect, it } from 'vitest';
import { createApiToken } from '@/lib/accounts/create-api-token';
import { call, expectError, newAccount, type TestAccount } from './support/api';

// POST /addresses/validate: a disagreement is an answer, never a refusal; only a request without a postal code, or
// with text no field may hold, is refused (422, naming the field).

let acme: TestAccount;
beforeAll(async () => {
  acme = await newAccount('Addresses');
});

describe('POST /addresses/validate', () => {
  it('the address the review printed on a label: a Beverly Hills ZIP under a Toronto city and an Ontario province', async () => {
    const check = await call('/addresses/validate', {
      token: acme.tokens.test,
      body: { address1: '9450 Wilshire Blvd', city: 'Toronto', state: 'ON', postal_code: '90210', country: 'US' },
    });
    expect(check.status, check.text).toBe(200);
    expect(check.json.valid).toBe(false);
    expect(check.json.messages.map((m: { path: string }) => m.path).sort()).toEqual(['city', 'state']);
    expect(check.json.suggestion).toEqual({ city: 'Beverly Hills', state: 'CA', postal_code: '90210', country: 'US' });
  });

  it('answers valid for agreeing US and Canadian addresses, in live as in test', async () => {
    for (const env of ['test', 'live'] as const) {
      const us = await call('/addresses/validate', {
        env,
        token: acme.tokens[env],
        body: { city: 'New York', state: 'NY', postal_code: '10001-1234' },
      });
      expect(us.json).toEqual({ valid: true, country: 'US', messages: [], suggestion: null });
      const ca = await call('/addresses/validate', {
        env,
        token: acme.tokens[env],
        body: { city: 'Toronto', state: 'Ontario', postal_code: 'M5V 2T6', country: 'CA' },
      });
      expect(ca.json.valid, ca.text).toBe(true);
    }
  });

  it('a code of neither country is an answer; a missing postal code and over-long or NUL text are 422 naming the field', async () => {
    const foreign = await call('/addresses/validate', { token: acme.tokens.test, body: { postal_code: 'SW1A 1AA' } });
    expect(foreign.json).toMatchObject({ valid: false, country: null, messages: [{ path: 'postal_code' }] });
    for (const [body, path] of [
      [{ city: 'Boston' }, 'postal_code'],
      [{ postal_code: '' }, 'postal_code'],
      [{ postal_code: '0'.repeat(21) }, 'postal_code'],
      [{ postal_code: '02108', city: 'x'.repeat(101) }, 'city'],
      [{ postal_code: '02108', state: 'M\u0000A' }, 'state'],
    ] as const) {
      const refused = expectError(await call('/addresses/validate', { token: acme.tokens.test, body }), 422, 'validation_failed');
      expect(refused.details?.map((d) => d.path)).toContain(path);
    }
    expectError(await call('/addresses/validate', { token: acme.tokens.test, rawBody: '[' }), 400, 'invalid_json');
    // A number is read as its text, as every text field of the API reads one: 2108 is no ZIP (02108 is).
    const numeric = await call('/addresses/validate', { token: acme.tokens.test, body: { postal_code: 2108 } });
    expect(numeric.json).toMatchObject({ valid: false, messages: [{ path: 'postal_code' }] });
  });

  it('names the fields it ignored', async () => {
    const check = await call('/addresses/validate', {
      token: acme.tokens.test,
      body: { postal_code: '02108', city: 'Boston', zip4: '1234' },
    });
    expect(check.status).toBe(200);
    expect(check.json.warnings).toEqual([expect.objectContaining({ path: 'zip4' })]);
  });

  it('needs the rates scope and a token', async () => {
    const manifestsOnly = await createApiToken({
      accountId: acme.accountId,
      environment: 'test',
      scopes: ['manifests:write'],
    });
    expectError(
      await call('/addresses/validate', { token: manifestsOnly.token, body: { postal_code: '02108' } }),
      403,
      'insufficient_scope',
    );
    expectError(await call('/addresses/validate', { token: null, body: { postal_code: '02108' } }), 401, 'unauthorized');
  });
});
