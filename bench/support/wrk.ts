// wrk (Debian's `wrk` package, C): a load generator that costs the machine far less CPU per request than
// autocannon (Node). The cores benchmark uses it when it is installed: on a 2-core machine autocannon took 0.37
// of a core at 4-6k req/s, a share the second worker could not have.
// Fixed bodies only (wrk's Lua script sends the same request each time).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LoadOptions, LoadResult } from './load';

/** The wrk binary on PATH, or undefined. */
export function wrkBinary(): string | undefined {
  const found = spawnSync('sh', ['-c', 'command -v wrk'], { encoding: 'utf8' });
  const bin = found.stdout.trim();
  return found.status === 0 && bin ? bin : undefined;
}

/** A Lua string literal: every byte outside printable ASCII (and quote, backslash) as a three-digit decimal escape (`\034`: Lua reads up to three digits, so a shorter one would swallow a digit after it). */
function luaString(text: string): string {
  let out = '"';
  for (const byte of Buffer.from(text, 'utf8'))
    out +=
      byte >= 32 && byte < 127 && byte !== 34 && byte !== 92 ? String.fromCharCode(byte) : `\\${String(byte).padStart(3, '0')}`;
  return `${out}"`;
}

/** wrk's latency ("1.23ms", "850.00us", "1.02s") in milliseconds. */
function ms(value: string): number {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(value);
  if (!match) return Number.NaN;
  const n = Number(match[1]);
  return match[2] === 'us' ? n / 1000 : match[2] === 'ms' ? n : match[2] === 's' ? n * 1000 : n * 60_000;
}

export interface WrkResult extends LoadResult {
  /** CPU seconds wrk itself used (user + system). */
  cpuSeconds: number;
  /** The first answer that was not a 2xx: its status and the start of its body. */
  firstFailure?: string;
}

export async function runWrk(options: LoadOptions, bin: string): Promise<WrkResult> {
  if (typeof options.body !== 'string' || options.overallRate !== undefined || options.exactLatency) {
    throw new Error('runWrk: a fixed body only, no rate cap, no exact latencies');
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-wrk-'));
  try {
    const headers = { 'content-type': 'application/json', ...options.headers };
    const script = path.join(dir, 'request.lua');
    writeFileSync(
      script,
      [
        'wrk.method = "POST"',
        `wrk.body = ${luaString(options.body)}`,
        ...Object.entries(headers).map(([name, value]) => `wrk.headers[${luaString(name)}] = ${luaString(value)}`),
        // The first answer that is not a 2xx, printed once, so that a run of failures says why.
        'local told = false',
        'response = function(status, headers, body)',
        '  if (status < 200 or status > 299) and not told then told = true; io.write("FIRST_NON_2XX ", status, " ", (body:sub(1, 300):gsub("\\n", " ")), "\\n") end',
        'end',
        '',
      ].join('\n'),
    );
    // One thread (the point is to leave the cores to the server); the shell reports its children's CPU time
    // (cutime, cstime of /proc/self/stat) once wrk has exited and been waited for.
    const args = [
      '-t1',
      `-c${options.connections}`,
      `-d${options.durationSeconds}s`,
      '--timeout',
      '30s',
      '--latency',
      '-s',
      script,
      options.url + options.path,
    ];
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn('sh', ['-c', '"$0" "$@" && echo "CHILD_CPU_TICKS $(cut -d" " -f16,17 /proc/$$/stat)"', bin, ...args], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      child.on('error', reject);
      child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`wrk exited with ${code}: ${err || out}`))));
    });
    const field = (pattern: RegExp) => pattern.exec(output)?.[1];
    const requests = Number(field(/(\d+) requests in/));
    const seconds = ms(field(/requests in ([\d.]+(?:us|ms|s|m)),/) ?? '') / 1000;
    const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
    const ticks = (field(/CHILD_CPU_TICKS (\d+ \d+)/) ?? '0 0').split(' ').map(Number);
    const firstFailure = field(/FIRST_NON_2XX ([^\n]*)/);
    return {
      ...(firstFailure ? { firstFailure } : {}),
      requests,
      rps: Number(field(/Requests\/sec:\s+([\d.]+)/)),
      p50: ms(field(/\n\s+50%\s+(\S+)/) ?? ''),
      p90: ms(field(/\n\s+90%\s+(\S+)/) ?? ''),
      p99: ms(field(/\n\s+99%\s+(\S+)/) ?? ''),
      max: ms(field(/Latency\s+\S+\s+\S+\s+(\S+)/) ?? ''),
      // wrk counts read errors for connections the server closed; connect and timeout errors are failures.
      errors: socket ? Number(socket[1]) + Number(socket[4]) : 0,
      non2xx: Number(field(/Non-2xx or 3xx responses: (\d+)/) ?? 0),
      durationSeconds: seconds,
      cpuSeconds: ((ticks[0] ?? 0) + (ticks[1] ?? 0)) / 100,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
