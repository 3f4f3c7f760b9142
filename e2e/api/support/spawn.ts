// The one way the tests and benchmarks start a process and wait for it: the API suite's server
// (global-setup.ts), the reliability suite's servers (processes.ts), the delivery tests' workers,
// and the benchmarks' servers and baselines (bench/). The app itself is always started with
// `npm start`'s own command (startCommand(), read from package.json), i.e. dist/start.js (server/start.ts
// compiled), the supervisor, with its worker processes: what users run is what is tested and measured.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { freePort } from '../../../scripts/free-port.mjs';

export { freePort };

const ROOT = new URL('../../../', import.meta.url);

function npmScript(name: string): string {
  return (
    (JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as { scripts: Record<string, string> }).scripts[name] ?? ''
  );
}

/** The Node arguments (everything after `node`) of npm script `name`. */
function nodeArgsOf(name: string): string[] {
  const words = npmScript(name).trim().split(/\s+/);
  return words.slice(words.indexOf('node') + 1);
}

/** `npm start`'s Node arguments (everything after `node`): V8 flags and dist/start.js (compiled by `npm run build`). */
export function startCommand(): string[] {
  return nodeArgsOf('start');
}

/** `npm run worker`'s Node arguments: a delivery worker on its own, dist/worker.js. */
export function workerCommand(): string[] {
  return nodeArgsOf('worker');
}

/** `npm start`'s V8 flags alone (those before its first `--import`): the bench's baselines get them too. */
export function startFlags(): string[] {
  const args = startCommand();
  const end = args.indexOf('--import');
  return args.slice(0, end === -1 ? args.length : end).filter((word) => word.startsWith('--'));
}

/** The module hooks our TypeScript runs with from source (tsx, and the `server-only` resolve hook): benchmarks' baselines and tools, never `npm start`. */
export const NODE_HOOKS = ['--import', 'tsx', '--import', './scripts/hooks/server-only.mjs'];

export interface Spawned {
  name: string;
  child: ChildProcess;
  pid: number;
  /** The last 200,000 characters of stdout and stderr together. */
  output(): string;
  /** Every line written to stdout or stderr, with when it arrived (for counting log lines). */
  lines: { at: number; text: string }[];
  /** Whole log lines of errors the app did not expect (it answered 500 for them). */
  unexpected: string[];
  /** Whole log lines of the supervisor (server/start.ts): workers listening, dying, restarted; stops. */
  supervisor: string[];
  /** Resolves with the exit code (or the signal's name) once the process has exited. */
  exited: Promise<number | string>;
  running(): boolean;
  /** Sends `signal` (to the process, or with `group: true` to its whole process group) and waits for the exit; SIGKILL after `timeoutMs`. */
  stop(signal?: NodeJS.Signals, options?: { timeoutMs?: number; group?: boolean }): Promise<number | string>;
}

/**
 * Spawns `command` (default: this Node) with `args`. `group: true` gives it a process group of its
 * own (its pid is the group's id), as a shell does for a command it runs: then a signal can go to
 * the whole group, as a terminal's Ctrl+C does. `output: 'stderr'` keeps only stderr (a benchmark's
 * server logs a line per request; producing it is part of what is measured, keeping it is not).
 */
export function spawnProcess(options: {
  name: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  command?: string;
  group?: boolean;
  output?: 'all' | 'stderr';
}): Spawned {
  const child = spawn(options.command ?? process.execPath, options.args, {
    env: options.env ?? process.env,
    stdio: ['ignore', options.output === 'stderr' ? 'ignore' : 'pipe', 'pipe'],
    detached: options.group ?? false,
  });
  let output = '';
  const unexpected: string[] = [];
  const supervisor: string[] = [];
  const lines: { at: number; text: string }[] = [];
  const partial = new Map<unknown, string>();
  const keep = (chunk: Buffer, stream: unknown) => {
    const text = chunk.toString();
    output = (output + text).slice(-200_000);
    const parts = ((partial.get(stream) ?? '') + text).split('\n');
    partial.set(stream, parts.pop() ?? '');
    const at = Date.now();
    for (const part of parts) lines.push({ at, text: part });
    // Unexpected errors are kept whole, however much else is logged after them.
    for (const line of text.split('\n')) {
      if (line.includes('"msg":"unhandled error"')) unexpected.push(line);
      if (line.includes('"component":"supervisor"')) supervisor.push(line);
    }
  };
  child.stdout?.on('data', (chunk: Buffer) => keep(chunk, 'stdout'));
  child.stderr?.on('data', (chunk: Buffer) => keep(chunk, 'stderr'));
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    name: options.name,
    child,
    pid: child.pid!,
    output: () => output,
    lines,
    unexpected,
    supervisor,
    exited,
    running,
    stop: async (signal = 'SIGTERM', { timeoutMs = 30_000, group = false } = {}) => {
      if (!running()) return exited;
      const send = (s: NodeJS.Signals) => {
        try {
          if (group) process.kill(-child.pid!, s);
          else child.kill(s);
        } catch {
          // already gone
        }
      };
      send(signal);
      const timer = setTimeout(() => send('SIGKILL'), timeoutMs);
      const result = await exited;
      clearTimeout(timer);
      return result;
    },
  };
}

/**
 * Polls `url` until it answers with a status below 300 (OPTIONS by default: the API's preflight
 * answers 204 without a token or the database), failing at once if the process exits.
 */
export async function waitForHttp(
  proc: Spawned,
  url: string,
  options: { method?: string; timeoutMs?: number } = {},
): Promise<void> {
  const timeoutMs = options.timeoutMs ?? 120_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!proc.running())
      throw new Error(`${proc.name} exited with ${await proc.exited} before answering:\n${proc.output().slice(-8_000)}`);
    if (Date.now() > deadline) {
      await proc.stop('SIGKILL');
      throw new Error(`${proc.name} did not answer ${url} within ${timeoutMs / 1000} s:\n${proc.output().slice(-8_000)}`);
    }
    try {
      const response = await fetch(url, { method: options.method ?? 'OPTIONS', signal: AbortSignal.timeout(5_000) });
      await response.arrayBuffer();
      if (response.status < 300) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

export interface AppProcess extends Spawned {
  baseUrl: string;
  port: number;
}

export const RATE_PREFLIGHT = '/version-test/api/1.1/wf/rate';

/** The suite's server settings (global-setup.ts), for a server started alike by a test that needs one of its own. */
export function testServerEnv(databaseUrl: string, mode: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    START_MODE: mode,
    APP_WORKERS: process.env.TEST_APP_WORKERS ?? '1',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
    API_RATE_LIMIT_PER_SECOND: '5',
    API_RATE_LIMIT_BURST: '300',
    // Tests that exercise per-address limits act as our proxy: they connect from 127.0.0.1, trusted
    // here as a proxy, and name the client's address as the rightmost X-Forwarded-For entry.
    TRUSTED_PROXIES: '127.0.0.1/32',
    API_AUTH_FAILURES_PER_MINUTE: '60',
    API_BODY_TIMEOUT_MS: '2000',
    // No delivery from this server: the tests that deliver start their own workers on a database
    // of their own (e2e/api/webhooks-delivery.test.ts); this one keeps the strict SSRF guard.
    WEBHOOK_WORKER: 'off',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false',
    // No recipient mail either: servers of a file's own share the run's database, and would take each other's mail
    // (e2e/api/recipient-mail.test.ts starts the one server that sends it).
    RECIPIENT_MAIL_INTERVAL_MS: '0',
    // Nor invoices: a file issues them itself (e2e/api/invoices-concurrency.test.ts starts servers that run the job).
    INVOICE_INTERVAL_MS: '0',
    // A document thread ends a second after its last render (20 s in production), so that the suites' memory bounds
    // on the server measure the requests in front of them, not a render thread left from an earlier test.
    DOCUMENT_RENDER_IDLE_MS: '1000',
    // Every JSON answer is parsed with its operation's response schema: a mismatch is a 500 the test sees.
    API_RESPONSE_CHECK: 'on',
  };
}

/**
 * Starts the app as `npm start` does (its command from package.json: the supervisor and its
 * workers) on a free port, and waits until it answers. `env` adds to (or, with undefined, removes
 * from) this process's environment; DATABASE_URL decides the database, as for `npm start`.
 */
export async function startApp(
  options: {
    name?: string;
    env?: Record<string, string | undefined>;
    port?: number;
    nodeArgs?: string[];
    readyPath?: string;
    group?: boolean;
    output?: 'all' | 'stderr';
    timeoutMs?: number;
  } = {},
): Promise<AppProcess> {
  const port = options.port ?? (await freePort());
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production', ...options.env, PORT: String(port) };
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete env[key];
  const proc = spawnProcess({
    name: options.name ?? 'npm start',
    args: [...(options.nodeArgs ?? []), ...startCommand()],
    env,
    group: options.group,
    output: options.output,
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHttp(proc, baseUrl + (options.readyPath ?? RATE_PREFLIGHT), { timeoutMs: options.timeoutMs });
  return { ...proc, baseUrl, port };
}

/**
 * The pids of `pid`'s child processes that run Node (Linux; none elsewhere): the supervisor's
 * workers (not the embedded PostgreSQL, also its child, nor the portal's process: portalPids), or npm's script.
 */
export function childPids(pid: number): number[] {
  const parent = cmdline(pid);
  // A child whose command line is still its parent's, or empty while it execs, is not yet running its own file.
  return nodeChildren(pid).filter((child) => {
    const own = cmdline(child);
    return own !== '' && own !== parent && !isPortal(child);
  });
}

/**
 * The supervisor's API workers (server/server.ts), known by the file they run: a child forked a moment ago, still
 * showing its parent's command line or none while it execs, is not counted until it is one.
 */
export function workerPids(pid: number): number[] {
  return nodeChildren(pid).filter((child) => /\/server\.(js|ts)\0/.test(cmdline(child)));
}

/** The supervisor's portal process (server/portal.ts): none, or one once the first worker is ready. */
export function portalPids(pid: number): number[] {
  return nodeChildren(pid).filter(isPortal);
}

function isPortal(pid: number): boolean {
  return /\/portal\.(js|ts)\0/.test(cmdline(pid));
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

function nodeChildren(pid: number): number[] {
  const node = realpathSync(process.execPath);
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    return children.filter((child) => {
      try {
        return realpathSync(`/proc/${child}/exe`) === node;
      } catch {
        return false;
      }
    });
  } catch {
    return [];
  }
}
