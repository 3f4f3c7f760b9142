// The baselines: bare node:http servers doing the same work as an operation with nothing around it
// (no pipeline, no auth, no logging, no framework), so that each benchmark compares the production
// server with what this machine can do at most for that operation. Run by bench/run.ts:
//   BASELINE=rate      parse + validate the body, quote it from rate cards loaded once, sign each quote's id, answer the quotes
//   BASELINE=package   parse + validate + price the package, then the operation's own statement, run with `pg` directly
//   BASELINE=manifest  a container and its packages stored with one statement (a multi-row unnest insert)
// Env: DATABASE_URL, PORT, BENCH_ACCOUNT_ID (the bench account: package and manifest rows are its).
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import pg from 'pg';
import { addDestinationWarnings } from '@/lib/addresses/destination-warnings';
import { pricePackage } from '@/lib/billing/pricing';
import { issueQuotes } from '@/lib/billing/quote';
import { canonicalHash } from '@/lib/canonical-hash';
import { packageInsertStatement, packageToPrice } from '@/lib/packages/create-package-manifest';
import { quoteKeyFrom } from '@/lib/billing/quote-id';
import { insertTogether } from '@/lib/packages/insert-together';
import { quoteRates } from '@/lib/rating/quote-rates';
import { parseRateCard } from '@/lib/rating/parse-rate-card';
import type { RateCardData, RateCardRow } from '@/lib/rating/types';
import { parseOperation } from '@/lib/schemas/parse';
import { PACKAGE_MANIFEST_ALIASES, PACKAGE_MANIFEST_FIELDS, ZPackageManifestRequest } from '@/lib/schemas/package-manifest';
import { RATE_ALIASES, ZRateRequest } from '@/lib/schemas/rate';
import { ignoredFields } from '@/lib/schemas/unknown-fields';

const kind = process.env.BASELINE;
const databaseUrl = process.env.DATABASE_URL!;
const accountId = process.env.BENCH_ACCOUNT_ID!;
const pool = new pg.Pool({ connectionString: databaseUrl, max: Number(process.env.DATABASE_POOL_SIZE ?? 10) });

const id = (prefix: string) => `${prefix}${randomBytes(10).toString('hex').toUpperCase()}`;

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of req) parts.push(chunk as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
  res.end(text);
}

let cards: RateCardData[] = [];

// The operation signs a quote id per rate (lib/billing/quote-id.ts): the same work here, under a key of its own.
const quoteKey = quoteKeyFrom(randomBytes(32));

function rate(text: string): unknown {
  const input = parseOperation(ZRateRequest, JSON.parse(text), { aliases: RATE_ALIASES });
  const result = quoteRates({ cards, input });
  const rates = issueQuotes({
    rates: result.rates,
    cards,
    input,
    key: quoteKey,
    accountId,
    environment: 'test',
    now: new Date(),
  });
  return result.messages.length > 0 ? { ...result, rates } : { rates };
}

// The operation's own work with nothing around it: the body parsed and validated as the operation does, priced from the
// cards loaded once, and stored with the very statement lib/packages/create-package-manifest.ts sends
// (packageInsertStatement: the package, its ledger line, its event and deliveries, the counters), prepared, through
// bare `pg`; packages that arrive while others are being written are stored together by the same batching
// (insertTogether). The day's first package makes the manifest in a transaction with it, as the operation does.
const baselineQuoteKeys = [quoteKeyFrom(randomBytes(32))];

async function createPackage(text: string): Promise<unknown> {
  const body = JSON.parse(text) as unknown;
  const pkg = parseOperation(ZPackageManifestRequest, body, { aliases: PACKAGE_MANIFEST_ALIASES, at: 'package' });
  const { charge } = pricePackage(
    { cards, keys: baselineQuoteKeys, accountId, environment: 'test', now: new Date() },
    packageToPrice(pkg),
  );
  const hash = canonicalHash(pkg);
  const day = pkg.ManifestDate.day;
  const options = { accountId, environment: 'test' as const, pkg, charge };
  const insert = (db: pg.Pool | pg.PoolClient, manifestId: string) =>
    db.query(packageInsertStatement(manifestId, options, hash).toQuery());
  let manifestId =
    manifestIds.get(day) ??
    (
      await pool.query<{ id: string }>({
        name: 'find_manifest',
        text: `SELECT id FROM daily_manifests WHERE account_id = $1::uuid AND environment = 'test' AND manifest_date = $2::date AND status = 'manifested'`,
        values: [accountId, day],
      })
    ).rows[0]?.id;
  if (manifestId) {
    // Packages that arrive while others are being written go together, as the operation sends them.
    const known = manifestId;
    await insertTogether(pool, known, { ...options, requestHash: hash }, (item) =>
      packageInsertStatement(known, item, item.requestHash),
    );
  } else {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const created = await client.query<{ id: string }>(
        `INSERT INTO daily_manifests (id, account_id, environment, manifest_date) VALUES ($1, $2::uuid, 'test', $3::date)
         ON CONFLICT (account_id, environment, manifest_date) WHERE status = 'manifested' DO NOTHING RETURNING id`,
        [id('MAN-'), accountId, day],
      );
      manifestId =
        created.rows[0]?.id ??
        (
          await client.query<{ id: string }>(
            `SELECT id FROM daily_manifests WHERE account_id = $1::uuid AND environment = 'test' AND manifest_date = $2::date AND status = 'manifested'`,
            [accountId, day],
          )
        ).rows[0].id;
      await insert(client, manifestId);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
  manifestIds.set(day, manifestId);
  const warnings = ignoredFields(body, PACKAGE_MANIFEST_FIELDS);
  addDestinationWarnings(warnings, pkg, 'package');
  return {
    IsSuccess: true,
    ManifestID: manifestId,
    TrackingNumber: pkg.TrackingNumber,
    charge,
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}

/** The day's manifest id once known, as the operation remembers it. */
const manifestIds = new Map<string, string>();

// The least a container manifest can cost: its row and every package row in one statement (atomic by itself), the
// packages from arrays (unnest) with their list columns given, as lib/manifests/create-container-manifest.ts writes them.
async function createManifest(text: string): Promise<unknown> {
  const body = JSON.parse(text) as Record<string, unknown> & { ContainerDetails: Record<string, unknown>[] };
  const { ContainerDetails: details, ...header } = body;
  const manifestId = id('MAN-');
  await pool.query(
    `WITH manifest AS (
       INSERT INTO container_manifests (id, account_id, environment, container_id, manifest_date, service_name, from_company, awb,
                                        shipment_description, package_count, header, request_hash)
       VALUES ($1, $2::uuid, 'test', $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11)
       RETURNING id, service_name, manifest_date
     )
     INSERT INTO container_packages (manifest_id, account_id, environment, position, tracking_number, detail, service_name,
                                     manifest_date, to_postal_code)
     SELECT m.id, $2::uuid, 'test', p.position, p.tracking_number, p.detail, m.service_name, m.manifest_date, p.to_postal_code
     FROM manifest m, unnest($12::int[], $13::text[], $14::jsonb[], $15::text[]) AS p(position, tracking_number, detail, to_postal_code)`,
    [
      manifestId,
      accountId,
      header.ContainerID,
      new Date(String(header.ManifestDate)),
      header.ServiceName,
      header.FromCompany,
      header.AWB ?? null,
      header.ShipmentDescription,
      details.length,
      JSON.stringify(header),
      createHash('sha256').update(text).digest('hex'),
      details.map((_, i) => i),
      details.map((d) => (d.TrackingNumber as string) ?? null),
      details.map((d) => JSON.stringify(d)),
      details.map((d) => (d.ToPostalCode as string) || null),
    ],
  );
  return { IsSuccess: 'true', ManifestID: manifestId, PackageCount: details.length };
}

const handlers: Record<string, (text: string) => unknown> = { rate, package: createPackage, manifest: createManifest };
const handler = kind ? handlers[kind] : undefined;
if (!handler) throw new Error(`BASELINE must be one of ${Object.keys(handlers).join(', ')}`);
if (kind === 'rate' || kind === 'package') {
  const { rows } = await pool.query(
    `SELECT id, service, carrier, active, location_kind AS "locationKind", dim_divisor AS "dimDivisor", weight_step_lb AS "weightStepLb",
            max_weight_lb AS "maxWeightLb", zones, weight_breaks AS "weightBreaks", surcharges, delivery_days AS "deliveryDays",
            sort_order AS "sortOrder"
     FROM rate_cards WHERE active ORDER BY sort_order, service`,
  );
  cards = rows.map((row) => parseRateCard(row as RateCardRow));
}

const server = createServer((req, res) => {
  if (req.method === 'OPTIONS') {
    res.writeHead(204).end();
    return;
  }
  readBody(req)
    .then(handler)
    .then(
      (body) => send(res, 200, body),
      (error: Error) => send(res, 500, { error: { code: 'internal_error', message: error.message } }),
    );
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT), '127.0.0.1');
process.once('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))));
