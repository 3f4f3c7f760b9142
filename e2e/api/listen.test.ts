import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { call, newAccount, baseUrl, type TestAccount } from './support/api';
import { packageSample } from './support/samples';
import { spawnProcess, type Spawned } from './support/spawn';
import { WebhookReceiver, waitFor } from './support/webhook-receiver';

// `npm run listen` end to end: the CLI polls the events API of the suite's server with a test token
// and forwards each new event to a receiver on loopback, which verifies every request with the public
// `standardwebhooks` package against the endpoint's secret, as a shipper's receiver would.

const SECRET = `whsec_${Buffer.from('listen-test-secret-0123456789ab').toString('base64')}`;
const suffix = Date.now().toString(36).toUpperCase();

let acme: TestAccount;
let receiver: WebhookReceiver;
let cli: Spawned | undefined;

function startCli(args: string[]) {
  return spawnProcess({
    name: 'listen',
    args: ['--import', 'tsx', 'scripts/listen.ts', ...args],
    env: { ...process.env, CARRIER_API_URL: baseUrl, CARRIER_API_TOKEN: acme.tokens.test, CARRIER_WEBHOOK_SECRET: SECRET },
  });
}

beforeAll(async () => {
  acme = await newAccount('Listener');
  receiver = await new WebhookReceiver().start();
});
afterAll(async () => {
  await cli?.stop('SIGINT');
  await receiver.stop();
});

describe('npm run listen', () => {
  it('forwards each new event once, oldest first, signed so that standardwebhooks verifies it', async () => {
    // Before the CLI starts: not forwarded (it forwards from now on).
    expect((await call('/wf/package', { token: acme.tokens.test, body: packageSample(`LSN${suffix}0`) })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 50));
    // The receiver refuses the first attempt of the second event: the CLI tries that event again.
    receiver.on('/hook', SECRET, (n) => ({ status: n === 1 ? 500 : 204 }));
    cli = startCli(['--forward-to', receiver.url('/hook'), '--interval', '200']);
    await waitFor(() => cli!.output().includes('forwarding events'), { what: 'the CLI to start' });
    const tracking = [1, 2, 3].map((n) => `LSN${suffix}${n}`);
    for (const trackingNumber of tracking) {
      expect((await call('/wf/package', { token: acme.tokens.test, body: packageSample(trackingNumber) })).status).toBe(200);
    }
    await waitFor(() => receiver.at('/hook').length >= 4, { timeoutMs: 20_000, what: 'four requests at the receiver' });
    await new Promise((r) => setTimeout(r, 1_000)); // nothing more arrives
    const got = receiver.at('/hook');
    expect(got.map((r) => r.verifyError)).toEqual([null, null, null, null]);
    const accepted = got.filter((_, n) => n !== 1);
    expect(accepted.map((r) => (JSON.parse(r.body) as { tracking_numbers: string[] }).tracking_numbers[0])).toEqual(tracking);
    // The refused attempt was the second event, sent again with the same webhook-id.
    expect(got[1].headers['webhook-id']).toBe(got[2].headers['webhook-id']);
    expect(new Set(accepted.map((r) => r.headers['webhook-id'])).size).toBe(3);
    for (const request of accepted) {
      expect(request.headers['x-carrier-event']).toBe('package.sorting');
      // The body is the event's data as GET /events/{id} shows it: what a real delivery sends.
      const event = await call(`/events/${String(request.headers['webhook-id'])}`, { method: 'GET', token: acme.tokens.test });
      expect(event.status).toBe(200);
      expect(request.body).toBe(JSON.stringify(event.json.data));
      expect(() => new Webhook(SECRET).verify(request.body, request.headers as Record<string, string>)).not.toThrow();
    }
    expect(await cli.stop('SIGINT')).toBe(0);
    // The exit can be seen before the last output is read from the pipe: wait for the line.
    await waitFor(() => cli!.output().includes('stopped'), { timeoutMs: 5_000, what: 'the CLI to say it stopped' });
  }, 40_000);

  it('refuses to start without what it needs, in one line each', async () => {
    for (const [args, message] of [
      [[], '--forward-to URL is required'],
      [['--forward-to', 'ftp://x'], 'not an http(s) URL'],
      [['--forward-to', 'http://127.0.0.1:1/h', '--interval', '5'], '--interval must be'],
      [['--forward-to', 'http://127.0.0.1:1/h', '--since', 'yesterday'], '--since is not a time'],
    ] as const) {
      const run = startCli([...args]);
      expect(await run.exited, run.output()).toBe(2);
      expect(run.output().trim().split('\n')).toEqual([expect.stringContaining(message)]);
    }
    const badToken = spawnProcess({
      name: 'listen',
      args: ['--import', 'tsx', 'scripts/listen.ts', '--forward-to', 'http://127.0.0.1:1/h'],
      env: {
        ...process.env,
        CARRIER_API_URL: baseUrl,
        CARRIER_API_TOKEN: `ck_test_${'Z'.repeat(43)}`,
        CARRIER_WEBHOOK_SECRET: SECRET,
      },
    });
    expect(await badToken.exited).toBe(2);
    expect(badToken.output()).toContain('events API answered 401');
  }, 40_000);
});
