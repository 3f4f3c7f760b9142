import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@/lib/errors/app-error';
import type { ManifestSource } from './manifest-source';
import type { RenderJob, RenderRequest } from './render-request';
import type { PackagesQuery } from './package-bytes';
import { isDatabaseUnavailable } from '@/lib/db-errors';
import { RenderPool, type RenderPoolOptions } from './render-pool';
import { isSpilled, spillDirectory, type SpilledDocument } from './spilled-document';

// The render pool's admission (per account, queue bound), its hand-over of threads, and real render threads: the
// thread script compiled as scripts/build-server.mjs compiles it, rendering, running out of memory, timing out,
// ending when idle.

const root = fileURLToPath(new URL('../..', import.meta.url));
// Under the project, so that the compiled thread finds node_modules as dist/'s does.
const dir = path.join(root, '.data', `render-pool-test-${process.pid}`);
const script = path.join(dir, 'document-render-thread.js');

beforeAll(async () => {
  const esbuild = await import('esbuild');
  mkdirSync(dir, { recursive: true });
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: ['server/document-render-thread.ts'],
    outfile: script,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    packages: 'external',
    tsconfig: path.join(root, 'tsconfig.json'),
    logLevel: 'error',
  });
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const options = (overrides: Partial<RenderPoolOptions> = {}): RenderPoolOptions => ({
  script: undefined,
  threads: 1,
  queue: 2,
  perAccount: 2,
  memoryMb: 192,
  timeoutMs: 60_000,
  idleMs: 60_000,
  ...overrides,
});

function source(count: number, state: ManifestSource['state'] = 'open'): ManifestSource {
  const rows = Array.from({ length: count }, (_, i) => [
    {
      TrackingNumber: `TN${String(i).padStart(8, '0')}`,
      PackageWeight: 2.5,
      PackageWeightUnit: 'lb',
      ToName: `Recipient ${i}`,
      ToCity: 'Beverly Hills',
      ToPostalCode: '90210',
    },
    'manifested',
    `CB${String(i).padStart(13, '0')}`,
  ]);
  return {
    kind: 'container',
    manifestId: 'MAN-POOLTEST0000001',
    state,
    manifestDate: '2026-11-23',
    header: { FromCompany: 'Acme', ServiceName: 'AirSkip', SortCode: 'LAX-1' },
    serviceName: 'AirSkip',
    containerId: 'ULD-1',
    packages: new TextEncoder().encode(JSON.stringify(rows)),
    generatedAt: new Date('2026-11-23T20:00:00Z'),
  };
}

const labels = (count: number, format: 'pdf' | 'zpl' = 'pdf'): RenderJob => ({
  document: 'labels',
  source: source(count),
  format,
});

async function renderWith(
  pool: RenderPool,
  account: string,
  job: RenderRequest | (() => Promise<RenderRequest>),
): Promise<Uint8Array> {
  const ticket = pool.admit(account);
  try {
    return await ticket.render(typeof job === 'function' ? job : () => Promise.resolve(job));
  } finally {
    ticket.release();
  }
}

/** This process's threads' scheduling: each one's policy (5 is SCHED_IDLE) and nice value, from /proc. */
function threadsScheduling(): { policy: number; nice: number }[] {
  return readdirSync('/proc/self/task').flatMap((tid) => {
    try {
      // The fields after the command's name (which may hold spaces) start with the third, `state`.
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return [{ nice: Number(fields[19 - 3]), policy: Number(fields[41 - 3]) }];
    } catch {
      return []; // ended meanwhile
    }
  });
}
const idleThreads = () => threadsScheduling().filter((t) => t.policy === 5).length;
const niceOfNonIdleThreads = () =>
  threadsScheduling()
    .filter((t) => t.policy !== 5)
    .map((t) => t.nice);

function refusal(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('render pool admission', () => {
  it('an account gets perAccount renders at once, then 429 rate_limited with Retry-After; a release frees its place', () => {
    const pool = new RenderPool(options({ perAccount: 2, queue: 10 }));
    const [a, b] = [pool.admit('acct'), pool.admit('acct')];
    const refused = refusal(() => pool.admit('acct'));
    expect(refused.code).toBe('rate_limited');
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    // Another account is not held back by this one.
    pool.admit('other').release();
    a.release();
    a.release(); // idempotent: frees one place, not two
    pool.admit('acct').release();
    expect(pool.stats()).toMatchObject({ admitted: 1, refusedPerAccount: 1 });
    b.release();
    expect(pool.stats().admitted).toBe(0);
  });

  it('the process admits threads + queue renders, then 503 service_unavailable with Retry-After', () => {
    const pool = new RenderPool(options({ threads: 1, queue: 2, perAccount: 5 }));
    const tickets = ['a', 'b', 'c'].map((account) => pool.admit(account));
    const refused = refusal(() => pool.admit('d'));
    expect(refused.code).toBe('service_unavailable');
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    tickets[0]?.release();
    pool.admit('d');
    expect(pool.stats().refusedQueueFull).toBe(1);
  });

  it('renders at most `threads` at once, in the order admitted; data is read only once a thread is free', async () => {
    const pool = new RenderPool(options({ threads: 1, queue: 5, perAccount: 5 }));
    const order: string[] = [];
    let running = 0;
    let most = 0;
    const job = (name: string) => async () => {
      order.push(`read ${name}`);
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 20));
      running -= 1;
      return labels(1, 'zpl');
    };
    await Promise.all(['one', 'two', 'three'].map((name) => renderWith(pool, 'acct', job(name))));
    expect(most).toBe(1);
    expect(order).toEqual(['read one', 'read two', 'read three']);
    expect(pool.stats()).toMatchObject({ admitted: 0, running: 0, waiting: 0, rendered: 3 });
  });

  it("a job that names its packages has them read where it renders, by the pool's reader, the query as given", async () => {
    const asked: PackagesQuery[] = [];
    const pool = new RenderPool(
      options({
        readPackages: (query) => {
          asked.push(query);
          return Promise.resolve(source(3).packages);
        },
      }),
    );
    const query: PackagesQuery = { kind: 'container', manifestId: 'MAN-POOLTEST0000001', houseWaybills: false };
    const named = await renderWith(pool, 'acct', {
      document: 'labels',
      source: { ...source(0), packages: query },
      format: 'zpl',
    });
    expect(asked).toEqual([query]);
    expect(Buffer.from(named).equals(Buffer.from(await renderWith(pool, 'acct', labels(3, 'zpl'))))).toBe(true);
    // Without a reader, never an empty manifest: the render fails.
    const none = new RenderPool(options());
    await expect(
      renderWith(none, 'acct', { document: 'labels', source: { ...source(0), packages: query }, format: 'zpl' }),
    ).rejects.toThrow(/no way to read them/);
  });

  it('a failure to read the data frees the thread and the places', async () => {
    const pool = new RenderPool(options());
    await expect(renderWith(pool, 'acct', () => Promise.reject(new AppError('not_found', 'gone')))).rejects.toMatchObject({
      code: 'not_found',
    });
    expect(await renderWith(pool, 'acct', labels(1, 'zpl'))).toBeInstanceOf(Uint8Array);
    expect(pool.stats()).toMatchObject({ admitted: 0, running: 0 });
  });
});

describe('render threads', () => {
  it('renders on a thread: the same ZPL as on this thread, a 600-label PDF whole; the bytes arrive transferred', async () => {
    const pool = new RenderPool(options({ script }));
    const inline = new RenderPool(options());
    try {
      const [threaded, here] = await Promise.all([
        renderWith(pool, 'a', labels(600, 'zpl')),
        renderWith(inline, 'a', labels(600, 'zpl')),
      ]);
      expect(Buffer.from(threaded).equals(Buffer.from(here))).toBe(true);
      expect(threaded.byteOffset).toBe(0);
      expect(threaded.byteLength).toBe(threaded.buffer.byteLength);
      const pdf = await renderWith(pool, 'a', labels(600));
      const file = path.join(dir, 'labels.pdf');
      writeFileSync(file, pdf);
      expect(execFileSync('pdfinfo', [file]).toString()).toMatch(/Pages:\s+600\n/);
      expect(pool.stats()).toMatchObject({ threads: 1, rendered: 2 });
    } finally {
      await pool.close();
    }
  });

  it('a render thread reads named packages on its own connection: a database it cannot reach fails the render as a database outage (503), and the thread renders on', async () => {
    // Nothing listens on port 1: the thread's connection is refused.
    const pool = new RenderPool(options({ script, databaseUrl: 'postgresql://carrier@127.0.0.1:1/none' }));
    try {
      const named: RenderRequest = {
        document: 'labels',
        source: { ...source(0), packages: { kind: 'container', manifestId: 'MAN-POOLTEST0000001', houseWaybills: false } },
        format: 'pdf',
      };
      for (let attempt = 0; attempt < 2; attempt++) {
        const failure = await renderWith(pool, 'a', named).then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(failure).toMatchObject({ code: 'ECONNREFUSED' });
        expect(isDatabaseUnavailable(failure)).toBe(true);
      }
      // The thread itself is fine: a job that carries its packages renders.
      expect(await renderWith(pool, 'a', labels(2, 'zpl'))).toBeInstanceOf(Uint8Array);
      expect(pool.stats()).toMatchObject({ threads: 1, rendered: 1 });
    } finally {
      await pool.close();
    }
  });

  it('asked to spill, the thread writes a large document to a file of its own and hands back a small one as bytes', async () => {
    const pool = new RenderPool(options({ script }));
    try {
      const ticket = pool.admit('a');
      const large = await ticket.render(() => Promise.resolve(labels(2_000, 'zpl')), { spill: true });
      const small = await ticket.render(() => Promise.resolve(labels(2, 'zpl')), { spill: true });
      ticket.release();
      expect(isSpilled(large)).toBe(true);
      const spilled = large as SpilledDocument;
      expect(path.dirname(path.dirname(spilled.file))).toBe(tmpdir());
      expect(path.basename(path.dirname(spilled.file))).toMatch(new RegExp(`^carrier-documents-${process.pid}-`));
      expect(statSync(spilled.file).mode & 0o777).toBe(0o600);
      const bytes = await spilled.bytes();
      expect(bytes.byteLength).toBe(spilled.size);
      expect(new TextDecoder().decode(bytes).match(/\^XA/g)?.length).toBe(2_000);
      expect(small).toBeInstanceOf(Uint8Array);
    } finally {
      await pool.close();
    }
  });

  it('a spilling render past the time limit leaves no file behind', async () => {
    const pool = new RenderPool(options({ script, timeoutMs: 300 }));
    const directory = spillDirectory();
    const before = new Set(readdirSync(path.dirname(directory)));
    rmSync(directory, { recursive: true });
    try {
      const ticket = pool.admit('a');
      await expect(ticket.render(() => Promise.resolve(labels(4_000)), { spill: true })).rejects.toMatchObject({
        code: 'service_unavailable',
      });
      ticket.release();
      const made = readdirSync(path.dirname(directory)).filter(
        (name) => name.startsWith(`carrier-documents-${process.pid}-`) && !before.has(name),
      );
      expect(made).toHaveLength(1);
      const spillDir = path.join(path.dirname(directory), made[0]!);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(readdirSync(spillDir)).toEqual([]);
    } finally {
      await pool.close();
    }
  });

  it("a render past the thread's memory limit fails alone with a 503; the next render gets a fresh thread", async () => {
    const pool = new RenderPool(options({ script, memoryMb: 32 }));
    try {
      await expect(renderWith(pool, 'a', labels(60_000, 'zpl'))).rejects.toMatchObject({ code: 'service_unavailable' });
      expect(await renderWith(pool, 'a', labels(2, 'zpl'))).toBeInstanceOf(Uint8Array);
    } finally {
      await pool.close();
    }
  });

  it('a render past the time limit is stopped with a 503, its thread replaced', async () => {
    const pool = new RenderPool(options({ script, timeoutMs: 50 }));
    try {
      await expect(renderWith(pool, 'a', labels(2_000))).rejects.toMatchObject({
        code: 'service_unavailable',
        retryAfterSeconds: 5,
      });
      expect(pool.stats().threads).toBe(0);
    } finally {
      await pool.close();
    }
  });

  it('a ONE Record export past the large-document size keeps its thread (its bytes are its only large allocation)', async () => {
    const pool = new RenderPool(options({ script }));
    const customs = {
      Currency: 'EUR',
      Items: [1, 2].map((n) => ({
        Description: `Cotton T-shirt ${n}`,
        Quantity: n,
        Value: '12.50',
        Weight: '0.4',
        WeightUnit: 'kg',
        HSCode: '610910',
        OriginCountry: 'CN',
      })),
    };
    const rows = Array.from({ length: 5_000 }, (_, i) => [
      {
        TrackingNumber: `TN${i}`,
        PackageWeight: 2.5,
        ToName: `Recipient ${i}`,
        ToAddress1: `${i} Main St`,
        ToCity: 'Paris',
        ToCountry: 'FR',
        ToPhone: '+33 1 23 45 67 89',
        Customs: customs,
      },
      'manifested',
      `CB${String(i).padStart(13, '0')}`,
      `H${String(i).padStart(11, '0')}`,
    ]);
    const job: RenderJob = {
      document: 'one-record',
      source: {
        ...source(0),
        header: { FromCompany: 'Acme', ULD: 'AKE12345XH' },
        packages: new TextEncoder().encode(JSON.stringify(rows)),
      },
      options: { base: 'https://carrier.example/x', codeLists: 'https://carrier.example/c/' },
    };
    try {
      const bytes = await renderWith(pool, 'a', job);
      expect(bytes.byteLength).toBeGreaterThan(16 * 2 ** 20);
      expect(pool.stats()).toMatchObject({ threads: 1, rendered: 1 });
    } finally {
      await pool.close();
    }
  });

  it('under the idle policy a render thread runs SCHED_IDLE; a render that runs long is raised, the next job is idle again', async () => {
    const pool = new RenderPool(options({ script, policy: 'idle', nice: 10, raiseIdleAfterMs: 100 }));
    try {
      await renderWith(pool, 'a', labels(3, 'zpl'));
      expect(idleThreads()).toBe(1);
      let done = false;
      const long = renderWith(pool, 'a', labels(4_000)).finally(() => (done = true));
      let raisedWhileRendering = false;
      while (!done && !raisedWhileRendering) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        raisedWhileRendering = idleThreads() === 0;
      }
      await long;
      expect(raisedWhileRendering).toBe(true);
      expect(pool.stats().raised).toBe(1);
      // Raised to SCHED_OTHER, it keeps its nice value.
      expect(niceOfNonIdleThreads()).toContain(10);
      await renderWith(pool, 'a', labels(3, 'zpl'));
      // The long render's output may end its thread; a new one sets SCHED_IDLE as it starts, which on a loaded machine
      // can be seen a moment after the answer.
      await expect.poll(idleThreads, { timeout: 5_000 }).toBe(1);
      expect(pool.stats().raised).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it('a raise that lands late does not undo the next job’s SCHED_IDLE', async () => {
    // chrt made slow (a wrapper first on PATH): the raise of one render is still running when the next job starts.
    const slow = path.join(dir, 'slow-chrt');
    mkdirSync(slow, { recursive: true });
    const chrt = execFileSync('sh', ['-c', 'command -v chrt']).toString().trim();
    writeFileSync(path.join(slow, 'chrt'), `#!/bin/sh\nsleep 6\nexec ${chrt} "$@"\n`, { mode: 0o755 });
    const pathBefore = process.env.PATH;
    const pool = new RenderPool(options({ script, policy: 'idle', nice: 10, raiseIdleAfterMs: 100 }));
    try {
      // The thread's first render (its start included) may itself be raised, with the real chrt; the next asks for
      // SCHED_IDLE again.
      await renderWith(pool, 'a', labels(3, 'zpl'));
      await new Promise((resolve) => setTimeout(resolve, 200));
      await renderWith(pool, 'a', labels(3, 'zpl'));
      await expect.poll(idleThreads, { timeout: 5_000 }).toBe(1);
      const raisedBefore = pool.stats().raised;
      process.env.PATH = `${slow}:${pathBefore}`;
      // Raised 100 ms in; its chrt answers 6 s later, after this render has ended (a loaded machine's margin).
      const started = Date.now();
      await renderWith(pool, 'a', labels(1_000));
      expect(pool.stats().raised).toBe(raisedBefore + 1);
      expect(Date.now() - started).toBeLessThan(6_000);
      await renderWith(pool, 'a', labels(3, 'zpl'));
      // Past the late chrt: the thread asked for SCHED_IDLE again only once it had landed.
      await new Promise((resolve) => setTimeout(resolve, 6_500 - (Date.now() - started)));
      expect(pool.stats().raised).toBe(raisedBefore + 1);
      expect(idleThreads()).toBe(1);
    } finally {
      process.env.PATH = pathBefore;
      await pool.close();
    }
  });

  it('a thread idle for idleMs ends (its memory with it); the next render starts one', async () => {
    const pool = new RenderPool(options({ script, idleMs: 200 }));
    try {
      await renderWith(pool, 'a', labels(3, 'zpl'));
      expect(pool.stats().threads).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(pool.stats().threads).toBe(0);
      await renderWith(pool, 'a', labels(3, 'zpl'));
      expect(pool.stats()).toMatchObject({ threads: 1, rendered: 2 });
    } finally {
      await pool.close();
    }
  });
});
