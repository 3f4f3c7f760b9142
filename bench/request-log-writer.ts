// The request log writer's own cost a line, with no server and no load: this process's CPU (redaction, COPY
// encoding, the pool) and PostgreSQL's (every postgres process on the machine, so run it on a quiet one), for
// rate-sized or package-sized lines, written in batches of 500 as the log's thread writes them. Comparing it with
// the request-log benchmark's CPU per request tells what the log costs in the server beyond its own work.
//   DATABASE_URL=postgresql://… npm run bench:request-log-writer -- [rate|package] [lines a round, 50000]
// DATABASE_URL must name a migrated database that may be written to: the lines go to a made-up account, deleted
// at the end.
import pg from 'pg';
import { flushQueued, queueLine, setRequestLogEnabled, type RequestLogLine } from '@/lib/request-log/writer';
import { PACKAGE_TEMPLATE, RATE_BODY } from './support/fixtures';
import { postgresCpu, postgresCpuSince } from './support/processes';

const kind = process.argv[2] ?? 'package';
if (kind !== 'rate' && kind !== 'package') throw new Error('the first argument is rate or package');
const LINES = Number(process.argv[3] ?? 50_000);
const ROUNDS = 3;
const BATCH = 500;
const ACCOUNT = '00000000-0000-4000-8000-00000000b10c';

const RATE_ANSWER = JSON.stringify({
  rates: [
    { carrier: 'Carrier', service: 'Carrier Ground', amount: '28.12', zone: 8, billable_weight: '5', delivery_days: 7 },
    { carrier: 'Carrier', service: 'Carrier Express', amount: '58.12', zone: 8, billable_weight: '5', delivery_days: 2 },
  ],
});

function line(n: number): RequestLogLine {
  const trackingNumber = `WRITER${String(n).padStart(8, '0')}`;
  return {
    requestId: `writer-bench-${n}`,
    accountId: ACCOUNT,
    environment: 'test',
    source: 'api',
    method: 'POST',
    path: kind === 'rate' ? '/wf/rate' : '/wf/package',
    query: '',
    status: 200,
    durationMs: 3,
    tokenId: ACCOUNT,
    clientAddress: '127.0.0.1',
    userAgent: 'request-log-writer-bench',
    requestBody: kind === 'rate' ? RATE_BODY : PACKAGE_TEMPLATE.replace('__TN__', trackingNumber),
    responseBody:
      kind === 'rate'
        ? RATE_ANSWER
        : JSON.stringify({ IsSuccess: true, ManifestID: 'MAN-20261123-BENCH1', TrackingNumber: trackingNumber }),
    atMs: Date.now(),
  };
}

setRequestLogEnabled(true);
for (let round = 0; round < ROUNDS; round++) {
  const cpuBefore = process.cpuUsage();
  const postgresBefore = postgresCpu();
  const started = performance.now();
  for (let i = 0; i < LINES; i += BATCH) {
    for (let n = i; n < Math.min(i + BATCH, LINES); n++) queueLine(line(round * LINES + n));
    await flushQueued();
  }
  const cpu = process.cpuUsage(cpuBefore);
  const perLine = (microseconds: number) => (microseconds / LINES).toFixed(1);
  console.log(
    `${kind} lines, round ${round + 1}: writer ${perLine(cpu.user + cpu.system)} µs a line, PostgreSQL ${perLine(postgresCpuSince(postgresBefore) * 1e6)} µs a line, ` +
      `${Math.round(LINES / ((performance.now() - started) / 1000)).toLocaleString('en-US')} lines/s`,
  );
}
const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
await client.connect();
await client.query('DELETE FROM request_logs WHERE account_id = $1', [ACCOUNT]);
await client.end();
process.exit(0);
