// The portal benchmark, in Chromium (the Debian package's executable, driven by @playwright/test):
// - first render of the manifest builder (/manifests/new) for a signed-in user: first contentful
//   paint and the moment the package grid is on screen, both from the navigation's start;
// - a keystroke in a 5,000-row grid, from the key event's timestamp to the frame that shows it
//   (a requestAnimationFrame callback, then a task after it: the frame has been produced by then).
// Run alone against a running server (with MAIL_OUTBOX=on and no SMTP_URL: it signs up by the link in the outbox):
// npm run bench:portal -- --base-url http://127.0.0.1:3000
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { chromium, type Page } from '@playwright/test';
import { linkFromOutbox } from '../e2e/outbox';

export interface PortalResult {
  /** Set when the page to measure does not exist yet (or lacks what is measured). */
  pending?: string;
  fcpMs?: number;
  gridVisibleMs?: number;
  keystrokes?: number[];
  keystrokeP50Ms?: number;
  keystrokeP95Ms?: number;
  keystrokeMaxMs?: number;
  /** Packages page: from the last typed character to the frame showing the match, at `rows` packages (debounce included). */
  searchP95Ms?: number;
  /** The same run's baseline: the list request alone (GET /portal-api/packages?tracking_number=…), p95. */
  searchApiP95Ms?: number;
  /** Packages page: "Labels (PDF)" for every one of 1,000 selected packages, from the click to the download's start. */
  batchLabelsMs?: number[];
  /** The same run's baseline: the download's own link fetched by the page, to its response headers. */
  batchLabelsFetchMs?: number[];
  /** The public API reference (/reference, no account): from navigation to the frame showing every operation, each round. */
  referenceMs?: number[];
  referenceOperations?: number;
  /** The same run's baseline: the OpenAPI document it renders, fetched alone by the page, each round. */
  openApiMs?: number[];
  notes: string[];
}

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const KEYSTROKES = 30;

function csv(rows: number): string {
  const lines = ['TrackingNumber,PackageWeight,PackageWeightUnit,ToName,ToPostalCode'];
  for (let i = 0; i < rows; i++) lines.push(`BENCH${String(i).padStart(6, '0')},2.5,lb,Recipient ${i},94105`);
  return lines.join('\n');
}

export async function measurePortal(options: {
  baseUrl: string;
  rows: number;
  only?: 'search' | 'labels';
}): Promise<PortalResult> {
  if (!existsSync(CHROMIUM)) return { pending: `no Chromium at ${CHROMIUM} (apt-get install -y chromium)`, notes: [] };
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const notes: string[] = [];
  try {
    const context = await browser.newContext({ baseURL: options.baseUrl, viewport: { width: 1400, height: 900 } });
    const email = `bench-${Date.now()}@example.com`;
    const signUp = await context.request.post('/portal-api/auth/sign-up', {
      data: { company: `Bench ${Date.now()}`, email, password: 'bench password 1234' },
      headers: { origin: options.baseUrl },
    });
    if (signUp.status() === 404) return { pending: 'the portal has no /portal-api/auth/sign-up yet', notes };
    if (!signUp.ok()) throw new Error(`sign-up answered ${signUp.status()}: ${await signUp.text()}`);
    // Signed in by the link mailed for the sign-up, from the server's development outbox (MAIL_OUTBOX=on).
    const link = new URL(await linkFromOutbox(options.baseUrl, email));
    const verified = await context.request.post('/portal-api/auth/verify-email', {
      data: { token: link.searchParams.get('token') },
      headers: { origin: options.baseUrl },
    });
    if (!verified.ok()) throw new Error(`verify-email answered ${verified.status()}: ${await verified.text()}`);

    const page = await context.newPage();
    if (options.only === 'search') {
      await page.goto('/test/packages');
      const search = await timeSearches(page, options.rows, notes);
      return { searchP95Ms: p95(search.typed), searchApiP95Ms: p95(search.api), notes };
    }
    if (options.only === 'labels') return { ...(await timeBatchLabels(page, notes)), notes };
    // Once unmeasured, so that the measured load is not the server's first (compilation, caches).
    await page.goto('/test/manifests/new');
    const response = await page.goto('/test/manifests/new', { waitUntil: 'commit' });
    if (response?.status() === 404) return { pending: '/test/manifests/new does not exist yet', notes };
    // Checked on every animation frame inside the page, so the time is that of the first frame showing the grid.
    const shown = await page.waitForFunction(
      () => {
        const grid = document.querySelector('[role="grid"]');
        return grid && grid.getBoundingClientRect().height > 0 ? performance.now() : false;
      },
      undefined,
      { polling: 'raf', timeout: 60_000 },
    );
    // Resolved only once the function returned a truthy value: the frame's time.
    const shownAt = await shown.jsonValue();
    const gridVisibleMs = Math.round(shownAt === false ? Number.NaN : shownAt);
    // The paint entry can be reported after the frame that showed the grid: wait for it (buffered), 5 s at
    // most. A string, not a function: tsx would wrap a function's inner names in a helper the page lacks.
    const fcpMs = Math.round(
      await page.evaluate<number>(`new Promise((resolve) => {
        new PerformanceObserver((list) => {
          const entry = list.getEntriesByName('first-contentful-paint')[0];
          if (entry) resolve(entry.startTime);
        }).observe({ type: 'paint', buffered: true });
        setTimeout(() => resolve(Number.NaN), 5000);
      })`),
    );

    const reference = await timeReference(context);

    await fillGrid(page, options.rows, notes);
    const keystrokes = await timeKeystrokes(page);
    const sorted = [...keystrokes].sort((a, b) => a - b);
    const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] * 10) / 10;
    const search = await timeSearches(page, options.rows, notes);
    const labels = await timeBatchLabels(page, notes);
    return {
      ...labels,
      searchP95Ms: p95(search.typed),
      searchApiP95Ms: p95(search.api),
      fcpMs,
      gridVisibleMs,
      keystrokes,
      keystrokeP50Ms: at(0.5),
      keystrokeP95Ms: at(0.95),
      keystrokeMaxMs: Math.round(sorted[sorted.length - 1] * 10) / 10,
      ...reference,
      notes,
    };
  } finally {
    await browser.close();
  }
}

const REFERENCE_ROUNDS = 5;

/**
 * The public reference as a developer opens it: a fresh page each round (no cache from the last), from the
 * navigation's start to the first frame with every operation of the OpenAPI document on it.
 */
async function timeReference(context: import('@playwright/test').BrowserContext) {
  const doc = (await (await context.request.get('/api/1.1/openapi.json')).json()) as { paths: Record<string, object> };
  const operations = Object.values(doc.paths).flatMap((item) =>
    Object.keys(item).filter((k) => ['get', 'post', 'put', 'patch', 'delete'].includes(k)),
  ).length;
  const referenceMs: number[] = [];
  const openApiMs: number[] = [];
  for (let round = 0; round <= REFERENCE_ROUNDS; round++) {
    const page = await context.newPage();
    await page.goto('/reference', { waitUntil: 'commit' });
    const shown = await page.waitForFunction(
      (count) => (document.querySelectorAll('[data-testid="operation"]').length >= count ? performance.now() : false),
      operations,
      { polling: 'raf', timeout: 60_000 },
    );
    const at = Number(await shown.jsonValue());
    const fetched = await page.evaluate(async () => {
      const start = performance.now();
      await (await fetch('/api/1.1/openapi.json', { cache: 'no-store' })).json();
      return performance.now() - start;
    });
    await page.close();
    // The first round warms the server (the page's first render, the document's first build); it is not counted.
    if (round === 0) continue;
    referenceMs.push(Math.round(at));
    openApiMs.push(Math.round(fetched));
  }
  return { referenceMs, referenceOperations: operations, openApiMs };
}

/** Imports `rows` packages through the builder's CSV import, as a user would. */
async function fillGrid(page: Page, rows: number, notes: string[]): Promise<void> {
  const input = page.locator('input[type="file"]');
  await input.setInputFiles({ name: 'packages.csv', mimeType: 'text/csv', buffer: Buffer.from(csv(rows)) });
  await page.getByRole('button', { name: 'Import rows' }).click();
  await page.getByText(`Imported ${rows.toLocaleString('en-US')} rows`).waitFor({ timeout: 60_000 });
  const rowCount = await page
    .getByRole('grid')
    .getAttribute('aria-rowcount')
    .catch(() => null);
  notes.push(
    `Grid filled through the builder's CSV import with ${rows.toLocaleString('en-US')} rows (the grid's aria-rowcount, header row included, reads ${rowCount ?? 'n/a'}); ` +
      `keystrokes typed into the ToName cell of row 3, each timed from the key event to the frame after it (rAF, then a task).`,
  );
}

/** Types KEYSTROKES characters into a cell in the middle of the grid; each from key event to painted frame. */
async function timeKeystrokes(page: Page): Promise<number[]> {
  const cell = page.getByRole('gridcell', { name: /, ToName, row 3$/ });
  await cell.click();
  await cell.click(); // a second click on the selected cell edits it
  const editor = page.getByRole('textbox', { name: /ToName/ });
  await editor.waitFor({ state: 'visible' });
  await page.evaluate(() => {
    const w = window as unknown as { __keyTimes: number[] };
    w.__keyTimes = [];
    document.addEventListener(
      'keydown',
      (event) => {
        const start = event.timeStamp;
        requestAnimationFrame(() => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => w.__keyTimes.push(performance.now() - start);
          channel.port2.postMessage(null);
        });
      },
      { capture: true },
    );
  });
  for (let i = 0; i < KEYSTROKES; i++) {
    await page.keyboard.press(String.fromCharCode(97 + (i % 26)));
    await page.waitForFunction((n) => (window as unknown as { __keyTimes: number[] }).__keyTimes.length >= n, i + 1);
  }
  return page.evaluate(() => (window as unknown as { __keyTimes: number[] }).__keyTimes);
}

const SEARCHES = 20;

function p95(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(0.95 * sorted.length))] ?? Number.NaN);
}

/**
 * Accepts a container of `rows` packages (the most the grid case seeds), then searches the Packages page for one
 * package at a time by typing its whole tracking number; each timed from the last key event to the frame whose first
 * row shows it (the 100 ms debounce included). The baseline, in the same run and page: the list's request alone.
 */
async function timeSearches(page: Page, rows: number, notes: string[]): Promise<{ typed: number[]; api: number[] }> {
  const prefix = `S${Date.now().toString(36).toUpperCase()}`;
  const tn = (i: number) => `${prefix}${String(i).padStart(5, '0')}`;
  await seedSearchContainer(page, rows, prefix);
  const timed = await timeTypedSearches(
    page,
    Array.from({ length: SEARCHES }, (_, n) => tn(Math.floor(((n + 0.5) * rows) / SEARCHES))),
  );
  notes.push(
    `Packages page search: ${SEARCHES} whole tracking numbers typed among ${rows.toLocaleString('en-US')} packages of one container ` +
      `(plus the account's others), each from the last key to the frame showing the one match (100 ms debounce included); ` +
      `the baseline is the list request alone from the same page.`,
  );
  return timed;
}

/** A container of `rows` packages numbered `prefix` + 5 digits, accepted through the portal's own request. */
async function seedSearchContainer(page: Page, rows: number, prefix: string): Promise<void> {
  const created = await page.evaluate(
    async ({ count, first }) => {
      const csrf = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';
      const response = await fetch('/portal-api/manifests', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': csrf, 'x-carrier-environment': 'test' },
        body: JSON.stringify({
          ManifestDate: new Date().toISOString(),
          ServiceName: 'AirSkip',
          FromCompany: 'Bench Shipper',
          ContainerID: `${first}-ULD`,
          ContainerLength: 10,
          ContainerWidth: 10,
          ContainerHeight: 10,
          ShipmentDescription: 'Parcels',
          ContainerDetails: Array.from({ length: count }, (_, i) => ({
            TrackingNumber: `${first}${String(i).padStart(5, '0')}`,
            PackageWeight: 2,
            PackageWeightUnit: 'lb',
            ToPostalCode: '94105',
          })),
        }),
      });
      return response.status;
    },
    { count: rows, first: prefix },
  );
  if (created !== 200) throw new Error(`the search case's container answered ${created}`);
}

const BATCH_PACKAGES = 1_000;
const BATCH_ROUNDS = 5;

/**
 * The batch print of an operations team: a container of 1,000 packages, found on the Packages page by its prefix,
 * every match selected, then "Labels (PDF)": from the click to the browser's download event (the answer's headers),
 * once unmeasured (the first render starts the server's render thread), then BATCH_ROUNDS times, each download read
 * to its end before the next click. Alternated with the baseline: the same download link fetched by the page, timed
 * to its headers (the server's render and nothing of the page).
 */
async function timeBatchLabels(page: Page, notes: string[]): Promise<{ batchLabelsMs: number[]; batchLabelsFetchMs: number[] }> {
  const prefix = `L${Date.now().toString(36).toUpperCase()}`;
  const count = BATCH_PACKAGES.toLocaleString('en-US');
  await seedSearchContainer(page, BATCH_PACKAGES, prefix);
  await page.goto(`/test/packages?tracking_number=${prefix}`);
  await page.getByText(`${count} packages match these filters`).waitFor();
  await page.getByLabel('Rows per page').selectOption('100');
  await page.getByRole('checkbox', { name: 'Select every package on this page' }).check();
  const bar = page.getByRole('region', { name: 'Selected packages' });
  await bar.getByRole('button', { name: `Select all ${count} matching this filter` }).click();
  await bar.getByText(`All ${count} packages matching this filter are selected`).waitFor();

  const clicked = async () => {
    const started = performance.now();
    const [file] = await Promise.all([page.waitForEvent('download'), bar.getByRole('button', { name: 'Labels (PDF)' }).click()]);
    const ms = performance.now() - started;
    const path = await file.path();
    const head = (await readFile(path)).subarray(0, 5).toString('latin1');
    if (head !== '%PDF-') throw new Error(`the batch labels download is not a PDF: ${JSON.stringify(head)}`);
    return { ms, url: file.url() };
  };
  const { url } = await clicked();
  const batchLabelsMs: number[] = [];
  const batchLabelsFetchMs: number[] = [];
  for (let round = 0; round < BATCH_ROUNDS; round++) {
    batchLabelsMs.push(Math.round((await clicked()).ms));
    const fetched = await page.evaluate(async (link) => {
      const started = performance.now();
      const response = await fetch(link);
      const ms = performance.now() - started;
      await response.arrayBuffer();
      return { ms, status: response.status };
    }, url);
    if (fetched.status !== 200) throw new Error(`the batch labels link answered ${fetched.status}`);
    batchLabelsFetchMs.push(Math.round(fetched.ms));
  }
  notes.push(
    `Batch labels: ${count} packages of one container selected on the Packages page ("Select all ${count} matching"), ` +
      `"Labels (PDF)" timed from the click to the download's start, ${BATCH_ROUNDS} rounds after one unmeasured; the baseline ` +
      `is the same download link fetched by the page, to its headers, alternated with them.`,
  );
  return { batchLabelsMs, batchLabelsFetchMs };
}

/**
 * On the Packages page (test environment), each tracking number typed whole (all but its last character filled, the
 * last one pressed), timed from that key event to the frame whose only row shows it; and before each, the list's
 * request alone from the same page (the baseline).
 */
export async function timeTypedSearches(page: Page, numbers: string[]): Promise<TypedSearches> {
  await page.goto('/test/packages');
  const box = page.getByLabel('Tracking number');
  await box.waitFor();
  // Room for every search's requests in the resource timings (250 entries by default, then dropped).
  await page.evaluate(() => performance.setResourceTimingBufferSize(100_000));
  const typed: number[] = [];
  const api: number[] = [];
  const parts: SearchParts[] = [];
  for (const wanted of numbers) {
    api.push(
      await page.evaluate(async (q) => {
        const started = performance.now();
        const response = await fetch(`/portal-api/packages?tracking_number=${q}&limit=25`, {
          headers: { 'x-carrier-environment': 'test' },
        });
        await response.json();
        return performance.now() - started;
      }, wanted),
    );
    await box.fill(wanted.slice(0, -1));
    await page.evaluate(() => {
      const w = window as unknown as { __lastKey: number };
      document.addEventListener('keydown', (event) => (w.__lastKey = event.timeStamp), { capture: true, once: true });
    });
    await box.press(wanted.slice(-1));
    const shownAt = await page.waitForFunction(
      (q) => {
        const first = document.querySelector('[role="region"][aria-label="Packages"] tbody tr');
        const rowsShown = document.querySelectorAll('[role="region"][aria-label="Packages"] tbody tr').length;
        return first?.textContent?.includes(q) && rowsShown === 1 ? performance.now() : false;
      },
      wanted,
      { polling: 'raf', timeout: 30_000 },
    );
    const lastKey = await page.evaluate(() => (window as unknown as { __lastKey: number }).__lastKey);
    const shown = Number(await shownAt.jsonValue());
    typed.push(shown - lastKey);
    // Where the time went: the list request the page made for the whole number (the last one, in the resource timings).
    const request = await page.evaluate((q) => {
      const entries = performance
        .getEntriesByType('resource')
        .filter((e) => e.name.includes('/portal-api/packages?') && new URL(e.name).searchParams.get('tracking_number') === q);
      const last = entries[entries.length - 1] as PerformanceResourceTiming | undefined;
      return last ? { start: last.startTime, end: last.responseEnd } : null;
    }, wanted);
    if (request)
      parts.push({
        beforeRequest: request.start - lastKey,
        request: request.end - request.start,
        afterResponse: shown - request.end,
      });
  }
  return { typed, api, parts };
}

/** One typed search's time, split at the page's list request: the debounce and navigation before it, it, the render after. */
export interface SearchParts {
  beforeRequest: number;
  request: number;
  afterResponse: number;
}

export interface TypedSearches {
  typed: number[];
  api: number[];
  parts: SearchParts[];
}

/**
 * The same searches as a signed-in user of an existing account (the scale benchmark's big account): the session
 * cookie given, the numbers its packages have. `warmUp` (another of its numbers) searched first, unmeasured: the page's
 * and the queries' first run.
 */
export async function measureSearchAsUser(options: {
  baseUrl: string;
  sessionCookie: { name: string; value: string };
  warmUp: string;
  trackingNumbers: string[];
  passes?: number;
}): Promise<TypedSearches | { pending: string }> {
  if (!existsSync(CHROMIUM)) return { pending: `no Chromium at ${CHROMIUM} (apt-get install -y chromium)` };
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  try {
    const context = await browser.newContext({ baseURL: options.baseUrl, viewport: { width: 1400, height: 900 } });
    await context.addCookies([{ ...options.sessionCookie, url: options.baseUrl }]);
    const page = await context.newPage();
    await timeTypedSearches(page, [options.warmUp]);
    // Each number typed `passes` times, one pass after the other (with 20 numbers a p95 of one pass is its largest).
    // Each pass loads the page again: the list's client cache would otherwise answer a number searched seconds before.
    const all: TypedSearches = { typed: [], api: [], parts: [] };
    for (let pass = 0; pass < (options.passes ?? 1); pass++) {
      const one = await timeTypedSearches(page, options.trackingNumbers);
      all.typed.push(...one.typed);
      all.api.push(...one.api);
      all.parts.push(...one.parts);
    }
    return all;
  } finally {
    await browser.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      'base-url': { type: 'string', default: 'http://127.0.0.1:3000' },
      rows: { type: 'string', default: '5000' },
      // `--case search`: the Packages page's search alone; `--case labels`: the batch print of 1,000 labels alone.
      case: { type: 'string' },
    },
  });
  const only = values.case === 'search' || values.case === 'labels' ? values.case : undefined;
  const result = await measurePortal({ baseUrl: values['base-url'], rows: Number(values.rows), only });
  console.log(JSON.stringify(result, null, 2));
}
