import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, call, newAccount, pathFor, type TestAccount } from './support/api';

// The webhook endpoint API under generated and mutated bodies, ids, cursors and limits: never a
// 5xx, every 4xx in the envelope with the failing paths. URLs are IP literals or not URLs at all,
// so the SSRF guard never has a name to resolve (no DNS traffic from a fuzz run).

let owners: TestAccount[] = [];
let used = 0;
const owner = () => owners[Math.floor(used++ / 200) % owners.length];
let endpointId = '';

beforeAll(async () => {
  owners = await Promise.all(Array.from({ length: 6 }, () => newAccount('FuzzHooks')));
  const created = await call('/webhooks', {
    token: owners[0].tokens.test,
    body: { url: 'https://93.184.215.14/hook', events: ['package.sorting'] },
  });
  expect(created.status).toBe(201);
  endpointId = created.json.id;
});

function assertEnvelope(result: { status: number; text: string }, sent: string): void {
  if (result.status >= 500) throw new Error(`5xx for ${sent.slice(0, 300)}: ${result.text}`);
  if (result.status < 400) return;
  const body = JSON.parse(result.text) as {
    error?: { code?: unknown; message?: unknown; details?: { path: unknown; message: unknown }[] };
  };
  expect(typeof body.error?.code).toBe('string');
  expect(typeof body.error?.message).toBe('string');
  if (result.status === 422) {
    expect(body.error!.details!.length).toBeGreaterThan(0);
    for (const detail of body.error!.details!)
      expect(typeof detail.path === 'string' && typeof detail.message === 'string').toBe(true);
  }
}

const url = fc.oneof(
  fc.constantFrom(
    'https://93.184.215.14/a',
    'http://10.0.0.1/x',
    'http://169.254.169.254/latest',
    'http://[::1]/',
    'ftp://93.184.215.14/',
    'https://user:pw@93.184.215.14/',
    'https://93.184.215.14/#frag',
    '',
  ),
  fc.string({ maxLength: 40 }).filter((s) => !s.includes('.')),
  fc.jsonValue({ maxDepth: 1 }),
);

const body = fc.record(
  {
    url,
    events: fc.oneof(
      fc.constant(['package.sorting']),
      fc.array(fc.string({ maxLength: 20 }), { maxLength: 3 }),
      fc.jsonValue({ maxDepth: 1 }),
    ),
    description: fc.oneof(fc.string({ maxLength: 300 }), fc.jsonValue({ maxDepth: 1 })),
    enabled: fc.oneof(fc.boolean(), fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 1 })),
    extra: fc.jsonValue({ maxDepth: 1 }),
  },
  { requiredKeys: [] },
);

const garbage = fc.oneof(
  body.map((b) => JSON.stringify(b)),
  fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 100 }),
);

async function send(path: string, method: string, raw: string | undefined, token: string) {
  const response = await fetch(baseUrl + pathFor('test', path), {
    method,
    headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
    body: raw,
  });
  return { status: response.status, text: await response.text() };
}

describe('fuzzing the webhook endpoint API', () => {
  it('never answers 5xx to generated create and update bodies', async () => {
    await fc.assert(
      fc.asyncProperty(garbage, async (raw) => {
        const account = owner();
        assertEnvelope(await send('/webhooks', 'POST', raw, account.tokens.test), raw);
      }),
      { numRuns: 250 },
    );
    await fc.assert(
      fc.asyncProperty(garbage, async (raw) =>
        assertEnvelope(await send(`/webhooks/${endpointId}`, 'PATCH', raw, owners[0].tokens.test), raw),
      ),
      { numRuns: 250 },
    );
    const rotation = fc.oneof(
      garbage,
      fc
        .record({
          grace_period_seconds: fc.oneof(fc.integer(), fc.double(), fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 1 })),
        })
        .map((b) => JSON.stringify(b)),
    );
    await fc.assert(
      fc.asyncProperty(rotation, async (raw) =>
        assertEnvelope(await send(`/webhooks/${endpointId}/rotate-secret`, 'POST', raw, owners[0].tokens.test), raw),
      ),
      { numRuns: 150 },
    );
  });

  it('never answers 5xx to generated ids, cursors and limits', async () => {
    const segment = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.constantFrom('we_', 'msg_', 'att_', '%00', '..', '%2F', endpointId),
    );
    await fc.assert(
      fc.asyncProperty(
        segment,
        segment,
        fc.string({ maxLength: 30 }),
        fc.string({ maxLength: 10 }),
        async (id, delivery, cursor, limit) => {
          const account = owners[0];
          const safe = (s: string) => encodeURIComponent(s);
          for (const [path, method] of [
            [`/webhooks/${safe(id)}`, 'GET'],
            [`/webhooks/${safe(id)}/deliveries?cursor=${safe(cursor)}&limit=${safe(limit)}`, 'GET'],
            [`/webhooks/${safe(id)}/deliveries/${safe(delivery)}/redeliver`, 'POST'],
            [`/webhooks?cursor=${safe(cursor)}&limit=${safe(limit)}`, 'GET'],
          ] as const) {
            assertEnvelope(
              await send(path, method, method === 'POST' ? '{}' : undefined, account.tokens.test),
              `${method} ${path}`,
            );
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
