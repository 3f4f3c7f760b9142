// Micro-benchmark of the rate hot path: quoteRates on the three seeded cards, no I/O.
//   npm run bench:rating [-- calls]   (node --import tsx bench/quote-rates-micro.ts [calls])
// Prints ops/s (one op = one quoteRates call quoting all three services) for a few request shapes,
// best of 5 rounds after a warm-up. Numbers: docs/decisions/one-number-system.md.
import { PerformanceObserver } from 'node:perf_hooks';
import { RATE_CARDS } from '../prisma/seed-data/rate-cards';
import { parseRateCard } from '../lib/rating/parse-rate-card';
import { quoteRates } from '../lib/rating/quote-rates';
import type { RateInput } from '../lib/rating/types';

const calls = Number(process.argv[2] ?? 100_000);
const cards = RATE_CARDS.map((c) => parseRateCard(c));
const route = { fromZip: '10001', toZip: '60601', origin: 'JFK', destination: 'ORD' };
const shapes: [string, RateInput][] = [
  ['lb, small box', { weight: '2.5', weightUnit: 'lb', length: '10', width: '8', height: '4', ...route }],
  ['kg, bulky (dim weight)', { weight: '3.175', weightUnit: 'kg', length: '24.5', width: '18.25', height: '12.75', ...route }],
  [
    'oz, one service',
    { weight: '12.5', weightUnit: 'oz', length: '6', width: '4', height: '2', service: 'Carrier Ground', ...route },
  ],
];

// Garbage collections during the timed rounds: a proxy for allocations per call.
let gcCount = 0;
let gcMs = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    gcCount++;
    gcMs += e.duration;
  }
}).observe({ entryTypes: ['gc'] });
const tick = () => new Promise((resolve) => setImmediate(resolve)); // lets the observer report

let sink = 0;
for (const [name, input] of shapes) {
  for (let i = 0; i < 20_000; i++) sink += quoteRates({ cards, input }).rates.length; // warm-up
  let best = 0;
  await tick();
  gcCount = 0;
  gcMs = 0;
  for (let round = 0; round < 5; round++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) sink += quoteRates({ cards, input }).rates.length;
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    best = Math.max(best, calls / seconds);
  }
  await tick();
  const perRound = (n: number) => (n / 5).toFixed(1);
  console.log(
    `${name.padEnd(24)} ${Math.round(best).toLocaleString('en-US').padStart(10)} ops/s  (${calls} calls, best of 5; ` +
      `${perRound(gcCount)} GCs, ${perRound(gcMs)} ms GC per round)`,
  );
}
if (sink === 0) console.log('(no quotes)');
