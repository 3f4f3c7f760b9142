// npm run listen -- --forward-to http://localhost:4000/hook
//
// Develop a webhook receiver on a laptop without exposing it: polls the events API (GET /events) with an API
// token and forwards each new event to a local URL, signed with the endpoint's secret and the Standard Webhooks
// headers a real delivery carries, so the receiver's verification code runs unchanged.
//
//   --forward-to URL   where to POST each event (required)
//   --api URL          the service (default http://localhost:3000, or CARRIER_API_URL)
//   --token TOKEN      an API token (or CARRIER_API_TOKEN); ck_test_… polls the test path, ck_live_… the live one
//   --secret whsec_…   the endpoint's signing secret (or CARRIER_WEBHOOK_SECRET)
//   --type NAME        only this event type (repeatable)
//   --since ISO|now    forward events from this time on (default: now)
//   --interval MS      between polls (default 2000)
//
// webhook-id is the event id, so a receiver that deduplicates on it sees an event forwarded twice (a restart with
// an earlier --since) as the same message. Stop with Ctrl+C.
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Webhook } from 'standardwebhooks';

export interface ListenOptions {
  api: string;
  token: string;
  secret: string;
  forwardTo: string;
  types: string[];
  since: Date;
  intervalMs: number;
  log: (line: string) => void;
  signal?: AbortSignal;
}

interface Event {
  id: string;
  type: string;
  created_at: string;
  test: boolean;
  data: unknown;
}

/** Events committed late can carry an earlier created_at (their transaction began first): each poll looks back this far. */
const OVERLAP_MS = 60_000;
const FORWARD_TRIES = 4;

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

class Fatal extends Error {}

function basePath(token: string): string {
  if (token.startsWith('ck_test_')) return '/version-test/api/1.1';
  if (token.startsWith('ck_live_')) return '/api/1.1';
  throw new Fatal('the token must be an API token (ck_test_… or ck_live_…)');
}

/** One GET of the events API; 429, 503 and network errors wait (Retry-After when given) and try again. */
async function getJson(options: ListenOptions, path: string): Promise<unknown> {
  for (let attempt = 0; ; attempt += 1) {
    let response: Response;
    try {
      response = await fetch(new URL(basePath(options.token) + path, options.api), {
        headers: { authorization: `Token ${options.token}` },
        signal: options.signal,
      });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      const wait = Math.min(30_000, 500 * 2 ** attempt);
      options.log(`events API unreachable (${(error as Error).message}); retrying in ${wait} ms`);
      await sleep(wait, options.signal);
      continue;
    }
    if (response.ok) return response.json();
    const text = await response.text();
    if (response.status === 429 || response.status >= 500) {
      const retryAfter = Number(response.headers.get('retry-after'));
      const wait = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1_000 : Math.min(30_000, 500 * 2 ** attempt);
      options.log(`events API answered ${response.status}; retrying in ${wait} ms`);
      await sleep(wait, options.signal);
      continue;
    }
    throw new Fatal(`events API answered ${response.status}: ${text.slice(0, 500)}`);
  }
}

/** The events created at or after `from`, oldest first (the API lists newest first: walk back until older). */
async function eventsSince(options: ListenOptions, from: Date): Promise<Event[]> {
  const found: Event[] = [];
  let cursor: string | null = null;
  for (;;) {
    const query = new URLSearchParams({ limit: '100' });
    if (cursor) query.set('cursor', cursor);
    const page = (await getJson(options, `/events?${query}`)) as { data: Event[]; has_more: boolean; next_cursor: string | null };
    for (const event of page.data) {
      if (new Date(event.created_at) < from) return found.reverse();
      found.push(event);
    }
    if (!page.has_more || !page.next_cursor) return found.reverse();
    cursor = page.next_cursor;
  }
}

/** POSTs one event, signed as a delivery is; a refused or failed attempt is tried again a few times, then skipped. */
async function forward(options: ListenOptions, event: Event): Promise<boolean> {
  const body = JSON.stringify(event.data);
  for (let attempt = 1; attempt <= FORWARD_TRIES; attempt += 1) {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'Carrier-Listen/1.0',
      'webhook-id': event.id,
      'webhook-timestamp': String(Math.floor(Date.now() / 1_000)),
      'webhook-signature': new Webhook(options.secret).sign(event.id, new Date(), body),
      'x-carrier-event': event.type,
    };
    if (event.test) headers['x-carrier-test-event'] = 'true';
    try {
      const response = await fetch(options.forwardTo, {
        method: 'POST',
        headers,
        body,
        signal: options.signal,
        redirect: 'manual',
      });
      await response.arrayBuffer();
      if (response.status >= 200 && response.status < 300) {
        options.log(`${event.type} ${event.id} → ${response.status}`);
        return true;
      }
      options.log(`${event.type} ${event.id} → ${response.status} (try ${attempt} of ${FORWARD_TRIES})`);
    } catch (error) {
      if (options.signal?.aborted) return false;
      options.log(`${event.type} ${event.id} → ${(error as Error).message} (try ${attempt} of ${FORWARD_TRIES})`);
    }
    if (attempt < FORWARD_TRIES) await sleep(500 * 2 ** (attempt - 1), options.signal);
  }
  options.log(`${event.type} ${event.id} not forwarded; it stays readable at GET /events/${event.id}`);
  return false;
}

/** Polls and forwards until the signal aborts. Each event is forwarded once per run, in the order it was created. */
export async function listen(options: ListenOptions): Promise<void> {
  basePath(options.token);
  new Webhook(options.secret); // a malformed secret fails here, before any poll
  const forwarded = new Map<string, number>(); // event id → created_at (ms), pruned past the look-back
  let newest = options.since.getTime();
  while (!options.signal?.aborted) {
    const from = new Date(Math.max(options.since.getTime(), newest - OVERLAP_MS));
    for (const event of await eventsSince(options, from)) {
      if (forwarded.has(event.id) || (options.types.length > 0 && !options.types.includes(event.type))) continue;
      const created = new Date(event.created_at).getTime();
      forwarded.set(event.id, created);
      newest = Math.max(newest, created);
      await forward(options, event);
      if (options.signal?.aborted) return;
    }
    for (const [id, created] of forwarded) if (created < newest - 2 * OVERLAP_MS) forwarded.delete(id);
    await sleep(options.intervalMs, options.signal);
  }
}

function main(): void {
  const { values } = parseArgs({
    options: {
      'forward-to': { type: 'string' },
      api: { type: 'string' },
      token: { type: 'string' },
      secret: { type: 'string' },
      type: { type: 'string', multiple: true },
      since: { type: 'string' },
      interval: { type: 'string' },
    },
  });
  const fail = (message: string): never => {
    console.error(`listen: ${message}`);
    process.exit(2);
  };
  const forwardTo = values['forward-to'] ?? fail('--forward-to URL is required (e.g. --forward-to http://localhost:4000/hook)');
  if (!URL.canParse(forwardTo) || !/^https?:$/.test(new URL(forwardTo).protocol))
    fail(`--forward-to is not an http(s) URL: ${forwardTo}`);
  const api = values.api ?? process.env.CARRIER_API_URL ?? 'http://localhost:3000';
  if (!URL.canParse(api)) fail(`--api is not a URL: ${api}`);
  const token = values.token ?? process.env.CARRIER_API_TOKEN ?? fail('an API token is required: --token or CARRIER_API_TOKEN');
  const secret =
    values.secret ??
    process.env.CARRIER_WEBHOOK_SECRET ??
    fail("the endpoint's secret is required: --secret whsec_… or CARRIER_WEBHOOK_SECRET");
  const since = !values.since || values.since === 'now' ? new Date() : new Date(values.since);
  if (Number.isNaN(since.getTime())) fail(`--since is not a time: ${values.since}`);
  const intervalMs = values.interval === undefined ? 2_000 : Number(values.interval);
  if (!Number.isInteger(intervalMs) || intervalMs < 100 || intervalMs > 3_600_000)
    fail('--interval must be a whole number of milliseconds, 100 to 3600000');
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  process.once('SIGTERM', () => controller.abort());
  const log = (line: string) => console.log(`${new Date().toISOString()} ${line}`);
  log(`forwarding events from ${api} to ${forwardTo}`);
  listen({ api, token, secret, forwardTo, types: values.type ?? [], since, intervalMs, log, signal: controller.signal }).then(
    () => log('stopped'),
    (error: unknown) => {
      if (controller.signal.aborted) return log('stopped');
      fail(error instanceof Fatal ? error.message : String(error));
    },
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
