// npm run bench:documents [-- --no-write]: the document renderers in one process (they are pure:
// what the document routes spend beyond the two queries that load a manifest). Goals:
// a 5,000-package handover PDF < 2 s with < 100 MB RSS growth; one label < 50 ms p95; 100 labels/s
// from one worker. Wall time and this process's CPU time are both given: on a shared machine the
// CPU time is the figure that the machine's other load does not change.
import { appendFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import {
  renderHandoverManifest,
  renderPackageLabelPdf,
  renderPackageLabelPng,
  renderPackageLabelZpl,
  type DocumentLabel,
  type DocumentManifest,
} from '@/lib/documents';

const write = !process.argv.includes('--no-write');
const shipper = {
  company: 'Acme Parcels',
  name: 'Jane Dock',
  address1: '1 Main St',
  city: 'Newark',
  state: 'NJ',
  postalCode: '07102',
  country: 'US',
};
const pkg = (i: number) => ({
  trackingNumber: `1Z${String(i).padStart(12, '0')}`,
  weight: 2.5,
  weightUnit: i % 3 ? 'lb' : 'kg',
  length: 10 + (i % 7),
  width: 8,
  height: 6,
  toPostalCode: String(10000 + (i % 89999)),
  toCity: ['Beverly Hills', 'Toronto', 'Chicago', 'Springfield'][i % 4],
  toName: `Recipient ${i}`,
  toAddress1: `${i} Main St`,
  serviceName: 'AirSkip',
  sortCode: `S${i % 40}`,
});
const manifest: DocumentManifest = {
  kind: 'container',
  manifestId: 'MAN-BENCH0000000001',
  state: 'open',
  manifestDate: '2026-11-23',
  serviceName: 'AirSkip',
  carrier: 'Carrier',
  shipper,
  fromTerminal: 'EWR',
  toTerminal: 'LAX',
  awb: '00012345675',
  containerId: 'ULD-BENCH',
  packages: Array.from({ length: 5000 }, (_, i) => pkg(i)),
  generatedAt: new Date(),
};
const label = (i: number): DocumentLabel => ({
  manifestId: manifest.manifestId,
  manifestDate: '2026-11-23',
  carrier: 'Carrier',
  shipper,
  pkg: pkg(i),
});

async function timed<T>(fn: () => Promise<T>): Promise<{ wallMs: number; cpuMs: number; value: T }> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const value = await fn();
  const used = process.cpuUsage(cpu);
  return { wallMs: performance.now() - start, cpuMs: (used.user + used.system) / 1000, value };
}

const p = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))] ?? NaN;
const load = loadavg()[0]?.toFixed(1);

// Warm-up: fonts parsed, wasm loaded, code compiled (a worker does this once).
await renderHandoverManifest({ ...manifest, packages: manifest.packages.slice(0, 50) });
await renderPackageLabelPdf(label(1));
await renderPackageLabelPng(label(1));

global.gc?.();
const rssBefore = process.memoryUsage().rss;
let peak = rssBefore;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
const handover = await timed(() => renderHandoverManifest(manifest));
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage().rss);
const growthMb = (peak - rssBefore) / 2 ** 20;

const labelPdf: number[] = [];
const labelCpu: number[] = [];
for (let i = 0; i < 200; i += 1) {
  const t = await timed(() => renderPackageLabelPdf(label(i)));
  labelPdf.push(t.wallMs);
  labelCpu.push(t.cpuMs);
}
const png: number[] = [];
for (let i = 0; i < 50; i += 1) png.push((await timed(() => renderPackageLabelPng(label(i)))).wallMs);
const zpl: number[] = [];
for (let i = 0; i < 500; i += 1) zpl.push((await timed(() => Promise.resolve(renderPackageLabelZpl(label(i))))).wallMs);

// Sustained: labels one after another for 10 s, as one worker would render them.
const sustained = await timed(async () => {
  let n = 0;
  const end = performance.now() + 10_000;
  while (performance.now() < end) await renderPackageLabelPdf(label(n++));
  return n;
});
const perSecond = sustained.value / (sustained.wallMs / 1000);
const perCpuSecond = sustained.value / (sustained.cpuMs / 1000);

const lines = [
  `\n### Documents (bench/documents.ts), ${new Date().toISOString().slice(0, 16)} UTC, load average ${load}`,
  `| Measure | Wall | CPU | Goal |`,
  `|---|---|---|---|`,
  `| 5,000-package handover PDF (${(handover.value.length / 2 ** 20).toFixed(1)} MB) | ${handover.wallMs.toFixed(0)} ms | ${handover.cpuMs.toFixed(0)} ms | < 2 s |`,
  `| RSS growth while rendering it | ${growthMb.toFixed(0)} MB | | < 100 MB |`,
  `| One package label, PDF, p50 / p95 | ${p(labelPdf, 0.5).toFixed(1)} / ${p(labelPdf, 0.95).toFixed(1)} ms | ${p(labelCpu, 0.5).toFixed(1)} / ${p(labelCpu, 0.95).toFixed(1)} ms | < 50 ms p95 |`,
  `| One package label, PNG, p50 / p95 | ${p(png, 0.5).toFixed(1)} / ${p(png, 0.95).toFixed(1)} ms | | |`,
  `| One package label, ZPL, p50 / p95 | ${p(zpl, 0.5).toFixed(2)} / ${p(zpl, 0.95).toFixed(2)} ms | | |`,
  `| Labels (PDF) sustained for 10 s, one worker | ${perSecond.toFixed(0)} /s | ${perCpuSecond.toFixed(0)} per CPU-second | 100 /s |`,
];
console.log(lines.join('\n'));
if (write) appendFileSync(new URL('./RESULTS.md', import.meta.url), `${lines.join('\n')}\n`);
