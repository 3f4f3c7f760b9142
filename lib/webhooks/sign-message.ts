import 'server-only';
import { Webhook } from 'standardwebhooks';

/**
 * The three Standard Webhooks headers for one attempt, signed by the reference implementation. With
 * several secrets (a rotation's overlap) `webhook-signature` carries one `v1,` signature per secret,
 * space-separated, as the specification allows; a receiver's verify() accepts any one that matches.
 */
export function signMessage(options: { secrets: readonly string[]; messageId: string; timestamp: Date; body: string }) {
  const signatures = options.secrets.map((secret) =>
    new Webhook(secret).sign(options.messageId, options.timestamp, options.body),
  );
  return {
    'webhook-id': options.messageId,
    'webhook-timestamp': String(Math.floor(options.timestamp.getTime() / 1_000)),
    'webhook-signature': signatures.join(' '),
  };
}
