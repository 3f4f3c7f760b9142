// Servers under test run as child processes, so that their memory is theirs alone and a CPU profile
// covers only the server. Resident memory is sampled from /proc (Linux).
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

export const NODE_HOOKS = ['--import', 'tsx', '--import', './scripts/hooks/server-only.mjs'];

/** `npm start`'s V8 flags (those between `node` and its first `--import` in package.json): every server under test gets them. */
export function startFlags(): string[] {
  const start = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts.start ?? '';
  const words = start.split(/\s+/);
  return words.slice(1, words.indexOf('--import')).filter((word) => word.startsWith('--'));
}

export { freePort } from '../../scripts/free-port.mjs';

export interface ServerProcess {
  name: string;
  url: string;
  pid: number;
  child: ChildProcess;
  output(): string;
  /** SIGTERM, then wait for the exit (a CPU profile is written on a clean exit). */
  stop(): Promise<void>;
}

export async function startProcess(options: {
  name: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  port: number;
  /** Answers 2xx (or 204) once the server is ready. */
  readyPath: string;
  readyMethod?: string;
}): Promise<ServerProcess> {
  const child = spawn(process.execPath, options.args, {
    env: { ...options.env, PORT: String(options.port) },
    // Logs go nowhere (but are still produced: their cost is part of what is measured).
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-10_000)));
  const url = `http://127.0.0.1:${options.port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${options.name} exited with ${child.exitCode}:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${options.name} did not start within 120 s:\n${output}`);
    }
    try {
      const response = await fetch(url + options.readyPath, { method: options.readyMethod ?? 'OPTIONS' });
      await response.arrayBuffer();
      if (response.status < 300) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    name: options.name,
    url,
    pid: child.pid!,
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    },
  };
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
