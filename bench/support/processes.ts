// Servers under test run as child processes, so that their memory is theirs alone and a CPU profile
// covers only the server. Resident memory is sampled from /proc (Linux).
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { childPids, freePort, NODE_HOOKS, spawnProcess, startApp, startFlags, waitForHttp, type Spawned } from '../../e2e/api/support/spawn';

// One spawn-and-wait helper for tests and benchmarks: e2e/api/support/spawn.ts.
export { freePort, NODE_HOOKS, startFlags };

export interface ServerProcess {
  name: string;
  url: string;
  /** The process whose memory is measured: the app's worker (the supervisor has one), or the baseline itself. */
  pid: number;
  child: ChildProcess;
  output(): string;
  /** SIGTERM, then wait for the exit (a CPU profile is written on a clean exit). */
  stop(): Promise<void>;
}

function asServer(proc: Spawned, url: string, pid: number): ServerProcess {
  return {
    name: proc.name,
    url,
    pid,
    child: proc.child,
    output: () => proc.output(),
    stop: async () => {
      await proc.stop('SIGTERM', { timeoutMs: 20_000 });
    },
  };
}

/** A server of its own (a baseline, `next start`) on `port`, ready once `readyPath` answers below 300. */
export async function startProcess(options: {
  name: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  port: number;
  /** Answers 2xx (or 204) once the server is ready. */
  readyPath: string;
  readyMethod?: string;
}): Promise<ServerProcess> {
  // Logs go nowhere (but are still produced: their cost is part of what is measured).
  const proc = spawnProcess({ name: options.name, args: options.args, env: { ...options.env, PORT: String(options.port) }, output: 'stderr' });
  const url = `http://127.0.0.1:${options.port}`;
  await waitForHttp(proc, url + options.readyPath, { method: options.readyMethod });
  return asServer(proc, url, proc.pid);
}

/**
 * The app as `npm start` runs it (the supervisor, with one worker unless `env` says otherwise).
 * Its `pid` is the first worker's: that process serves, and its memory is what is measured.
 */
export async function startAppProcess(options: { name: string; env: NodeJS.ProcessEnv; nodeArgs?: string[]; readyPath: string }): Promise<ServerProcess> {
  const app = await startApp({ name: options.name, env: { APP_WORKERS: '1', ...options.env }, nodeArgs: options.nodeArgs, readyPath: options.readyPath, output: 'stderr' });
  return asServer(app, app.baseUrl, childPids(app.pid)[0] ?? app.pid);
}

/** Resident set size of a process in MB, or NaN if it is gone. */
export function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    return kb / 1024;
  } catch {
    return Number.NaN;
  }
}

export interface MemorySampler {
  /** Stops sampling; returns every sample (MB) with its time (s since start). */
  stop(): { t: number; mb: number }[];
}

export function sampleMemory(pid: number, everyMs = 250): MemorySampler {
  const started = Date.now();
  const samples: { t: number; mb: number }[] = [];
  const take = () => {
    const mb = rssMb(pid);
    if (!Number.isNaN(mb)) samples.push({ t: (Date.now() - started) / 1000, mb });
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    stop() {
      clearInterval(timer);
      take();
      return samples;
    },
  };
}

export function peak(samples: { mb: number }[]): number {
  return samples.reduce((max, s) => Math.max(max, s.mb), 0);
}

/** One line about the machine's load, for the results: load average, cores, and what else is busy. */
export function loadConditions(): string {
  const [one, five] = readFileSync('/proc/loadavg', 'utf8').split(' ');
  return `load average ${one} (1 min) / ${five} (5 min) on ${navigatorCores()} cores`;
}

function navigatorCores(): number {
  return readFileSync('/proc/cpuinfo', 'utf8').split('\n').filter((line) => line.startsWith('processor')).length;
}
