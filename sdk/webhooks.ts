import { createHmac, timingSafeEqual } from 'node:crypto';
import type { webhooks } from './generated/schema.js';

/** Every event the service sends, by name. */
export type WebhookEventType = keyof webhooks;
/** The signed body of one event type (`package.sorting` has the contract's body; the others add `type`). */
export type WebhookPayload<T extends WebhookEventType = WebhookEventType> = T extends WebhookEventType
  ? webhooks[T]['post']['requestBody']['content']['application/json']
  : never;
/** A verified delivery: `type` read from what the signature covers, `id` the `webhook-id` to deduplicate on. */
export type VerifiedWebhook = {
  [T in WebhookEventType]: { id: string; timestamp: Date; type: T; data: WebhookPayload<T> };
}[WebhookEventType];

/** A delivery whose headers, timestamp or signature do not hold. Answer it with a 400 and do not act on it. */
export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

const TOLERANCE_SECONDS = 5 * 60;

function header(headers: HeaderBag, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers))
    if (key.toLowerCase() === name && value !== undefined) return Array.isArray(value) ? value.join(' ') : value;
  return undefined;
}

/**
 * Checks a delivery as Standard Webhooks specifies: `webhook-signature` holds one `v1,<base64>` per signing secret (two
 * while a rotated secret overlaps), each an HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` under the base64
 * key after `whsec_`; the timestamp must be within five minutes of this clock. Returns the parsed body.
 * Pass the body exactly as received (the raw text or bytes), before any JSON parsing.
 */
export function verifyWebhook<T = WebhookPayload>(secret: string, body: string | Uint8Array, headers: HeaderBag): T {
  return JSON.parse(verified(secret, body, headers).text) as T;
}

/** verifyWebhook, answering the event's type and id beside its body, as a union your code can switch on. */
export function verifyWebhookEvent(secret: string, body: string | Uint8Array, headers: HeaderBag): VerifiedWebhook {
  const { id, timestamp, text } = verified(secret, body, headers);
  const data = JSON.parse(text) as { type?: unknown };
  // Only package.sorting's body, fixed by the contract, has no `type`; every other event names itself in what is signed.
  const type = typeof data.type === 'string' ? data.type : 'package.sorting';
  return { id, timestamp, type, data } as VerifiedWebhook;
}

function verified(secret: string, body: string | Uint8Array, headers: HeaderBag) {
  const id = header(headers, 'webhook-id');
  const stamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !stamp || !signatures)
    throw new WebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature');
  if (!/^\d+$/.test(stamp)) throw new WebhookVerificationError('webhook-timestamp is not a number of seconds');
  const seconds = Number(stamp);
  if (Math.abs(Date.now() / 1_000 - seconds) > TOLERANCE_SECONDS)
    throw new WebhookVerificationError('webhook-timestamp is more than five minutes from this clock');
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  if (key.length === 0) throw new WebhookVerificationError('the secret is empty');
  const expected = createHmac('sha256', key).update(`${id}.${stamp}.`).update(body).digest();
  const matches = signatures.split(' ').some((candidate) => {
    const [version, signature] = candidate.split(',');
    if (version !== 'v1' || !signature) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new WebhookVerificationError('no signature matches the secret');
  return { id, timestamp: new Date(seconds * 1_000), text: typeof body === 'string' ? body : new TextDecoder().decode(body) };
}
