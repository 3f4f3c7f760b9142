import { describe, expect, it } from 'vitest';
import { call } from './support/api';
import { checkExchange } from './support/contract';
import { portalCall, signUp, type PortalAnswer, type Shipper } from './support/portal';

// One resource, one shape: the portal's webhook routes run the API's own operations, so every answer is
// the API's, checked against the OpenAPI document as the API's own exchanges are (support/contract.ts), and equal
// to what the API answers for the same endpoint. Before, the portal answered {items}, {endpoint, secret} and
// {id, deleted: true} of its own.

const PUBLIC_URL = 'https://93.184.215.14/hooks/carrier';

async function portal(who: Shipper, method: string, path: string, body?: unknown): Promise<PortalAnswer> {
  const answer = await portalCall(who, method, path, body === undefined ? {} : { body });
  const drift = checkExchange({
    method,
    path: path.replace(/^\/portal-api/, ''),
    status: answer.status,
    contentType: answer.headers.get('content-type'),
    requestBody: body,
    responseBody: answer.json,
  });
  expect(drift, `${method} ${path}`).toEqual([]);
  return answer;
}

describe('the portal webhook routes answer the API shape', () => {
  it('create, list, read, edit, test, deliveries, redeliver, rotate and delete', async () => {
    const owner = await signUp('PortalHooks');
    const api = (path: string, method = 'GET') => call(path, { method, token: owner.tokens.test });

    const created = await portal(owner, 'POST', '/portal-api/webhooks', {
      url: PUBLIC_URL,
      events: ['package.sorting'],
      description: 'Sorter',
    });
    expect(created.status, created.text).toBe(201);
    expect(created.json).toMatchObject({ object: 'webhook_endpoint', url: PUBLIC_URL, description: 'Sorter', enabled: true });
    expect(created.json.secret).toMatch(/^whsec_/);
    const id = created.json.id as string;
    const base = `/portal-api/webhooks/${id}`;

    const list = await portal(owner, 'GET', '/portal-api/webhooks');
    expect(list.status).toBe(200);
    expect(list.json).toEqual((await api('/webhooks')).json);
    expect(list.json).toMatchObject({ object: 'list', has_more: false, data: [{ id }] });

    const one = await portal(owner, 'GET', base);
    expect(one.json).toEqual((await api(`/webhooks/${id}`)).json);
    expect(one.json).not.toHaveProperty('secret');

    const edited = await portal(owner, 'PATCH', base, { description: 'Sorter two' });
    expect(edited.status).toBe(200);
    expect(edited.json).toMatchObject({ id, description: 'Sorter two' });

    const test = await portal(owner, 'POST', `${base}/test`);
    expect(test.status, test.text).toBe(202);
    expect(test.json).toEqual({
      object: 'webhook_test',
      event_id: expect.stringMatching(/^evt_/),
      message_id: expect.stringMatching(/^msg_/),
      status: 'pending',
    });

    const deliveries = await portal(owner, 'GET', `${base}/deliveries?limit=5`);
    expect(deliveries.status).toBe(200);
    expect(deliveries.json).toEqual((await api(`/webhooks/${id}/deliveries?limit=5`)).json);
    expect(deliveries.json).toMatchObject({ object: 'list', has_more: false, next_cursor: null });

    const redelivered = await portal(owner, 'POST', `${base}/deliveries/${test.json.message_id}/redeliver`);
    expect(redelivered.status, redelivered.text).toBe(202);
    expect(redelivered.json).toEqual({ object: 'webhook_redelivery', message_id: test.json.message_id, status: 'pending' });

    // The portal's button sends no body: the API's default overlap (24 h).
    const rotated = await portal(owner, 'POST', `${base}/rotate-secret`);
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.json).toMatchObject({ id, object: 'webhook_endpoint' });
    expect(rotated.json.secret).toMatch(/^whsec_/);
    expect(rotated.json.secret).not.toBe(created.json.secret);
    const overlap = Date.parse(rotated.json.previous_secret_expires_at) - Date.now();
    expect(overlap).toBeGreaterThan(23 * 3_600_000);
    expect(overlap).toBeLessThanOrEqual(24 * 3_600_000);

    // DELETE: 204 with no body, as the API answers.
    const deleted = await portalCall(owner, 'DELETE', base);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await portal(owner, 'GET', base)).status).toBe(404);
    expect((await api(`/webhooks/${id}`)).status).toBe(404);
  });
});
