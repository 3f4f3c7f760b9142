import { RATE_BODY } from './support/fixtures';
process.env.DATABASE_URL ??= 'postgresql://postgres:postgres@127.0.0.1:5432/postgres';
process.env.API_RATE_LIMIT_PER_SECOND = '1000000000';
process.env.API_RATE_LIMIT_BURST = '1000000000';
const { parseOperation } = await import('@/lib/schemas/parse');
const { RATE_ALIASES, ZRateRequest } = await import('@/lib/schemas/rate');
const { checkRateLimit } = await import('@/lib/auth/rate-limit');
const { assertAddressNotBlocked } = await import('@/lib/auth/auth-failure-limiter');
let assertJsonShape: ((t: string) => void) | undefined;
try { ({ assertJsonShape } = await import('@/lib/http/json-shape')); } catch {}
async function time(name: string, n: number, f: () => unknown) {
  for (let i = 0; i < n; i++) await f();
  const rs: number[] = [];
  for (let r = 0; r < 5; r++) { const t = process.hrtime.bigint(); for (let i = 0; i < n; i++) await f(); rs.push(Number(process.hrtime.bigint() - t) / 1e3 / n); }
  rs.sort((a, b) => a - b);
  console.log(`${name}: ${rs[0].toFixed(2)} µs (median ${rs[2].toFixed(2)})`);
}
const body = JSON.parse(RATE_BODY);
await time('JSON.parse', 50000, () => JSON.parse(RATE_BODY));
if (assertJsonShape) await time('assertJsonShape', 50000, () => assertJsonShape!(RATE_BODY));
await time('parseOperation rate', 50000, () => parseOperation(ZRateRequest, body, { aliases: RATE_ALIASES }));
await time('checkRateLimit', 50000, () => checkRateLimit('tok'));
await time('assertAddressNotBlocked', 50000, () => assertAddressNotBlocked('127.0.0.1'));
process.exit(0);
