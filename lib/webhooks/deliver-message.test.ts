import { describe, expect, it, vi } from 'vitest';
import type { ClaimedMessage } from './claim-messages';

// The worker frees an attempt's slot when deliverMessage says the receiver has answered (onAnswered): that has to come
// after the request and before the outcome is written, whatever the outcome.

const seen = vi.hoisted(() => ({ order: [] as string[], status: 200 }));

vi.mock('./send-webhook', () => ({
  sendWebhook: vi.fn(async () => {
    await new Promise((resolve) => setImmediate(resolve));
    seen.order.push('answered by the receiver');
    return { statusCode: seen.status, durationMs: 1, responseBody: '', error: null, retryAfter: null, requestHeaders: {} };
  }),
}));
vi.mock('./ssrf-guard', async (original) => ({
  ...(await original<typeof import('./ssrf-guard')>()),
  checkDestination: vi.fn(async () => ({ url: new URL('http://127.0.0.1:9/hook'), address: '127.0.0.1', family: 4 })),
}));
vi.mock('./secrets-keyring', () => ({ webhookSecretsKeyring: () => ({}) }));
vi.mock('./secret-box', async (original) => ({
  ...(await original<typeof import('./secret-box')>()),
  openSecret: () => `whsec_${Buffer.alloc(32, 7).toString('base64')}`,
}));
vi.mock('./record-attempt', async (original) => ({
  ...(await original<typeof import('./record-attempt')>()),
  recordAttempt: vi.fn(async () => {
    seen.order.push('outcome written');
  }),
}));

const { deliverMessage } = await import('./deliver-message');

const message: ClaimedMessage = {
  id: 'msg_1',
  endpointId: 'we_1',
  attemptCount: 0,
  redelivery: false,
  claimedBy: 'worker',
  leaseUntil: new Date(Date.now() + 60_000),
  url: 'http://127.0.0.1:9/hook',
  secret: 'sealed',
  previousSecret: null,
  enabled: true,
  environment: 'test',
  eventType: 'package.sorting',
  payload: { manifest_id: 'MAN-1', package_count: 1, tracking_numbers: ['T1'] },
  isTest: false,
};

const settings = {
  workerId: 'worker',
  timeoutMs: 1_000,
  schedule: [1_000],
  allowPrivate: true,
  disableAfterMs: 60_000,
  onAnswered: () => seen.order.push('slot freed'),
};

describe('deliverMessage', () => {
  it('frees the slot once the receiver has answered a success, before the batch of successes is written', async () => {
    seen.order = [];
    seen.status = 200;
    const result = await deliverMessage(message, {
      ...settings,
      recordSuccess: async () => {
        seen.order.push('outcome written');
      },
    });
    expect(result).toBe('succeeded');
    expect(seen.order).toEqual(['answered by the receiver', 'slot freed', 'outcome written']);
  });

  it('frees the slot before a failure and its retry are written', async () => {
    seen.order = [];
    seen.status = 500;
    expect(await deliverMessage(message, settings)).toBe('retry');
    expect(seen.order).toEqual(['answered by the receiver', 'slot freed', 'outcome written']);
  });
});
