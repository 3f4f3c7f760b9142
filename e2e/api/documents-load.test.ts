import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { pgPool } from '@/lib/db';
import { baseUrl, call, newAccount, pathFor, tracking, type TestAccount } from './support/api';
import { containerSample, packageSample, rateSampleAll } from './support/samples';

// Documents under load on the real server (lib/documents/render-pool.ts): renders run on a render thread, so the
// serving thread keeps answering; one account gets two renders at once and a 429 with Retry-After beyond; a closed
// daily manifest's documents are rendered once and then served from the document_cache table as they were kept.

const dir = mkdtempSync(path.join(tmpdir(), 'documents-load-'));
let shipper: TestAccount;
let bigManifest = '';
const PACKAGES = 5_000;

beforeAll(async () => {
  shipper = await newAccount('DocsLoad');
  const numbers = Array.from({ length: PACKAGES }, () => tracking('DL'));
  const created = await call('/wf/manifest', {
    token: shipper.tokens.test,
    body: containerSample(`BIG-${randomUUID().slice(0, 8)}`, numbers),
  });
  expect(created.status, created.text).toBe(200);
  bigManifest = created.json.ManifestID;
});

async function get(p: string, account: TestAccount = shipper) {
  const response = await fetch(baseUrl + pathFor('test', p), { headers: { authorization: `Token ${account.tokens.test}` } });
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

function pages(bytes: Uint8Array): number {
  const file = path.join(dir, `${randomUUID()}.pdf`);
  writeFileSync(file, bytes);
  return Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [file]).toString())?.[1]);
}

/** CPU seconds a process, or one of its threads, has used (Linux /proc; utime + stime in clock ticks of 1/100 s). */
function cpuSeconds(pid: number, tid?: number): number {
  const stat = readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.95) - 1] ?? Infinity;

describe('documents under load', () => {
  it('eight 5,000-label PDFs at once from one token: at most two render, the rest 429 with Retry-After, no 5xx; rate quotes stay fast meanwhile', async () => {
    const server = inject('serverPid');
    const [processBefore, servingBefore] = [cpuSeconds(server), cpuSeconds(server, server)];
    const started = performance.now();
    const renders = Array.from({ length: 8 }, async () => {
      const { response, bytes } = await get(`/manifests/${bigManifest}/labels`);
      return {
        status: response.status,
        retryAfter: response.headers.get('retry-after'),
        type: response.headers.get('content-type'),
        bytes,
        endedAt: performance.now() - started,
      };
    });
    // Quotes one after another while the renders run (the first render alone takes over a second).
    await new Promise((resolve) => setTimeout(resolve, 100));
    const quotes: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      const at = performance.now();
      const quote = await call('/wf/rate', { token: shipper.tokens.test, body: rateSampleAll() });
      quotes.push(performance.now() - at);
      expect(quote.status, quote.text).toBe(200);
    }
    const quotesEndedAt = performance.now() - started;
    const answers = await Promise.all(renders);
    // The render ran on another thread of the server: its serving thread (the process's main thread) used a small part.
    const [processUsed, servingUsed] = [cpuSeconds(server) - processBefore, cpuSeconds(server, server) - servingBefore];
    expect(servingUsed, `serving thread ${servingUsed} s of the process's ${processUsed} s`).toBeLessThan(processUsed * 0.5);

    const statuses = answers.map((a) => a.status);
    expect(
      statuses.every((s) => s === 200 || s === 429),
      statuses.join(' '),
    ).toBe(true);
    const rendered = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    expect(rendered.length).toBeGreaterThanOrEqual(1);
    expect(rendered.length).toBeLessThanOrEqual(2);
    expect(refused.length).toBe(8 - rendered.length);
    for (const answer of refused) {
      expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(JSON.parse(new TextDecoder().decode(answer.bytes)).error.code).toBe('rate_limited');
    }
    for (const answer of rendered) {
      expect(answer.type).toBe('application/pdf');
      expect(pages(answer.bytes)).toBe(PACKAGES);
    }
    // The quotes were answered while a render was still running, and fast.
    expect(quotesEndedAt).toBeLessThan(Math.max(...rendered.map((a) => a.endedAt)));
    expect(p95(quotes), quotes.map((ms) => ms.toFixed(0)).join(' ')).toBeLessThan(500);
  });

  it('once the renders are done the account renders again', async () => {
    const { response, bytes } = await get(`/manifests/${bigManifest}/labels?format=zpl`);
    expect(response.status).toBe(200);
    expect(new TextDecoder().decode(bytes).match(/\^XA/g)?.length).toBe(PACKAGES);
    // Sent a piece at a time (past 256 KB), with its length announced all the same.
    expect(bytes.byteLength).toBeGreaterThan(256 * 1024);
    expect(Number(response.headers.get('content-length'))).toBe(bytes.byteLength);
  });
});

/** A download read `bytesPerTick` at a time, `tickMs` apart (the server's writes then wait on the socket), or left after `leaveAfter` bytes. */
function slowDownload(p: string, options: { bytesPerTick: number; tickMs: number; leaveAfter?: number }) {
  return new Promise<{ status: number; length: number; bytes: Buffer }>((resolve, reject) => {
    const request = http.get(baseUrl + pathFor('test', p), { headers: { authorization: `Token ${shipper.tokens.test}` } });
    request.on('error', reject);
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let received = 0;
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        received += chunk.length;
        if (options.leaveAfter !== undefined && received >= options.leaveAfter) {
          request.destroy();
          resolve({
            status: response.statusCode ?? 0,
            length: Number(response.headers['content-length']),
            bytes: Buffer.concat(chunks),
          });
          return;
        }
        if (received % options.bytesPerTick < chunk.length) {
          response.pause();
          setTimeout(() => response.resume(), options.tickMs);
        }
      });
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          length: Number(response.headers['content-length']),
          bytes: Buffer.concat(chunks),
        }),
      );
      response.on('error', reject);
    });
  });
}

/** A PDF's bytes without the moment it was made (its only bytes that differ from one render to the next). */
const undated = (bytes: Uint8Array) =>
  Buffer.from(bytes)
    .toString('latin1')
    .replace(/\/(Creation|Mod)Date \(D:\d+Z\)/g, '');

describe('a large document is sent from the file its render thread wrote', () => {
  // The serving process's directory for them (lib/documents/spilled-document.ts); the portal's routes (TEST_SERVER=next)
  // read a spilled document whole instead.
  const spillDirs = () =>
    readdirSync(tmpdir())
      .filter((name) => name.startsWith(`carrier-documents-${inject('serverPid')}-`))
      .map((name) => path.join(tmpdir(), name));
  const left = () => spillDirs().flatMap((dir) => readdirSync(dir));

  it('a slow reader gets every byte a fast one does, its length announced; no file is left behind', async () => {
    const fast = await get(`/manifests/${bigManifest}/labels`);
    expect(fast.response.status).toBe(200);
    const slow = await slowDownload(`/manifests/${bigManifest}/labels`, { bytesPerTick: 256 * 1024, tickMs: 25 });
    expect(slow.status).toBe(200);
    expect(slow.length).toBe(slow.bytes.length);
    expect(slow.bytes.length).toBe(fast.bytes.byteLength);
    expect(undated(slow.bytes) === undated(fast.bytes)).toBe(true);
    expect(pages(slow.bytes)).toBe(PACKAGES);
    if (process.env.TEST_SERVER !== 'next') expect(spillDirs()).toHaveLength(1);
    expect(left()).toEqual([]);
  });

  it('a client that leaves mid-download, or asks with HEAD, leaves no file; the next download is whole', async () => {
    const gone = await slowDownload(`/manifests/${bigManifest}/labels`, {
      bytesPerTick: 64 * 1024,
      tickMs: 50,
      leaveAfter: 300_000,
    });
    expect(gone.status).toBe(200);
    const head = await fetch(baseUrl + pathFor('test', `/manifests/${bigManifest}/labels`), {
      method: 'HEAD',
      headers: { authorization: `Token ${shipper.tokens.test}` },
    });
    expect(head.status).toBe(200);
    await expect.poll(left, { timeout: 5_000 }).toEqual([]);
    const again = await get(`/manifests/${bigManifest}/labels`);
    expect(again.response.status).toBe(200);
    expect(pages(again.bytes)).toBe(PACKAGES);
  });
});

describe("the render thread reads a manifest's packages on a connection of its own", () => {
  // The production server's render thread (TEST_SERVER=next renders on the serving thread, from the pool).
  const threaded = process.env.TEST_SERVER !== 'next';
  const renderConnections = async () =>
    (
      await pgPool().query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'carrier document render'`,
      )
    ).rows.map((row) => row.pid);

  it('the packages of the manifest asked for, in its order; a connection the database ends is replaced for the next document', async () => {
    const numbers = [tracking('RT'), tracking('RT'), tracking('RT')];
    const created = await call('/wf/manifest', {
      token: shipper.tokens.test,
      body: containerSample(`OWN-${randomUUID().slice(0, 8)}`, numbers),
    });
    expect(created.status, created.text).toBe(200);
    const labelsOf = async () => {
      const { response, bytes } = await get(`/manifests/${created.json.ManifestID}/labels?format=zpl`);
      expect(response.status).toBe(200);
      return [...new TextDecoder().decode(bytes).matchAll(/RT[0-9A-Z]+/g)].map((m) => m[0]).filter((n) => numbers.includes(n));
    };
    expect([...new Set(await labelsOf())]).toEqual(numbers);
    if (!threaded) return;
    const first = await renderConnections();
    expect(first.length).toBeGreaterThanOrEqual(1);
    await pgPool().query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [first]);
    await expect.poll(renderConnections, { timeout: 5_000 }).toEqual([]);
    expect([...new Set(await labelsOf())]).toEqual(numbers);
    const again = await renderConnections();
    expect(again.length).toBeGreaterThanOrEqual(1);
    expect(again.filter((pid) => first.includes(pid))).toEqual([]);
  });
});

describe("closed daily manifests' documents are kept", () => {
  /** The account's manifest of `date`, with `count` packages. */
  async function dailyManifest(account: TestAccount, count: number, date: string): Promise<string> {
    let id = '';
    for (let i = 0; i < count; i += 1) {
      const pkg = await call('/wf/package', { token: account.tokens.test, body: packageSample(tracking('DK'), date) });
      expect(pkg.status, pkg.text).toBe(200);
      id = pkg.json.ManifestID;
    }
    return id;
  }

  const kept = async (manifestId: string) =>
    (
      await pgPool().query<{ document: string; format: string; paper: string; part: number; parts: number; bytes: Buffer }>(
        'SELECT document, format, paper, part, parts, bytes FROM document_cache WHERE manifest_id = $1 ORDER BY document, format, paper, part',
        [manifestId],
      )
    ).rows;

  it('rendered once, served again byte for byte from document_cache (not rendered again), per document, format and paper', async () => {
    const account = await newAccount('DocsKept');
    const id = await dailyManifest(account, 3, '2027-02-01T08:00:00Z');
    const closed = await call(`/manifests/${id}/close`, { token: account.tokens.test });
    expect(closed.status, closed.text).toBe(200);

    const first = await get(`/manifests/${id}/labels`, account);
    expect(first.response.status).toBe(200);
    const rows = await kept(id);
    expect(rows.map((r) => [r.document, r.format, r.paper, r.part, r.parts])).toEqual([['labels', 'pdf', '', 0, 1]]);
    expect(Buffer.from(first.bytes).equals(rows[0].bytes)).toBe(true);

    const second = await get(`/manifests/${id}/labels`, account);
    expect(second.response.status).toBe(200);
    expect(second.response.headers.get('content-disposition')).toBe(first.response.headers.get('content-disposition'));
    expect(Buffer.from(second.bytes).equals(Buffer.from(first.bytes))).toBe(true);

    // Served from the table: what the table holds is what is sent, even bytes no render would make.
    await pgPool().query(`UPDATE document_cache SET bytes = bytes || $2 WHERE manifest_id = $1 AND document = 'labels'`, [
      id,
      Buffer.from('\n%kept'),
    ]);
    const third = await get(`/manifests/${id}/labels`, account);
    expect(Buffer.from(third.bytes).equals(Buffer.concat([Buffer.from(first.bytes), Buffer.from('\n%kept')]))).toBe(true);

    // Each document, format and paper size is kept apart.
    for (const p of [`/manifests/${id}/document`, `/manifests/${id}/document?paper=a4`, `/manifests/${id}/tags?format=zpl`]) {
      const once = await get(p, account);
      const twice = await get(p, account);
      expect(once.response.status, p).toBe(200);
      expect(Buffer.from(twice.bytes).equals(Buffer.from(once.bytes)), p).toBe(true);
    }
    expect((await kept(id)).map((r) => [r.document, r.format, r.paper])).toEqual([
      ['handover', 'pdf', 'a4'],
      ['handover', 'pdf', 'letter'],
      ['labels', 'pdf', ''],
      ['tag', 'zpl', ''],
    ]);
  });

  it("an open manifest's and a cancelled one's documents are not kept", async () => {
    const account = await newAccount('DocsNotKept');
    const open = await dailyManifest(account, 1, '2027-02-01T08:00:00Z');
    expect((await get(`/manifests/${open}/labels`, account)).response.status).toBe(200);
    expect((await get(`/manifests/${open}/document`, account)).response.status).toBe(200);
    expect(await kept(open)).toEqual([]);

    const cancelled = await dailyManifest(account, 1, '2027-02-02T08:00:00Z');
    const cancel = await call(`/manifests/${cancelled}/cancel`, { token: account.tokens.test });
    expect(cancel.status, cancel.text).toBe(200);
    expect((await get(`/manifests/${cancelled}/document`, account)).response.status).toBe(200);
    expect(await kept(cancelled)).toEqual([]);
  });
});
