// Bounded refusal: the worst bodies the 5 MB limit allows, sent one at a time to the
// production server, each timed to its 4xx while the server's resident memory is sampled.
// Goal: every one refused in under 1 s, the server's peak RSS under 400 MB.
// Run by `npm run bench` (the `bounded` section of bench/run.ts): `npm run bench -- --only bounded`.
import { sampleMemory, peak, type ServerProcess } from './support/processes';

/** The API's body limit (lib/env.ts API_MAX_BODY_BYTES, 5 MB). */
const LIMIT = 5 * 1024 * 1024;
const BUDGET = LIMIT - 4 * 1024;

export interface WorstBodyResult {
  shape: string;
  path: string;
  bytes: number;
  status: number;
  /** The slowest of the tries, from the first byte sent to the whole answer read. */
  ms: number;
  answerBytes: number;
  peakRssMb: number;
}

/** `head` + as many `unit`s as fit in the budget (at most `max`), joined by commas + `tail`. */
function fill(head: string, unit: string, tail: string, max = Infinity): string {
  const count = Math.min(max, Math.floor((BUDGET - head.length - tail.length) / (unit.length + 1)));
  return head + Array(count).fill(unit).join(',') + tail;
}

/** `head` + as many distinct `"k<n>":0` members as fit in the budget + `tail`. */
function wideObject(head: string, tail: string): string {
  const members: string[] = [];
  let size = head.length + tail.length;
  for (let i = 0; ; i++) {
    const member = `"k${i}":0`;
    if (size + member.length + 1 > BUDGET) break;
    members.push(member);
    size += member.length + 1;
  }
  return head + members.join(',') + tail;
}

const MANIFEST_HEAD =
  '{"ManifestDate":"2026-11-23T08:00:00Z","ServiceName":"AirSkip","FromCompany":"Acme Parcels","ContainerID":"ULD-BOUNDED",' +
  '"ContainerLength":48,"ContainerWidth":40,"ContainerHeight":36,"ShipmentDescription":"Apparel","AWB":"000-12345675","Container Weight":120.5,';

/** The worst shapes, by route. Built once (tens of MB in all). */
export function worstBodies(base: string): { shape: string; path: string; body: string }[] {
  const manifest = `${base}/wf/manifest`;
  const webhooks = `${base}/webhooks`;
  return [
    // The largest array the limit allows: ~2.6 million numbers.
    {
      shape: 'ContainerDetails: 2.6 M numbers (5 MB)',
      path: manifest,
      body: fill(`${MANIFEST_HEAD}"ContainerDetails":[`, '1', ']}'),
    },
    // The largest that gets past the parser's value limit, so that validation sees it.
    {
      shape: 'ContainerDetails: 999,999 numbers',
      path: manifest,
      body: fill(`${MANIFEST_HEAD}"ContainerDetails":[`, '1', ']}', 999_999),
    },
    {
      shape: 'ContainerDetails: 582,000 NUL strings (5 MB)',
      path: manifest,
      body: fill(`${MANIFEST_HEAD}"ContainerDetails":[`, '"\\u0000"', ']}', 999_999),
    },
    {
      shape: 'ContainerDetails: 19,999 empty packages',
      path: manifest,
      body: fill(`${MANIFEST_HEAD}"ContainerDetails":[`, '{}', ']}', 19_999),
    },
    {
      shape: 'events: 2.6 M numbers (5 MB)',
      path: webhooks,
      body: fill('{"url":"https://93.184.215.14/h","events":[', '1', ']}'),
    },
    {
      shape: 'events: 999,999 strings',
      path: webhooks,
      body: fill('{"url":"https://93.184.215.14/h","events":[', '"x"', ']}', 999_999),
    },
    {
      shape: 'FromCompany: one 5 MB string',
      path: manifest,
      body: `${MANIFEST_HEAD}"FromCompany":"${'x'.repeat(BUDGET - MANIFEST_HEAD.length - 20)}"}`,
    },
    {
      shape: 'FromCompany: 5 MB of lone surrogates',
      path: manifest,
      body: `${MANIFEST_HEAD}"FromCompany":"${'\\ud800'.repeat(Math.floor((BUDGET - MANIFEST_HEAD.length - 20) / 6))}"}`,
    },
    {
      shape: 'FromCompany: an object of 450,000 keys (5 MB)',
      path: manifest,
      body: wideObject(`${MANIFEST_HEAD}"FromCompany":{`, '}}'),
    },
    { shape: 'nesting 2.6 M levels deep (5 MB)', path: manifest, body: `${'['.repeat(BUDGET / 2)}${']'.repeat(BUDGET / 2)}` },
  ];
}

/** Sends each worst body `tries` times to a running server; the server's memory is sampled throughout. */
export async function measureWorstBodies(options: {
  server: Pick<ServerProcess, 'url' | 'pid'>;
  headers: Record<string, string>;
  base?: string;
  tries?: number;
  log?: (line: string) => void;
}): Promise<WorstBodyResult[]> {
  const { server, headers, tries = 3 } = options;
  const results: WorstBodyResult[] = [];
  for (const { shape, path, body } of worstBodies(options.base ?? '/version-test/api/1.1')) {
    const memory = sampleMemory(server.pid, 20);
    let slowest = 0;
    let status = 0;
    let answerBytes = 0;
    for (let i = 0; i < tries; i++) {
      const started = performance.now();
      const response = await fetch(server.url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      });
      const text = await response.text();
      slowest = Math.max(slowest, performance.now() - started);
      status = response.status;
      answerBytes = Buffer.byteLength(text);
    }
    const result = {
      shape,
      path,
      bytes: Buffer.byteLength(body),
      status,
      ms: Math.round(slowest),
      answerBytes,
      peakRssMb: Math.round(peak(memory.stop())),
    };
    options.log?.(
      `worst body: ${shape} → ${status} in ${result.ms} ms (slowest of ${tries}), answer ${answerBytes} bytes, peak RSS ${result.peakRssMb} MB`,
    );
    results.push(result);
  }
  return results;
}
