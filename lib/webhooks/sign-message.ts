import 'server-only';
import { Webhook } from 'standardwebhooks';

/** The three Standard Webhooks headers for one attempt, signed by the reference implementation. */
export function signMessage(options: { secret: string; messageId: string; timestamp: Date; body: string }) {
  const signature = new Webhook(options.secret).sign(options.messageId, options.timestamp, options.body);
  return {
    'webhook-id': options.messageId,
    'webhook-timestamp': String(Math.floor(options.timestamp.getTime() / 1_000)),
    'webhook-signature': signature,
  };
}
