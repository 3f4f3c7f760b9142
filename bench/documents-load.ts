// `npm run bench -- --only documents-load`: documents rendered beside the API (lib/documents/render-pool.ts) on the
// production server. Goals: the rate quote's p99 while eight 5,000-label PDFs render at most 1.5 × its p99 alone;
// one 5,000-label PDF in under 2 s; the serving process's RSS grows by less than 100 MB while they render and is back
// within 50 MB of where it started a minute after.
//
// Eight renders at once: four accounts, two clients each, each client asking for its account's 5,000-label PDF again
// as soon as the last one arrived (DOCUMENT_RENDERS_PER_ACCOUNT is 2: all eight are admitted, one renders, seven
// wait), in a process of their own (bench/support/download-loop.mjs) so that reading 5 MB answers does not hold up the
// rate load's timing. The rate load is a steady 200 quotes a second (8 connections), not as many as the server answers: at
// saturation p99 measures how the cores are shared, not whether a render holds up the serving thread. Rate alone
// and rate under the renders alternate over three rounds on one server; the medians are compared.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { MANIFEST_PATH, RATE_BODY, RATE_PATH, manifestTemplate, uniqueIds } from './support/fixtures';
import { runLoad, type LoadResult } from './support/load';
import { rssMb, sampleMemory, type ServerProcess } from './support/processes';

const PACKAGES = 5_000;
const ACCOUNTS = 4;
const CLIENTS_PER_ACCOUNT = 2;
const RATE = { connections: 8, overallRate: 200 };
const AFTER_SECONDS = 60;
const ROUNDS = 3;

export interface DocumentsLoadResult {
  rateAlone: LoadResult[];
  rateUnderRenders: LoadResult[];
  /** Renders completed during the loaded rounds, and answers that were not 200. */
  rendersDone: number;
  renderFailures: string[];
  coldPdfMs: number;
  warmPdfMs: number[];
  pdfBytes: number;
  rssStartMb: number;
  rssPeakMb: number;
  rssAfterMb: number;
}

export async function measureDocumentsLoad(options: {
  server: ServerProcess;
  /** A fresh account's test token, per call. */
  newToken: () => Promise<string>;
  durationSeconds: number;
  log: (message: string) => void;
}): Promise<DocumentsLoadResult> {
  const { server, log } = options;
  const tokens = await Promise.all(Array.from({ length: ACCOUNTS }, () => options.newToken()));
  const template = manifestTemplate(PACKAGES);
  const next = uniqueIds('DL');
  const manifests: string[] = [];
  for (const token of tokens) {
    const response = await fetch(server.url + MANIFEST_PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Token ${token}` },
      body: template.replaceAll('__C__', next()),
    });
    const body = (await response.json()) as { ManifestID?: string };
    if (response.status !== 200 || !body.ManifestID)
      throw new Error(`container of ${PACKAGES} packages not created: ${response.status} ${JSON.stringify(body).slice(0, 300)}`);
    manifests.push(body.ManifestID);
  }
  const labelsUrl = (i: number) => `${server.url}/version-test/api/1.1/manifests/${manifests[i]}/labels`;
  const download = async (i: number): Promise<{ status: number; bytes: number; ms: number }> => {
    const started = performance.now();
    const response = await fetch(labelsUrl(i), { headers: { authorization: `Token ${tokens[i]}` } });
    const bytes = (await response.arrayBuffer()).byteLength;
    return { status: response.status, bytes, ms: performance.now() - started };
  };
  const rate = () =>
    runLoad({
      url: server.url,
      path: RATE_PATH,
      ...RATE,
      headers: { authorization: `Token ${tokens[0]}` },
      body: RATE_BODY,
      durationSeconds: options.durationSeconds,
      exactLatency: true,
    });

  // Warm: the serving thread's code and caches (no document yet: the process has no render thread so far).
  await runLoad({
    url: server.url,
    path: RATE_PATH,
    ...RATE,
    headers: { authorization: `Token ${tokens[0]}` },
    body: RATE_BODY,
    durationSeconds: 3,
  });
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const rssStartMb = rssMb(server.pid);
  const memory = sampleMemory(server.pid, 100);

  // One PDF: the first starts the render thread; then warm ones, one at a time.
  const cold = await download(0);
  if (cold.status !== 200) throw new Error(`labels answered ${cold.status}`);
  const warm: number[] = [];
  for (let i = 0; i < 3; i += 1) warm.push((await download(i % ACCOUNTS)).ms);
  log(
    `documents: one ${PACKAGES}-label PDF (${(cold.bytes / 2 ** 20).toFixed(1)} MB) ${cold.ms.toFixed(0)} ms cold, ${warm.map((ms) => ms.toFixed(0)).join(' / ')} ms warm`,
  );

  const downloads = Array.from({ length: ACCOUNTS * CLIENTS_PER_ACCOUNT }, (_, c) => ({
    url: labelsUrl(c % ACCOUNTS),
    authorization: `Token ${tokens[c % ACCOUNTS]}`,
  }));
  const rateAlone: LoadResult[] = [];
  const rateUnderRenders: LoadResult[] = [];
  let rendersDone = 0;
  const renderFailures: string[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    rateAlone.push(await rate());
    log(`documents: rate alone p99 ${rateAlone.at(-1)?.exact?.p99} ms`);
    // The downloads in a process of their own: reading 5 MB answers here would hold up autocannon's timing.
    const clients = spawn(process.execPath, [fileURLToPath(new URL('./support/download-loop.mjs', import.meta.url))], {
      env: { ...process.env, DOWNLOADS: JSON.stringify(downloads) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let report = '';
    clients.stdout.on('data', (chunk: Buffer) => (report += chunk.toString()));
    const ended = new Promise((resolve) => clients.once('exit', resolve));
    // The renders under way (all eight admitted, the first one rendering) before the quotes are timed.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    rateUnderRenders.push(await rate());
    clients.kill('SIGTERM');
    await ended;
    const { done, failures } = JSON.parse(report || '{"done":0,"failures":["no report"]}') as {
      done: number;
      failures: unknown[];
    };
    rendersDone += done;
    renderFailures.push(...failures.map(String));
    log(`documents: rate under renders p99 ${rateUnderRenders.at(-1)?.exact?.p99} ms (${done} renders meanwhile)`);
  }
  const rssPeakMb = Math.max(...memory.stop().map((s) => s.mb));
  log(
    `documents: RSS ${rssStartMb.toFixed(0)} MB at the start, ${rssPeakMb.toFixed(0)} MB at the peak; waiting ${AFTER_SECONDS} s`,
  );
  await new Promise((resolve) => setTimeout(resolve, AFTER_SECONDS * 1_000));
  const rssAfterMb = rssMb(server.pid);
  return {
    rateAlone,
    rateUnderRenders,
    rendersDone,
    renderFailures,
    coldPdfMs: cold.ms,
    warmPdfMs: warm,
    pdfBytes: cold.bytes,
    rssStartMb,
    rssPeakMb,
    rssAfterMb,
  };
}
