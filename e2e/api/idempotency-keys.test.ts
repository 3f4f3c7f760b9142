import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { pgPool } from '@/lib/db';
import { call, expectError, newAccount, type TestAccount } from './support/api';
import { rateSampleAll } from './support/samples';

// Idempotency-Key on every POST, with Stripe's semantics: the same key and request get the kept answer (and
// Idempotent-Replayed: true); the same key with another request is a 422; a key whose first request is still running
// is a 409 with Retry-After; keys are per account and environment; failed answers are not kept.

const PUBLIC_URL = 'https://93.184.215.14/hooks/idempotent';
let acme: TestAccount;
let globex: TestAccount;

beforeAll(async () => {
  [acme, globex] = await Promise.all([newAccount('Idempotent'), newAccount('Other')]);
});

const endpoints = async (account: TestAccount, env: 'test' | 'live' = 'test') =>
  ((await call('/webhooks', { method: 'GET', env, token: account.tokens[env] })).json.data as { id: string }[]).length;

describe('Idempotency-Key', () => {
  it('two POST /webhooks with one key make one endpoint; the second gets the first answer, secret included, marked replayed', async () => {
    const key = randomUUID();
    const body = { url: PUBLIC_URL, events: ['package.sorting'] };
    const first = await call('/webhooks', { token: acme.tokens.test, body, headers: { 'idempotency-key': key } });
    expect(first.status, first.text).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await call('/webhooks', { token: acme.tokens.test, body, headers: { 'idempotency-key': key } });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.json).toEqual(first.json);
    expect(await endpoints(acme)).toBe(1);
    // The kept answer holds the endpoint's secret: it is stored sealed, never as text.
    const { rows } = await pgPool().query<{ response_body: string }>(
      'SELECT response_body FROM idempotency_keys WHERE key = $1',
      [key],
    );
    expect(rows[0]?.response_body).not.toContain(first.json.secret);
    expect(rows[0]?.response_body).not.toContain('whsec_');
  });

  it('the same key with another body is a 422 naming Idempotency-Key; nothing is made', async () => {
    const key = randomUUID();
    expect(
      (
        await call('/webhooks', {
          token: acme.tokens.test,
          body: { url: PUBLIC_URL, events: ['package.sorting'] },
          headers: { 'idempotency-key': key },
        })
      ).status,
    ).toBe(201);
    const before = await endpoints(acme);
    const other = await call('/webhooks', {
      token: acme.tokens.test,
      body: { url: `${PUBLIC_URL}/2`, events: ['package.sorting'] },
      headers: { 'idempotency-key': key },
    });
    const error = expectError(other, 422, 'validation_failed');
    expect(error.details?.[0]?.path).toBe('Idempotency-Key');
    // Another path with the same key is another request too.
    expectError(
      await call('/wf/rate', { token: acme.tokens.test, body: rateSampleAll(), headers: { 'idempotency-key': key } }),
      422,
      'validation_failed',
    );
    expect(await endpoints(acme)).toBe(before);
  });

  it('keys are per account and environment: another account or the live path with the same key runs its own request', async () => {
    const key = randomUUID();
    const body = { url: PUBLIC_URL, events: ['package.sorting'] };
    const mine = await call('/webhooks', { token: acme.tokens.test, body, headers: { 'idempotency-key': key } });
    const theirs = await call('/webhooks', { token: globex.tokens.test, body, headers: { 'idempotency-key': key } });
    const live = await call('/webhooks', { env: 'live', token: acme.tokens.live, body, headers: { 'idempotency-key': key } });
    for (const answer of [mine, theirs, live]) {
      expect(answer.status, answer.text).toBe(201);
      expect(answer.headers.get('idempotent-replayed')).toBeNull();
    }
    expect(new Set([mine.json.id, theirs.json.id, live.json.id]).size).toBe(3);
  });

  it('twelve concurrent requests with one key: one endpoint; the others are its replay or a 409 with Retry-After', async () => {
    const shipper = await newAccount('Concurrent keys');
    const key = randomUUID();
    const body = { url: PUBLIC_URL, events: ['package.sorting'] };
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        call('/webhooks', { token: shipper.tokens.test, body, headers: { 'idempotency-key': key } }),
      ),
    );
    const made = answers.filter((a) => a.status === 201 && a.headers.get('idempotent-replayed') === null);
    expect(made).toHaveLength(1);
    for (const answer of answers) {
      if (answer.status === 409) {
        expectError(answer, 409, 'conflict');
        expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      } else {
        expect(answer.status).toBe(201);
        expect(answer.json.id).toBe(made[0]?.json.id);
      }
    }
    expect(await endpoints(shipper)).toBe(1);
  });

  it('a failed answer is not kept: the corrected request with the same key runs', async () => {
    const key = randomUUID();
    const bad = await call('/wf/rate', {
      token: acme.tokens.test,
      body: { ...rateSampleAll(), weight: -1 },
      headers: { 'idempotency-key': key },
    });
    expectError(bad, 422, 'validation_failed');
    // The same bad request again is judged again (422), not replayed, and a new body under the key is a new request.
    expectError(
      await call('/wf/rate', {
        token: acme.tokens.test,
        body: { ...rateSampleAll(), weight: -1 },
        headers: { 'idempotency-key': key },
      }),
      422,
      'validation_failed',
    );
    const good = await call('/wf/rate', { token: acme.tokens.test, body: rateSampleAll(), headers: { 'idempotency-key': key } });
    expect(good.status, good.text).toBe(200);
    const replay = await call('/wf/rate', {
      token: acme.tokens.test,
      body: rateSampleAll(),
      headers: { 'idempotency-key': key },
    });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.json).toEqual(good.json);
  });

  it('refuses a key that is empty, too long or not visible ASCII, naming the header; GETs ignore it', async () => {
    for (const key of ['x'.repeat(256), 'has space', 'caf\u00e9']) {
      const answer = await call('/webhooks', {
        token: acme.tokens.test,
        body: { url: PUBLIC_URL, events: ['package.sorting'] },
        headers: { 'idempotency-key': key },
      });
      expect(expectError(answer, 422, 'validation_failed').details?.[0]?.path).toBe('Idempotency-Key');
    }
    const listed = await call('/webhooks', { method: 'GET', token: acme.tokens.test, headers: { 'idempotency-key': 'any' } });
    expect(listed.status).toBe(200);
  });
});
