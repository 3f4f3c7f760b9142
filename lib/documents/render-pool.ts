import 'server-only';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { pgTransaction } from '@/lib/db';
import { env } from '@/lib/env';
import { AppError } from '@/lib/errors/app-error';
import { log } from '@/lib/log';
import { readPackageBytes, type PackagesQuery } from './package-bytes';
import { leavesHeapGrown, readRequest, transferables, type RenderRequest } from './render-request';
import { isSpilled, removeSpilled, spillDirectory, SpilledDocument, type RenderedDocument } from './spilled-document';

// Documents render off the serving thread (docs/decisions/document-rendering.md): a bounded pool of threads, admission
// before any work (429 per account, 503 for the process), the data read only once a thread is free, each thread's heap
// capped and each render timed. Without the compiled render thread (tsx, `next start`, tests importing lib/), the same
// admission and queue hold and the render runs on the calling thread.

export interface RenderPoolOptions {
  script: string | undefined;
  threads: number;
  queue: number;
  perAccount: number;
  memoryMb: number;
  timeoutMs: number;
  idleMs: number;
  nice?: number;
  policy?: 'idle' | 'nice';
  /** Under `idle`, a render still running after this long is raised to the nice value (IDLE_RENDER_RAISED_AFTER_MS). */
  raiseIdleAfterMs?: number;
  /** Where a render thread reads the packages a job names (its own connection, opened on first use). */
  databaseUrl?: string;
  /** Where a render on the calling thread reads them (the process's pool). */
  readPackages?: (query: PackagesQuery) => Promise<Uint8Array>;
}

const YOUNG_GENERATION_MB = 8;
/** Replaced after this many documents, so heap fragmentation does not build up. */
const RECYCLE_AFTER_JOBS = 200;
/** …or after a document this large: give its heap back now rather than at the next idle. */
const RECYCLE_AFTER_BYTES = 16 * 2 ** 20;
/**
 * A render under SCHED_IDLE still running after this long (a 5,000-label PDF takes ~1.3 s on a free core) is raised to
 * the nice value: requests keep their lead, but on a saturated machine a render slows down instead of waiting out its
 * time limit.
 */
export const IDLE_RENDER_RAISED_AFTER_MS = 5_000;

export interface RenderTicket {
  /**
   * Waits for a thread, then makes the job (`prepare`, on this thread) and renders it there; a manifest's packages the
   * job names rather than carries are read there too.
   */
  render(prepare: () => Promise<RenderRequest>): Promise<Uint8Array>;
  /** …and a large document comes back spilled to a file (spilled-document.ts), for a caller that sends it as it is. */
  render(prepare: () => Promise<RenderRequest>, options: { spill: true }): Promise<RenderedDocument>;
  release(): void;
}

export interface RenderPoolStats {
  admitted: number;
  running: number;
  waiting: number;
  threads: number;
  rendered: number;
  refusedPerAccount: number;
  refusedQueueFull: number;
  /** Renders raised out of SCHED_IDLE because they ran long. */
  raised: number;
}

interface Executor {
  busy: boolean;
  raisings: number;
  ready(): void;
  /** `spill`: the directory a large document may be written to instead of coming back as bytes. */
  run(job: RenderRequest, spill?: string): Promise<RenderedDocument>;
  alive(): boolean;
  close(): Promise<void>;
}

const clampSeconds = (ms: number) => Math.min(60, Math.max(1, Math.ceil(ms / 1000)));

export class RenderPool {
  private readonly executors: Executor[];
  private readonly waiting: ((executor: Executor) => void)[] = [];
  private readonly accounts = new Map<string, number>();
  private admitted = 0;
  private rendered = 0;
  private refusedPerAccount = 0;
  private refusedQueueFull = 0;
  /** Moving average, ms: what Retry-After is made of. */
  private averageMs = 2_000;
  private spillDir: string | undefined;

  constructor(readonly options: RenderPoolOptions) {
    const { script } = options;
    this.executors = Array.from({ length: Math.max(1, options.threads) }, () =>
      script ? new ThreadExecutor(script, options) : new InlineExecutor(options.readPackages),
    );
  }

  /** A place for one render of `accountId`'s, or the 429 / 503 that refuses it. Release the ticket when done. */
  admit(accountId: string): RenderTicket {
    const { perAccount, queue } = this.options;
    const mine = this.accounts.get(accountId) ?? 0;
    if (mine >= perAccount) {
      this.refusedPerAccount += 1;
      const seconds = clampSeconds(this.averageMs);
      throw new AppError(
        'rate_limited',
        `This account has ${perAccount} document(s) rendering already; retry after ${seconds} second(s).`,
        { retryAfterSeconds: seconds },
      );
    }
    if (this.admitted >= this.executors.length + queue) {
      this.refusedQueueFull += 1;
      const seconds = clampSeconds((this.admitted / this.executors.length) * this.averageMs);
      throw new AppError('service_unavailable', `Too many documents are being rendered; retry after ${seconds} second(s).`, {
        retryAfterSeconds: seconds,
      });
    }
    this.admitted += 1;
    this.accounts.set(accountId, mine + 1);
    let released = false;
    return {
      render: ((prepare: () => Promise<RenderRequest>, options?: { spill: true }) =>
        this.render(prepare, options?.spill ?? false)) as RenderTicket['render'],
      release: () => {
        if (released) return;
        released = true;
        this.admitted -= 1;
        const left = (this.accounts.get(accountId) ?? 1) - 1;
        if (left > 0) this.accounts.set(accountId, left);
        else this.accounts.delete(accountId);
      },
    };
  }

  private async render(prepare: () => Promise<RenderRequest>, spill: boolean): Promise<RenderedDocument> {
    const executor = await this.acquire();
    try {
      // A thread that has to start does so while the data is read.
      executor.ready();
      const job = await prepare();
      const started = performance.now();
      if (spill && this.options.script) this.spillDir ??= spillDirectory();
      const bytes = await executor.run(job, spill ? this.spillDir : undefined);
      this.averageMs = this.averageMs * 0.8 + (performance.now() - started) * 0.2;
      this.rendered += 1;
      return bytes;
    } finally {
      this.handOver(executor);
    }
  }

  private acquire(): Promise<Executor> {
    const free = this.executors.find((e) => !e.busy);
    if (free) {
      free.busy = true;
      return Promise.resolve(free);
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private handOver(executor: Executor): void {
    const next = this.waiting.shift();
    if (next) next(executor);
    else executor.busy = false;
  }

  stats(): RenderPoolStats {
    return {
      admitted: this.admitted,
      running: this.executors.filter((e) => e.busy).length,
      waiting: this.waiting.length,
      threads: this.executors.filter((e) => e.alive()).length,
      rendered: this.rendered,
      refusedPerAccount: this.refusedPerAccount,
      refusedQueueFull: this.refusedQueueFull,
      raised: this.executors.reduce((sum, e) => sum + e.raisings, 0),
    };
  }

  async close(): Promise<void> {
    await Promise.all(this.executors.map((e) => e.close()));
    // Documents being sent have their files open already (and removed): only the unsent go with the directory.
    if (this.spillDir) rmSync(this.spillDir, { recursive: true, force: true });
  }
}

class InlineExecutor implements Executor {
  busy = false;
  raisings = 0;
  constructor(private readonly read: ((query: PackagesQuery) => Promise<Uint8Array>) | undefined) {}
  ready(): void {}
  // Rendered on this thread, the bytes are here already: spilling them would only add a file.
  async run(request: RenderRequest): Promise<RenderedDocument> {
    const read = this.read;
    // The renderers load with the first inline render: a server with render threads never loads them here.
    const { runRenderJob } = await import('./render-job');
    return runRenderJob(
      await readRequest(request, (query) => {
        if (!read) throw new Error('a render names packages to read, and this pool has no way to read them');
        return read(query);
      }),
    );
  }
  alive(): boolean {
    return false;
  }
  async close(): Promise<void> {}
}

type Reply =
  | { id: number; bytes: Uint8Array }
  | { id: number; file: string; size: number }
  /** `code`: the database's or the system's, so that a database outage is answered as one (503). */
  | { id: number; error: { message: string; stack?: string; code?: string } }
  /** The thread's id once it runs under SCHED_IDLE, for raising it. */
  | { tid: string };

class ThreadExecutor implements Executor {
  busy = false;
  private worker: Worker | undefined;
  private jobs = 0;
  private nextId = 1;
  private idle: NodeJS.Timeout | undefined;
  /** Set once the thread runs under SCHED_IDLE (it says so after it starts). */
  private tid: string | undefined;
  /** The thread was raised out of SCHED_IDLE during a render: the next job asks for it again. */
  private raised = false;
  /**
   * The `chrt` of a raise, while it runs. The next job waits for it: a raise that landed after that job's thread had
   * asked for SCHED_IDLE again would leave the thread, and every render after, out of SCHED_IDLE.
   */
  private raising: Promise<void> | undefined;
  /** Raisings so far (the pool's stats). */
  raisings = 0;
  private current: { id: number; resolve: (document: RenderedDocument) => void; reject: (error: Error) => void } | undefined;

  constructor(
    private readonly script: string,
    private readonly options: RenderPoolOptions,
  ) {}

  alive(): boolean {
    return this.worker !== undefined;
  }

  private start(): Worker {
    const worker = new Worker(this.script, {
      // The old generation's cap makes a runaway render fail here instead of growing the process; a small young generation
      // because V8 grew the default to tens of megabytes of RSS for no gain in speed.
      resourceLimits: { maxOldGenerationSizeMb: this.options.memoryMb, maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
      stdout: false,
      stderr: false,
      workerData: { nice: this.options.nice ?? 0, policy: this.options.policy ?? 'nice', databaseUrl: this.options.databaseUrl },
    });
    worker.on('message', (reply: Reply) => {
      if ('tid' in reply) {
        this.tid = reply.tid;
        return;
      }
      const current = this.current;
      if (!current || current.id !== reply.id) {
        // A render that was given up on (its time ran out): nobody sends its file.
        if ('file' in reply) removeSpilled(reply.file);
        return;
      }
      this.current = undefined;
      if ('file' in reply) current.resolve(new SpilledDocument(reply.file, reply.size));
      else if ('bytes' in reply) current.resolve(reply.bytes);
      else
        current.reject(
          Object.assign(new Error(`document render failed: ${reply.error.message}`), {
            stack: reply.error.stack,
            ...(reply.error.code ? { code: reply.error.code } : {}),
          }),
        );
    });
    worker.on('error', (error: Error & { code?: string }) => {
      const outOfMemory = error.code === 'ERR_WORKER_OUT_OF_MEMORY';
      if (!outOfMemory) log.error({ err: error, threadId: worker.threadId }, 'document render thread failed');
      this.fail(
        worker,
        outOfMemory
          ? new AppError(
              'service_unavailable',
              `This document needs more memory than a render may use (${this.options.memoryMb} MB); it was not rendered.`,
            )
          : error,
      );
    });
    worker.on('exit', (code) => this.fail(worker, new Error(`the document render thread exited (${code})`)));
    // A reply that cannot be read would leave its render waiting for the timeout: fail it now.
    worker.on('messageerror', (error) => {
      const current = this.current;
      this.current = undefined;
      current?.reject(error);
    });
    // Never what keeps the process alive: the server's own stop decides that.
    worker.unref();
    return worker;
  }

  private fail(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    this.tid = undefined;
    this.raised = false;
    this.jobs = 0;
    const current = this.current;
    this.current = undefined;
    current?.reject(error);
  }

  private end(): void {
    const worker = this.worker;
    if (!worker) return;
    this.worker = undefined;
    this.tid = undefined;
    this.raised = false;
    this.jobs = 0;
    void worker.terminate();
  }

  ready(): void {
    this.worker ??= this.start();
    // Armed now too: if the render never comes (its data could not be read), the thread still ends when idle.
    this.idleLater();
  }

  run(job: RenderRequest, spill?: string): Promise<RenderedDocument> {
    this.ready();
    const worker = this.worker!;
    const id = this.nextId++;
    // Named here, so that a render given up on (its time ran out, its thread ended) leaves no file behind.
    const file = spill ? path.join(spill, `${randomUUID()}.document`) : undefined;
    return new Promise<RenderedDocument>((resolve, reject) => {
      const timer = setTimeout(() => {
        if (this.current?.id !== id) return;
        this.current = undefined;
        reject(
          new AppError(
            'service_unavailable',
            `The document took longer than ${this.options.timeoutMs} ms to render; it was stopped.`,
            { retryAfterSeconds: 5 },
          ),
        );
        if (this.worker === worker) this.end();
      }, this.options.timeoutMs);
      timer.unref();
      // Armed when the job goes to the thread, which may wait for a raise still running (below).
      let raise: NodeJS.Timeout | undefined;
      this.current = {
        id,
        resolve: (document) => {
          clearTimeout(timer);
          clearTimeout(raise);
          resolve(document);
        },
        reject: (error) => {
          clearTimeout(timer);
          clearTimeout(raise);
          reject(error);
        },
      };
      const idleAgain = this.raised;
      this.raised = false;
      const post = () => {
        if (this.options.policy === 'idle') {
          raise = setTimeout(() => this.raise(worker, id), this.options.raiseIdleAfterMs ?? IDLE_RENDER_RAISED_AFTER_MS);
          raise.unref();
        }
        worker.postMessage({ id, job, idleAgain, spill: file }, transferables(job));
      };
      if (this.raising) void this.raising.then(() => this.current?.id === id && this.worker === worker && post());
      else post();
    }).then(
      (document) => {
        this.jobs += 1;
        const size = isSpilled(document) ? document.size : document.byteLength;
        if (this.jobs >= RECYCLE_AFTER_JOBS || (size >= RECYCLE_AFTER_BYTES && leavesHeapGrown(job))) this.end();
        this.idleLater();
        return document;
      },
      (error: unknown) => {
        if (file) {
          removeSpilled(file);
          // A thread being ended may still finish writing it: once it has stopped, the file goes for good.
          if (this.worker !== worker) worker.once('exit', () => removeSpilled(file));
        }
        this.idleLater();
        throw error;
      },
    );
  }

  /** SCHED_OTHER at the nice value the thread set (Linux keeps it across the change); not permitted: it stays idle. */
  private raise(worker: Worker, id: number): void {
    if (this.worker !== worker || this.current?.id !== id || !this.tid) return;
    this.raised = true;
    this.raisings += 1;
    const tid = this.tid;
    const raising = new Promise<void>((resolve) =>
      execFile('chrt', ['--other', '--pid', '0', tid], { timeout: 5_000 }, () => resolve()),
    ).then(() => {
      if (this.raising === raising) this.raising = undefined;
    });
    this.raising = raising;
  }

  private idleLater(): void {
    clearTimeout(this.idle);
    if (!this.worker) return;
    this.idle = setTimeout(() => {
      if (this.busy || this.current) this.idleLater();
      else this.end();
    }, this.options.idleMs);
    this.idle.unref();
  }

  async close(): Promise<void> {
    clearTimeout(this.idle);
    const worker = this.worker;
    this.worker = undefined;
    this.current?.reject(new AppError('service_unavailable', 'The server is stopping.', { retryAfterSeconds: 1 }));
    this.current = undefined;
    await worker?.terminate();
  }
}

/** dist/document-render-thread.js beside the running server (dist/server.js, or this bundle), when it exists. */
export function renderThreadScript(): string | undefined {
  const candidates: string[] = [];
  try {
    candidates.push(path.join(path.dirname(fileURLToPath(import.meta.url)), 'document-render-thread.js'));
  } catch {
    // not a file: URL (a bundler's module)
  }
  // Next's copy of this module (the portal's routes) lives in .next/; the process is still dist/server.js.
  if (process.argv[1]) candidates.push(path.join(path.dirname(path.resolve(process.argv[1])), 'document-render-thread.js'));
  return candidates.find((file) => existsSync(file));
}

const KEY = Symbol.for('carrier.renderPool');
type Global = typeof globalThis & { [KEY]?: RenderPool };

/** The process's pool, made on first use from the settings; one per process, shared by the API's and Next's module copies. */
export function renderPool(): RenderPool {
  const global = globalThis as Global;
  if (global[KEY]) return global[KEY];
  const e = env();
  const script = renderThreadScript();
  const pool = new RenderPool({
    script,
    threads: e.DOCUMENT_RENDER_THREADS,
    queue: e.DOCUMENT_RENDER_QUEUE,
    perAccount: e.DOCUMENT_RENDERS_PER_ACCOUNT,
    memoryMb: e.DOCUMENT_RENDER_MEMORY_MB,
    timeoutMs: e.DOCUMENT_RENDER_TIMEOUT_MS,
    idleMs: e.DOCUMENT_RENDER_IDLE_MS,
    nice: e.DOCUMENT_RENDER_NICE,
    policy: e.DOCUMENT_RENDER_POLICY,
    databaseUrl: e.DATABASE_URL,
    readPackages: (query) => pgTransaction((client) => readPackageBytes(client, query)),
  });
  log.info(
    { threads: e.DOCUMENT_RENDER_THREADS, onThreads: script !== undefined },
    script ? 'documents render on threads of their own' : 'documents render on the serving thread (no compiled render thread)',
  );
  global[KEY] = pool;
  return pool;
}
