import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { signMessage } from './sign-message';

// The receiver's side is the public `standardwebhooks` package, as shippers use it.
const OLD = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
const NEW = `whsec_${Buffer.alloc(32, 2).toString('base64')}`;
const OTHER = `whsec_${Buffer.alloc(32, 3).toString('base64')}`;
const body = '{"manifest_id":"MAN-1","package_count":1,"tracking_numbers":["T1"]}';

function headers(secrets: string[]) {
  return signMessage({ secrets, messageId: 'msg_1', timestamp: new Date(), body });
}

describe('signMessage', () => {
  it('during an overlap carries one v1 signature per secret, and either secret verifies', () => {
    const signed = headers([NEW, OLD]);
    expect(signed['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+ v1,[A-Za-z0-9+/=]+$/);
    expect(() => new Webhook(NEW).verify(body, signed)).not.toThrow();
    expect(() => new Webhook(OLD).verify(body, signed)).not.toThrow();
    expect(() => new Webhook(OTHER).verify(body, signed)).toThrow();
  });

  it('with one secret carries one signature, which the old secret does not verify', () => {
    const signed = headers([NEW]);
    expect(signed['webhook-signature'].split(' ')).toHaveLength(1);
    expect(() => new Webhook(NEW).verify(body, signed)).not.toThrow();
    expect(() => new Webhook(OLD).verify(body, signed)).toThrow();
  });
});
