// `npm run bench -- --only servers` (issue 12): the rate operation through our hand-written HTTP
// pipeline against the same work on Hono (@hono/node-server) and on Fastify, in one run, under the
// rate benchmark's load. Contestants, each a child process with `npm start`'s V8 flags:
//   production  `npm start`'s command (supervisor + one worker: our pipeline beside Next), as the rate benchmark
//   pipeline    our pipeline alone on node:http (bench/frameworks/pipeline.ts): the frameworks' harness, our code
//   hono        bench/frameworks/hono.ts      fastify   bench/frameworks/fastify.ts
//   baseline    bench/baselines/server.ts (BASELINE=rate): the quote with nothing around it
// Before any load, the same probes go to every contestant but the baseline (a quote, no token, bad
// JSON, a body past the shape caps, one past the size limit, a validation failure, OPTIONS, an
// unknown path, a foreign request id, the wrong environment) and their answers are compared with
// the production server's: the comparison is only fair if the work is the same.
// Every contestant is started once and stays up, idle unless it is being measured. Then ROUNDS
// rounds; in each, every contestant in turn is warmed up and measured (one under load at a time), in
// an order that rotates and reverses from round to round, because this machine is shared and
// noisy: interleaved short measurements meet the same background load. Medians over the rounds decide.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { LoadOptions, LoadResult } from './support/load';
import { runLoad } from './support/load';
import { peak, sampleMemory, type ServerProcess } from './support/processes';

export type ContestantKey = 'production' | 'pipeline' | 'hono' | 'fastify' | 'baseline';

export interface Contestant {
  key: ContestantKey;
  name: string;
  start(): Promise<ServerProcess>;
}

export interface Measurement {
  round: number;
  position: number;
  rps: number;
  p50: number;
  p99: number;
  /** autocannon's own p99 (whole milliseconds). */
  p99Histogram: number;
  peakRssMb: number;
  errors: number;
  non2xx: number;
  /** The machine's 1-minute load average right after the measurement. */
  load: string;
  /**
   * CPU time the server process (all its threads) spent per request answered during the measurement,
   * in µs: unlike req/s and p99 it hardly depends on how much of the CPU the machine's other load left us.
   */
  cpuUsPerRequest: number;
}

export interface Summary {
  key: ContestantKey;
  name: string;
  rps: number;
  p50: number;
  p99: number;
  peakRssMb: number;
  cpuUsPerRequest: number;
  runs: Measurement[];
}

export interface ProbeAnswer {
  status: number;
  code?: string;
  headers: Record<string, string | null>;
  body: string;
}

export interface ServersResult {
  summaries: Summary[];
  probes: { name: string; answers: Partial<Record<ContestantKey, ProbeAnswer>> }[];
  report: string;
  /** Within 10 % of production in both req/s and p99 (the issue's test). */
  within10: ContestantKey[];
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? Number.NaN) : ((sorted[mid - 1] ?? Number.NaN) + (sorted[mid] ?? Number.NaN)) / 2;
};

/** Round r's order: rotated by r, and reversed every other round. */
export function roundOrder<T>(items: readonly T[], round: number): T[] {
  const rotated = items.map((_, i) => items[(i + round) % items.length]).filter((x): x is T => x !== undefined);
  return round % 2 === 1 ? rotated.reverse() : rotated;
}

export async function measureServers(options: {
  contestants: Contestant[];
  load: Omit<LoadOptions, 'url' | 'durationSeconds'>;
  rounds: number;
  durationSeconds: number;
  warmupSeconds: number;
  ratePath: string;
  livePath: string;
  token: string;
  maxBodyBytes: number;
  log: (message: string) => void;
}): Promise<ServersResult> {
  const { contestants, load, rounds, durationSeconds, warmupSeconds, log } = options;

  // Every contestant is started once and stays up (idle) while the others are measured, so that
  // many short rounds can interleave: each then meets the same mix of the machine's other load.
  const servers = new Map<ContestantKey, ServerProcess>();
  const probes = makeProbes(options);
  const probeResults: ServersResult['probes'] = probes.map((p) => ({ name: p.name, answers: {} }));
  const runs = new Map<ContestantKey, Measurement[]>(contestants.map((c) => [c.key, []]));
  try {
    for (const contestant of contestants) {
      log(`starting ${contestant.key}`);
      const server = await contestant.start();
      servers.set(contestant.key, server);
      await check(server, load);
      // --- The same answers? -----------------------------------------------------------------
      if (contestant.key === 'baseline') continue;
      for (const [i, probe] of probes.entries()) {
        const result = probeResults[i];
        if (result) result.answers[contestant.key] = await ask(server.url, probe);
      }
    }

    // --- The load ------------------------------------------------------------------------------
    for (let round = 0; round < rounds; round++) {
      const order = roundOrder(contestants, round);
      log(`servers round ${round + 1}/${rounds}: ${order.map((c) => c.key).join(', ')}`);
      for (const [position, contestant] of order.entries()) {
        const server = servers.get(contestant.key);
        if (!server) continue;
        if (warmupSeconds > 0) await runLoad({ ...load, url: server.url, durationSeconds: warmupSeconds });
        const memory = sampleMemory(server.pid);
        const cpuBefore = cpuSeconds(server.pid);
        const result: LoadResult = await runLoad({ ...load, url: server.url, durationSeconds, exactLatency: true });
        const cpu = cpuSeconds(server.pid) - cpuBefore;
        const samples = memory.stop();
        const m: Measurement = {
          round: round + 1,
          position: position + 1,
          rps: result.rps,
          p50: result.exact?.p50 ?? result.p50,
          p99: result.exact?.p99 ?? result.p99,
          p99Histogram: result.p99,
          peakRssMb: peak(samples),
          errors: result.errors,
          non2xx: result.non2xx,
          load: loadAverage(),
          cpuUsPerRequest: result.requests > 0 ? Math.round((cpu * 1e6) / result.requests) : Number.NaN,
        };
        runs.get(contestant.key)?.push(m);
        log(`  ${contestant.key}: ${Math.round(m.rps)} req/s, p50 ${m.p50} ms, p99 ${m.p99} ms, peak RSS ${Math.round(m.peakRssMb)} MB, CPU ${m.cpuUsPerRequest} µs/request, load ${m.load}${m.errors + m.non2xx ? `, ${m.errors} errors, ${m.non2xx} non-2xx` : ''}`);
      }
    }
  } finally {
    for (const server of servers.values()) await server.stop().catch(() => undefined);
  }

  const summaries: Summary[] = contestants.map((c) => {
    const ms = runs.get(c.key) ?? [];
    return {
      key: c.key,
      name: c.name,
      rps: median(ms.map((m) => m.rps)),
      p50: round2(median(ms.map((m) => m.p50))),
      p99: round2(median(ms.map((m) => m.p99))),
      peakRssMb: median(ms.map((m) => m.peakRssMb)),
      cpuUsPerRequest: median(ms.map((m) => m.cpuUsPerRequest)),
      runs: ms,
    };
  });
  const ours = summaries.find((s) => s.key === 'production');
  const within10 = summaries
    .filter((s) => (s.key === 'hono' || s.key === 'fastify') && ours && s.rps >= ours.rps * 0.9 && s.p99 <= ours.p99 * 1.1)
    .map((s) => s.key);
  return { summaries, probes: probeResults, within10, report: report(summaries, probeResults, options, within10) };
}

const round2 = (x: number) => Math.round(x * 100) / 100;

const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** User + system CPU time of a process, all its threads, in seconds (/proc/<pid>/stat, fields 14 and 15). */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ')[0] ?? '?';
}

// --- Probes -----------------------------------------------------------------------------------

interface Probe {
  name: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

function makeProbes(o: { ratePath: string; livePath: string; token: string; maxBodyBytes: number; load: { body: string | (() => string) } }): Probe[] {
  const auth = { authorization: `Token ${o.token}`, 'content-type': 'application/json' };
  const body = typeof o.load.body === 'string' ? o.load.body : o.load.body();
  return [
    { name: 'a quote', method: 'POST', path: o.ratePath, headers: auth, body },
    { name: 'no token', method: 'POST', path: o.ratePath, headers: { 'content-type': 'application/json' }, body },
    { name: 'a malformed token', method: 'POST', path: o.ratePath, headers: { ...auth, authorization: 'Token ck_test_nope' }, body },
    { name: 'the test token on the live path', method: 'POST', path: o.livePath, headers: auth, body },
    { name: 'invalid JSON', method: 'POST', path: o.ratePath, headers: auth, body: '{"weight": ' },
    { name: 'an empty body', method: 'POST', path: o.ratePath, headers: auth, body: '' },
    { name: 'JSON 100 levels deep (40 KB)', method: 'POST', path: o.ratePath, headers: auth, body: ' '.repeat(40_000) + '['.repeat(100) + ']'.repeat(100) },
    { name: 'a body 1 byte over the limit', method: 'POST', path: o.ratePath, headers: auth, body: ' '.repeat(o.maxBodyBytes + 1) },
    { name: 'a validation failure', method: 'POST', path: o.ratePath, headers: auth, body: '{"weight": -1}' },
    { name: 'a lone surrogate in a field', method: 'POST', path: o.ratePath, headers: auth, body: body.replace('"10001"', '"\\ud800"') },
    { name: "the caller's X-Request-Id", method: 'POST', path: o.ratePath, headers: { ...auth, 'x-request-id': 'bench-probe-0001' }, body },
    { name: 'OPTIONS (preflight)', method: 'OPTIONS', path: o.ratePath, headers: { origin: 'https://example.com', 'access-control-request-method': 'POST' } },
    { name: 'an unknown API path', method: 'POST', path: o.ratePath.replace('/wf/rate', '/wf/nope'), headers: auth, body },
  ];
}

const PROBED_HEADERS = [
  'content-type',
  'access-control-allow-origin',
  'access-control-expose-headers',
  'access-control-allow-methods',
  'cache-control',
  'x-content-type-options',
  'www-authenticate',
  'x-request-id',
];

async function ask(base: string, probe: Probe): Promise<ProbeAnswer> {
  try {
    const response = await fetch(base + probe.path, { method: probe.method, headers: probe.headers, body: probe.body });
    const body = await response.text();
    let code: string | undefined;
    try {
      const parsed: unknown = JSON.parse(body);
      if (parsed && typeof parsed === 'object' && 'error' in parsed && parsed.error && typeof parsed.error === 'object' && 'code' in parsed.error) {
        code = String(parsed.error.code);
      }
    } catch {
      // not JSON
    }
    const headers: Record<string, string | null> = {};
    for (const name of PROBED_HEADERS) headers[name] = response.headers.get(name);
    return { status: response.status, code, headers, body };
  } catch (error) {
    return { status: 0, code: `fetch failed: ${(error as Error).message}`, headers: {}, body: '' };
  }
}

/** One request first: a benchmark of error answers would measure the wrong thing. */
async function check(server: ServerProcess, load: Omit<LoadOptions, 'url' | 'durationSeconds'>): Promise<void> {
  const body = typeof load.body === 'string' ? load.body : load.body();
  const response = await fetch(server.url + load.path, { method: 'POST', headers: { 'content-type': 'application/json', ...load.headers }, body });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${server.name} answered ${response.status} to ${load.path}: ${text.slice(0, 500)}`);
}

// --- Report -----------------------------------------------------------------------------------

/** A probe answer as a table cell: status, error code, and what differs from production's. */
function probeCell(answer: ProbeAnswer | undefined, reference: ProbeAnswer | undefined): string {
  if (!answer) return '—';
  const what = `${answer.status}${answer.code ? ` ${answer.code}` : ''}`;
  if (!reference || answer === reference) return what;
  const differences: string[] = [];
  if (answer.status !== reference.status || answer.code !== reference.code) differences.push('**status/code differ**');
  // Bodies: the same except for request ids, which are new per request.
  const strip = (text: string) => text.replace(/req_[0-9a-f]{32}/g, 'req_…');
  if (answer.status === 200 && strip(answer.body) !== strip(reference.body)) differences.push('body differs');
  for (const name of PROBED_HEADERS) {
    const a = answer.headers[name] ?? null;
    const r = reference.headers[name] ?? null;
    if (name === 'x-request-id') {
      if ((a === null) !== (r === null) || (r !== null && !r.startsWith('req_') && a !== r)) differences.push(`x-request-id: ${a ?? 'none'}`);
    } else if ((a ?? '').toLowerCase().replace(/\s+/g, '') !== (r ?? '').toLowerCase().replace(/\s+/g, '')) {
      differences.push(`${name}: ${a === null ? 'none' : `\`${a.length > 40 ? `${a.slice(0, 40)}…` : a}\``}`);
    }
  }
  return differences.length ? `${what}; ${differences.join('; ')}` : `${what} (same)`;
}

function report(summaries: Summary[], probes: ServersResult['probes'], o: { rounds: number; durationSeconds: number; warmupSeconds: number; load: { connections: number } }, within10: ContestantKey[]): string {
  const by = (key: ContestantKey) => summaries.find((s) => s.key === key);
  const production = by('production');
  const pipeline = by('pipeline');
  const baseline = by('baseline');
  const ratio = (a: number | undefined, b: number | undefined) => (a !== undefined && b ? `${((a / b) * 100).toFixed(0)} %` : '—');
  // The median of the per-round ratios: each round's pair met nearly the same background load.
  const paired = (s: Summary, reference: Summary | undefined, field: 'rps' | 'p99' | 'cpuUsPerRequest') => {
    if (!reference) return '—';
    const ratios = s.runs.flatMap((m) => {
      const other = reference.runs.find((r) => r.round === m.round);
      return other && other[field] ? [m[field] / other[field]] : [];
    });
    return ratios.length ? `${(median(ratios) * 100).toFixed(0)} %` : '—';
  };
  const versus = (s: Summary, reference: Summary | undefined, field: 'rps' | 'p99' | 'cpuUsPerRequest') =>
    `${ratio(s[field], reference?.[field])} (${paired(s, reference, field)})`;
  const lines = [
    `### Our HTTP pipeline, Hono and Fastify: the rate operation (\`--only servers\`)`,
    '',
    `${o.load.connections} connections, ${o.durationSeconds} s measured after ${o.warmupSeconds} s of warm-up, per contestant and round; ${o.rounds} rounds, the order rotated and reversed from round to round; every server started once and idle while another is under load. ` +
      `Latencies are of autocannon's per-response times (fractional ms; its histogram counts whole ms). CPU per request: user + system time of the server process (all threads; for the production server its worker) over the measured seconds, divided by the requests answered — the one figure here that the machine's other load hardly moves. Figures are the medians over the rounds; a ratio is of those medians, and in brackets the median of the per-round ratios (each round's pair met nearly the same background load).`,
    '',
    '| Contestant | req/s | p50 | p99 | CPU per request | peak RSS | req/s vs production | p99 vs production | CPU/request vs production | req/s vs our pipeline alone | p99 vs our pipeline alone | CPU/request vs our pipeline alone | Each round: req/s · p99 · CPU µs/request (position in the round, 1-min load average after it) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...summaries.map(
      (s) =>
        `| ${s.name} | ${Math.round(s.rps).toLocaleString('en-US')} | ${s.p50.toFixed(2)} ms | ${s.p99.toFixed(2)} ms | ${Math.round(s.cpuUsPerRequest)} µs | ${Math.round(s.peakRssMb)} MB | ${versus(s, production, 'rps')} | ${versus(s, production, 'p99')} | ${versus(s, production, 'cpuUsPerRequest')} | ${versus(s, pipeline, 'rps')} | ${versus(s, pipeline, 'p99')} | ${versus(s, pipeline, 'cpuUsPerRequest')} | ${s.runs
          .map((m) => `${Math.round(m.rps).toLocaleString('en-US')} · ${m.p99.toFixed(2)} ms · ${m.cpuUsPerRequest} µs (${m.position}, load ${m.load})${m.errors + m.non2xx ? ` ⚠ ${m.errors} errors, ${m.non2xx} non-2xx` : ''}`)
          .join('; ')} |`,
    ),
    '',
    `Production server vs its bare baseline: ${ratio(production?.rps, baseline?.rps)} of the baseline's req/s, p99 ${production?.p99.toFixed(2)} ms vs ${baseline?.p99.toFixed(2)} ms.`,
    '',
    `The issue's test — a framework within 10 % of ours (the production server) in both req/s (≥ 90 %) and p99 (≤ 110 %): ${within10.length ? `**met by ${within10.join(' and ')}**` : '**met by neither**'}.`,
    '',
    `Same answers? Each probe went to every contestant but the baseline before the load; a cell says what differs from the production server's answer (request ids aside).`,
    '',
    `| Probe | ${summaries.filter((s) => s.key !== 'baseline').map((s) => s.key).join(' | ')} |`,
    `|---|${summaries.filter((s) => s.key !== 'baseline').map(() => '---').join('|')}|`,
    ...probes.map(
      (p) =>
        `| ${p.name} | ${summaries
          .filter((s) => s.key !== 'baseline')
          .map((s) => probeCell(p.answers[s.key], p.answers.production))
          .join(' | ')} |`,
    ),
  ];
  return lines.join('\n');
}
