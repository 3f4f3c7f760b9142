import 'server-only';
import { randomBytes } from 'node:crypto';

/** A signing secret as Standard Webhooks expects it: `whsec_` + base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}
