// Servers under test run as child processes, so that their memory is theirs alone and a CPU profile
// covers only the server. Resident memory is sampled from /proc (Linux).
import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import {
  childPids,
  freePort,
  NODE_HOOKS,
  spawnProcess,
  startApp,
  startFlags,
  waitForHttp,
  type Spawned,
} from '../../e2e/api/support/spawn';

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
  const proc = spawnProcess({
    name: options.name,
    args: options.args,
    env: { ...options.env, PORT: String(options.port) },
    output: 'stderr',
  });
  const url = `http://127.0.0.1:${options.port}`;
  await waitForHttp(proc, url + options.readyPath, { method: options.readyMethod });
  return asServer(proc, url, proc.pid);
}

/**
 * The app as `npm start` runs it (the supervisor, with one worker unless `env` says otherwise).
 * Its `pid` is the first worker's: that process serves, and its memory is what is measured.
 */
export async function startAppProcess(options: {
  name: string;
  env: NodeJS.ProcessEnv;
  nodeArgs?: string[];
  readyPath: string;
}): Promise<ServerProcess> {
  const app = await startApp({
    name: options.name,
    env: { APP_WORKERS: '1', ...options.env },
    nodeArgs: options.nodeArgs,
    readyPath: options.readyPath,
    output: 'stderr',
  });
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
  return readFileSync('/proc/cpuinfo', 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('processor')).length;
}

/** CPU seconds each process named postgres on this machine (the bench's database server) has used so far, by pid. */
export function postgresCpu(): Map<number, number> {
  const byPid = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/comm`, 'utf8').startsWith('postgres')) continue;
    } catch {
      continue;
    }
    const seconds = cpuSeconds(Number(entry));
    if (Number.isFinite(seconds)) byPid.set(Number(entry), seconds);
  }
  return byPid;
}

/**
 * CPU seconds PostgreSQL used since `before` (postgresCpu()): each process's growth, and all of a process started
 * since. A process that ended meanwhile (an autovacuum worker, a closed connection) takes its time with it, so this
 * can only undercount; a sum over the processes alive at each end could go negative.
 */
export function postgresCpuSince(before: Map<number, number>): number {
  let total = 0;
  for (const [pid, seconds] of postgresCpu()) total += Math.max(0, seconds - (before.get(pid) ?? 0));
  return total;
}

/** CPU seconds (user + system) a process, or one of its threads, has used so far, from /proc/<pid>[/task/<tid>]/stat (Linux). */
export function cpuSeconds(pid: number, tid?: number): number {
  try {
    const stat = readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return Number.NaN;
  }
}
