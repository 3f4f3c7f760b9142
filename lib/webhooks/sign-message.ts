import 'server-only';
import { Webhook } from 'standardwebhooks';

/** Standard Webhooks headers; during a rotation's overlap, one `v1,` signature per secret. */
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
