import { beforeAll, describe, expect, it } from 'vitest';
import { createApiToken } from '@/lib/accounts/create-api-token';
import { API_SCOPES } from '@/lib/auth/scopes';
import { issueDueInvoice } from '@/lib/billing/invoices';
import { pgPool } from '@/lib/db';
import { queryRows, sql } from '@/lib/sql';
import { baseUrl, call, expectError, newAccount, pathFor, type Env, type TestAccount } from './support/api';
import { insertEntries } from './support/ledger';
import { addMember, portalCall, signUp, type Shipper } from './support/portal';

// Invoices against a hostile caller: another account's and the other environment's invoice are a plain 404 on every
// invoice path (JSON, CSV, PDF, and through the portal), forged and malformed ids are 404 or 422 and never 5xx, a
// period closed twice is one invoice, a token without billing:read is 403 naming it, roles without billing are 403 in
// the portal, and the test-path close does not exist in live.

let owner: Shipper;
let stranger: TestAccount;
const invoiceIds: Record<Env, string> = { test: '', live: '' };

const get = (account: TestAccount, path: string, env: Env, token = account.tokens[env]) =>
  fetch(baseUrl + pathFor(env, path), { headers: { authorization: `Token ${token}` } }).then(async (r) => ({
    status: r.status,
    text: await r.text(),
    type: r.headers.get('content-type'),
  }));

beforeAll(async () => {
  owner = await signUp('Invoicer');
  stranger = await newAccount('Invoice stranger');
  for (const env of ['test', 'live'] as const) {
    await insertEntries({ accountId: owner.accountId, environment: env }, [
      { kind: 'charge', amount: '3.00', occurredAt: new Date('2026-07-04T00:00:00Z') },
    ]);
    await issueDueInvoice({ accountId: owner.accountId, environment: env, now: new Date() });
    // Issued by this call or by another file's servers' periodic job: either way, one.
    const [row] = await queryRows(
      pgPool(),
      sql<{
        id: string;
      }>`SELECT id FROM invoices WHERE account_id = ${owner.accountId}::uuid AND environment = ${env}::"Environment"`,
    );
    invoiceIds[env] = row?.id ?? '';
    expect(invoiceIds[env]).toMatch(/^inv_/);
  }
});

const PATHS = (id: string) => [`/invoices/${id}`, `/invoices/${id}/lines`, `/invoices/${id}/document`];

describe('whose invoice', () => {
  it("another account's invoice is 404 on every path, in both environments", async () => {
    for (const env of ['test', 'live'] as const) {
      for (const path of PATHS(invoiceIds[env])) {
        const answer = await get(stranger, path, env);
        expect(answer.status, `${env} ${path}: ${answer.text}`).toBe(404);
        expect(JSON.parse(answer.text).error.code).toBe('not_found');
      }
      const list = await call('/invoices', { env, method: 'GET', token: stranger.tokens[env] });
      expect(list.json.data).toEqual([]);
    }
  });

  it("the other environment's invoice is 404: a test token does not read live invoices, nor the reverse", async () => {
    for (const path of PATHS(invoiceIds.live)) expect((await get(owner, path, 'test')).status).toBe(404);
    for (const path of PATHS(invoiceIds.test)) expect((await get(owner, path, 'live')).status).toBe(404);
  });

  it('forged, malformed and oversized ids are 404 (or the path refusal), never 5xx', async () => {
    const forged = [
      'inv_000000000000000000000000',
      invoiceIds.live.toUpperCase(),
      `${invoiceIds.live}x`,
      'inv_',
      "inv_' OR '1'='1",
      'inv_%00',
      '..%2F..%2Finvoices',
      `inv_${'f'.repeat(5_000)}`,
      'close',
    ];
    for (const id of forged) {
      for (const path of PATHS(id)) {
        const answer = await get(owner, path, 'live');
        expect(answer.status, `${path}: ${answer.text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
        expect(answer.status, `${path}`).toBeLessThan(500);
      }
    }
  });

  it('the portal mounts answer 404 for the other account and the other environment', async () => {
    const other = await signUp('Outsider');
    expect((await portalCall(other, 'GET', `/portal-api/invoices/${invoiceIds.test}`)).status).toBe(404);
    expect((await portalCall(owner, 'GET', `/portal-api/invoices/${invoiceIds.test}`, { env: 'live' })).status).toBe(404);
    const own = await portalCall(owner, 'GET', `/portal-api/invoices/${invoiceIds.test}`);
    expect(own.status, own.text).toBe(200);
    expect(own.json.id).toBe(invoiceIds.test);
  });
});

describe('scopes and roles', () => {
  it('a token without billing:read is 403 insufficient_scope naming it on every invoice operation; with it alone, 200', async () => {
    const without = await createApiToken({
      accountId: owner.accountId,
      environment: 'test',
      scopes: API_SCOPES.filter((scope) => scope !== 'billing:read'),
    });
    const only = await createApiToken({ accountId: owner.accountId, environment: 'test', scopes: ['billing:read'] });
    for (const path of ['/invoices', ...PATHS(invoiceIds.test)]) {
      const refused = await get(owner, path, 'test', without.token);
      expect(refused.status, path).toBe(403);
      expect(JSON.parse(refused.text).error).toMatchObject({ code: 'insufficient_scope', required_scope: 'billing:read' });
      expect((await get(owner, path, 'test', only.token)).status, path).toBe(200);
    }
    const close = await call('/invoices/close', { env: 'test', token: without.token, body: {} });
    expectError(close, 403, 'insufficient_scope');
  });

  it('owners and admins read billing in the portal; developers, operators and viewers are 403', async () => {
    for (const role of ['admin', 'developer', 'operator', 'viewer'] as const) {
      const member = await addMember(owner, role);
      const list = await portalCall(member, 'GET', '/portal-api/invoices');
      const setting = await portalCall(member, 'PUT', '/portal-api/settings/billing', { body: { period: 'week' } });
      if (role === 'admin') {
        expect(list.status, list.text).toBe(200);
        expect(setting.status, setting.text).toBe(200);
      } else {
        expect(list.status, `${role}: ${list.text}`).toBe(403);
        expect(list.json.error.code).toBe('forbidden');
        expect(setting.status, role).toBe(403);
      }
    }
    const put = await portalCall(owner, 'PUT', '/portal-api/settings/billing', { body: { period: 'month' } });
    expect(put.json).toMatchObject({ period: 'month' });
  });

  it('the billing setting refuses a period it does not know, naming the field', async () => {
    for (const body of [{ period: 'day' }, { period: 7 }, {}]) {
      const answer = await portalCall(owner, 'PUT', '/portal-api/settings/billing', { body });
      expect(answer.status, answer.text).toBe(422);
      expect(answer.json.error.details?.[0]?.path).toBe('period');
    }
    // A field it does not know is named too (the body's own refusal).
    const extra = await portalCall(owner, 'PUT', '/portal-api/settings/billing', { body: { period: 'month', extra: 1 } });
    expect(extra.status).toBe(422);
    expect(extra.text).toContain('extra');
  });
});

describe('closing', () => {
  it('a period closed twice is one invoice: the second issue finds it billed and does nothing', async () => {
    const account = await newAccount('Closed twice');
    const scope = { accountId: account.accountId, environment: 'live' as const };
    // A period that ends in the future, closed at a 'now' after it: no server's periodic job (on the real clock) can
    // issue it first, so these two calls are the only issuers.
    await insertEntries(scope, [{ kind: 'charge', amount: '8.00', occurredAt: new Date('2099-05-05T00:00:00Z') }]);
    const now = new Date('2099-06-02T00:00:00Z');
    const [first, second] = await Promise.all([issueDueInvoice({ ...scope, now }), issueDueInvoice({ ...scope, now })]);
    expect([first, second].filter(Boolean)).toHaveLength(1);
    expect(await issueDueInvoice({ ...scope, now })).toBeNull();
    const rows = await queryRows(pgPool(), sql`SELECT id FROM invoices WHERE account_id = ${account.accountId}::uuid`);
    expect(rows).toHaveLength(1);
  });

  it('a period not over (or within its grace) is not issued', async () => {
    const account = await newAccount('Not due');
    const scope = { accountId: account.accountId, environment: 'live' as const };
    // In the future, as above: only these calls decide.
    await insertEntries(scope, [{ kind: 'charge', amount: '8.00', occurredAt: new Date('2099-05-31T23:00:00Z') }]);
    expect(await issueDueInvoice({ ...scope, now: new Date('2099-05-31T23:30:00Z') })).toBeNull();
    expect(await issueDueInvoice({ ...scope, now: new Date('2099-06-01T00:04:59Z') })).toBeNull();
    expect(await issueDueInvoice({ ...scope, now: new Date('2099-06-01T00:05:00Z') })).toMatchObject({ number: 1 });
  });

  it('the close does not exist in live: 404, and nothing is issued', async () => {
    const account = await newAccount('Live close');
    await insertEntries({ accountId: account.accountId, environment: 'live' }, [
      { kind: 'charge', amount: '1.00', occurredAt: new Date(Date.now() - 1_000) },
    ]);
    const answer = await call('/invoices/close', { env: 'live', token: account.tokens.live, body: {} });
    expectError(answer, 404, 'not_found');
    const rows = await queryRows(pgPool(), sql`SELECT id FROM invoices WHERE account_id = ${account.accountId}::uuid`);
    expect(rows).toEqual([]);
  });
});
