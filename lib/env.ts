import { z } from 'zod';
import { parseTrustedProxies } from './net/trusted-proxies';

// Parsed once, at first use; a missing or malformed variable stops the process with a clear message.
const emptyIsUnset = (value: unknown) => (value === '' ? undefined : value);
const ZEnv = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgresql:// URL' }),
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
    /** A streaming replica (or a balancer over several) for reads that may lag a little (lib/db.ts lagTolerantPool); unset: the primary. */
    DATABASE_REPLICA_URL: z.preprocess(
      emptyIsUnset,
      z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgresql:// URL' }).optional(),
    ),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** Sustained requests per second allowed per API token, and the burst above it. */
    API_RATE_LIMIT_PER_SECOND: z.coerce.number().positive().default(100),
    API_RATE_LIMIT_BURST: z.coerce.number().positive().default(200),
    /** Failed authentications one address may make per minute before it is refused with 429. */
    API_AUTH_FAILURES_PER_MINUTE: z.coerce.number().int().positive().default(30),
    /** Replaced by TRUSTED_PROXIES, which names whom to trust; refused so that nobody believes it still works. */
    TRUST_PROXY: z
      .undefined({ error: 'TRUST_PROXY is gone: set TRUSTED_PROXIES (a CIDR list such as 10.0.0.0/8, or a hop count)' })
      .optional(),
    /** A request body must arrive whole within this many milliseconds (408 otherwise). */
    API_BODY_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
    /** Request bodies above this many bytes are refused with 413 before being read whole. */
    API_MAX_BODY_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .default(5 * 1024 * 1024),

    // Webhooks (lib/webhooks, docs/decisions/webhooks.md).
    /** `off`: this process (the app's server or `next start`) runs no delivery worker; `npm run worker` still does. */
    WEBHOOK_WORKER: z.enum(['on', 'off']).default('on'),
    /** Local development and tests only: lets endpoints reach loopback and private networks (never cloud metadata). */
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: z.stringbool().default(false),
    /** Delays before each retry, ms (±20 % jitter): short steps ride out brief outages; 10 attempts over about 28 h. */
    WEBHOOK_RETRY_SCHEDULE_MS: z
      .string()
      .regex(/^\d+(,\d+)*$/, 'must be comma-separated milliseconds, e.g. 5000,300000')
      .default('5000,30000,120000,300000,1800000,7200000,18000000,36000000,36000000')
      .transform((value) => value.split(',').map(Number)),
    /** Whole-exchange timeout of one delivery attempt. */
    WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
    /** A claim's lease: a worker that dies holding a message frees it this long after claiming it. */
    WEBHOOK_LEASE_MS: z.coerce.number().int().min(500).default(60_000),
    /** Fallback poll interval; new messages wake workers at once through LISTEN/NOTIFY. */
    WEBHOOK_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(1_000),
    /** Connections of the worker's own pool (claims and outcomes), apart from DATABASE_POOL_SIZE. */
    WEBHOOK_DB_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(8),
    /** Attempts in flight at once per worker process. */
    WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(1_000).default(64),
    /** An endpoint with nothing but failed attempts for this long is disabled. */
    WEBHOOK_DISABLE_AFTER_MS: z.coerce
      .number()
      .int()
      .positive()
      .default(5 * 24 * 3_600_000),

    // Supervisor: `npm start` (server/start.ts) runs the server in worker processes (docs/reliability.md).
    /** Worker processes `npm start` runs; unset: one per core. `npm run dev` always runs one. */
    APP_WORKERS: z.coerce.number().int().min(1).max(64).optional(),
    /** On SIGTERM/SIGINT, requests in flight get this long to finish before their connections are closed. */
    APP_STOP_GRACE_MS: z.coerce.number().int().min(0).max(50_000).default(10_000),

    // Webhook signing secrets at rest (lib/webhooks/secret-box.ts, docs/decisions/webhooks.md).
    /** Base64 of 32 random bytes (`openssl rand -base64 32`): the AES-256-GCM key secrets are encrypted under. */
    WEBHOOK_SECRETS_KEY: z.preprocess(
      (value) => (value === '' ? undefined : value),
      z
        .string()
        .regex(/^\s*[A-Za-z0-9+/]{43}=?\s*$/, 'must be base64 of 32 random bytes, e.g. the output of `openssl rand -base64 32`')
        .optional(),
    ),
    /** Earlier keys (comma-separated base64), still accepted for decrypting while start-up re-encrypts under the current one. */
    WEBHOOK_SECRETS_OLD_KEYS: z
      .string()
      .regex(
        /^\s*([A-Za-z0-9+/]{43}=?\s*(,\s*[A-Za-z0-9+/]{43}=?\s*)*)?$/,
        'must be comma-separated base64 keys of 32 bytes each',
      )
      .optional(),

    // Trust boundaries: client addresses, limits, headers (lib/http/client-address.ts, docs/decisions/rate-limiting.md).
    /**
     * The proxies whose X-Forwarded-For entries are believed: none (the default), a CIDR list such as
     * `127.0.0.1/32,10.0.0.0/8`, or a hop count (`1`: the socket's peer is our one proxy).
     */
    TRUSTED_PROXIES: z
      .string()
      .optional()
      .superRefine((value, context) => {
        try {
          parseTrustedProxies(value);
        } catch (error) {
          context.addIssue({ code: 'custom', message: (error as Error).message });
        }
      }),
    /** Every request reaches users over HTTPS (TLS ends at a proxy): send Strict-Transport-Security always. */
    HTTPS_ONLY: z.stringbool().default(false),
    /** Failed sign-ins one address may make for one e-mail, and for all e-mails, per SIGN_IN_WINDOW_SECONDS. */
    SIGN_IN_FAILURES_PER_ACCOUNT_AND_ADDRESS: z.coerce.number().int().positive().default(5),
    SIGN_IN_FAILURES_PER_ADDRESS: z.coerce.number().int().positive().default(30),
    SIGN_IN_WINDOW_SECONDS: z.coerce
      .number()
      .int()
      .positive()
      .default(15 * 60),
    /** Failed sign-ins for one e-mail, from anywhere, per hour, after which every attempt on it is slowed (never refused). */
    SIGN_IN_SLOWDOWN_AFTER: z.coerce.number().int().positive().default(10),
    /** The longest that slowdown makes one attempt wait. */
    SIGN_IN_SLOWDOWN_MAX_MS: z.coerce.number().int().min(0).max(30_000).default(3_000),
    /** Sign-up attempts one address may make per hour (a taken e-mail or company counts). */
    SIGN_UPS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().positive().default(10),

    // E-mail (lib/mail, docs/decisions/mail.md): password resets and password-change notices.
    /** e.g. `smtps://user:pass@smtp.example.com:465`. Unset: nothing is sent; each message is logged (and kept for the outbox). */
    SMTP_URL: z.preprocess(emptyIsUnset, z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional()),
    /** The sender of every message: an address, or `Name <address>`. */
    MAIL_FROM: z.string().trim().min(3).max(320).default('Carrier <no-reply@localhost>'),
    /** The portal's public address every mailed link starts with (never the client-chosen Host). Required in production with SMTP_URL. */
    APP_URL: z.preprocess(emptyIsUnset, z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional()),
    /** /dev/outbox shows unsent mail to anyone who can reach it. Unset: on unless NODE_ENV is production. */
    MAIL_OUTBOX: z.preprocess(emptyIsUnset, z.enum(['on', 'off']).optional()),
    /** How long a password-reset link works. */
    PASSWORD_RESET_MINUTES: z.coerce
      .number()
      .int()
      .min(5)
      .max(24 * 60)
      .default(30),
    /** How long the link that confirms a sign-up works (lib/accounts/sign-up.ts). */
    SIGN_UP_LINK_HOURS: z.coerce
      .number()
      .int()
      .min(1)
      .max(7 * 24)
      .default(24),
    /** Requests that send mail (sign-up, forgotten password, password changes), per client address and per e-mail, per hour; then 429. */
    MAIL_REQUESTS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().positive().default(20),
    MAIL_REQUESTS_PER_EMAIL_PER_HOUR: z.coerce.number().int().positive().default(5),
    /** Invitations one account may send an hour, whoever sends them (lib/auth/mail-limiter.ts admitInvitation); then 429. */
    INVITATIONS_PER_ACCOUNT_PER_HOUR: z.coerce.number().int().positive().default(50),
    /** Public tracking lookups per client address (IPv6 by its /64) per minute, across instances; then 429. */
    TRACKING_LOOKUPS_PER_ADDRESS_PER_MINUTE: z.coerce.number().int().positive().default(30),
    /** Returns started on the public tracking page per client address per hour, right or wrong; then 429. */
    PUBLIC_RETURN_ATTEMPTS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().positive().default(20),
    /** Wrong postal codes for one package per hour, from anywhere; then 429 for that package, right code or not. */
    PUBLIC_RETURN_FAILURES_PER_PACKAGE_PER_HOUR: z.coerce.number().int().positive().default(5),

    // Webhook worker liveness (lib/webhooks/worker.ts, docs/decisions/webhooks.md "Heartbeats").
    /** Each heartbeat also frees dead workers' claims: a dead process's claims come back within about this long. */
    WEBHOOK_HEARTBEAT_MS: z.coerce.number().int().min(50).max(10_000).default(500),
    /** A worker silent this long is dead too; a live one that cannot beat for half of it cuts its attempts short first. */
    WEBHOOK_WORKER_STALE_MS: z.coerce.number().int().min(400).max(300_000).default(10_000),

    // Documents (lib/documents/render-pool.ts, docs/decisions/document-rendering.md): rendered on threads of their own.
    /** Render threads per app process: the serving thread keeps a core of its own (two cores: one thread). Each reads a
     * manifest's packages on a database connection of its own while it runs. */
    DOCUMENT_RENDER_THREADS: z.coerce.number().int().min(1).max(32).default(1),
    /** Renders that may wait for a thread, per process, beyond those running; more are answered 503 with Retry-After. */
    DOCUMENT_RENDER_QUEUE: z.coerce.number().int().min(0).max(1_000).default(16),
    /** Renders one account may have running or waiting at once, per process; more are answered 429 with Retry-After. */
    DOCUMENT_RENDERS_PER_ACCOUNT: z.coerce.number().int().min(1).max(1_000).default(2),
    /** A render thread's heap limit (its old generation); a render that needs more fails alone with 503, the thread is replaced. */
    DOCUMENT_RENDER_MEMORY_MB: z.coerce.number().int().min(32).max(4_096).default(192),
    /** A render running longer is stopped (its thread replaced) and answered 503. */
    DOCUMENT_RENDER_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(60_000),
    /** A render thread idle this long is ended, and its memory with it; the next render starts one (~0.2 s). */
    DOCUMENT_RENDER_IDLE_MS: z.coerce.number().int().min(100).max(3_600_000).default(20_000),
    /** The render threads' nice value (Linux: theirs alone): 10 lets the serving thread and the database have the CPU first. */
    DOCUMENT_RENDER_NICE: z.coerce.number().int().min(0).max(19).default(10),
    /**
     * `idle`: the render threads run under Linux's SCHED_IDLE (through `chrt`), below every nice value, and a render
     * still running after 5 s is raised to the nice value; `nice`: only the nice value.
     */
    DOCUMENT_RENDER_POLICY: z.enum(['idle', 'nice']).default('idle'),
    /** `on`: every API answer is checked against its response schema (a mismatch is a logged 500); the tests run so. */
    API_RESPONSE_CHECK: z.enum(['on', 'off']).default('off'),

    // Probes and metrics (lib/probes, README "Operations"): /healthz and /readyz are always served, without a token.
    /** Serve GET /metrics (every worker's, summed by the supervisor) on this port of its own, not the app's. */
    METRICS_PORT: z.preprocess(
      (value) => (value === '' ? undefined : value),
      z.coerce.number().int().min(1).max(65_535).optional(),
    ),
    /** The address METRICS_PORT listens on; unset: every interface (then firewall it, or set METRICS_TOKEN too). */
    METRICS_BIND_ADDRESS: z.preprocess((value) => (value === '' ? undefined : value), z.string().optional()),
    /** Requires `Authorization: Bearer <this>` for GET /metrics. Neither this nor METRICS_PORT set: no metrics are served. */
    METRICS_TOKEN: z.preprocess(
      (value) => (value === '' ? undefined : value),
      z.string().min(16, 'must be at least 16 characters (e.g. `openssl rand -hex 24`)').optional(),
    ),
  })
  .refine((value) => value.NODE_ENV !== 'production' || value.WEBHOOK_SECRETS_KEY !== undefined, {
    path: ['WEBHOOK_SECRETS_KEY'],
    message:
      'is required in production (base64 of 32 random bytes: `openssl rand -base64 32`); only `npm start` on the embedded database makes one itself, in .data/',
  })
  .refine((value) => value.NODE_ENV !== 'production' || value.SMTP_URL === undefined || value.APP_URL !== undefined, {
    path: ['APP_URL'],
    message: 'is required in production when SMTP_URL is set: the links in mail start with it (e.g. https://carrier.example.com)',
  })
  .refine((value) => value.WEBHOOK_LEASE_MS >= value.WEBHOOK_TIMEOUT_MS + 400, {
    path: ['WEBHOOK_LEASE_MS'],
    message: 'must exceed WEBHOOK_TIMEOUT_MS (by 400 ms at least), or a slow attempt could be sent twice at once',
  })
  .refine((value) => value.WEBHOOK_WORKER_STALE_MS >= 4 * value.WEBHOOK_HEARTBEAT_MS, {
    path: ['WEBHOOK_WORKER_STALE_MS'],
    message: 'must be at least 4 × WEBHOOK_HEARTBEAT_MS, or a live worker would be taken for dead after one slow heartbeat',
  });

export type Env = z.infer<typeof ZEnv>;

let parsed: Env | undefined;

export function env(): Env {
  if (parsed) return parsed;
  const result = ZEnv.safeParse(process.env);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    const message = `Invalid environment configuration:\n${lines.join('\n')}`;
    console.error(message);
    throw new Error(message);
  }
  parsed = result.data;
  return parsed;
}

// --- Process settings: read before the database is known (server/start.ts, proxy.ts, lib/log.ts, …). No
// DATABASE_URL required; parsed at every call, so a test's stubbed variable counts at once. Only scripts/database.mjs
// and scripts/migrate.mjs read process.env themselves: plain JavaScript run without TypeScript.
const unsetIfEmpty = (value: unknown) => (value === '' ? undefined : value);
const ZProcessSettings = z.object({
  /** Set by `npm start` (production) or `npm run dev` (development) when not given. */
  NODE_ENV: z.preprocess(unsetIfEmpty, z.enum(['development', 'production', 'test']).optional()),
  /** The port the app listens on. */
  PORT: z.preprocess(unsetIfEmpty, z.coerce.number().int().min(0).max(65_535).default(3000)),
  /** The address the production server listens on; unset: every interface, as `next start` does. */
  BIND_ADDRESS: z.preprocess(unsetIfEmpty, z.string().optional()),
  /** `server` (the default): the production server (server/server.ts); `next`: plain `next start`. */
  START_MODE: z.preprocess(
    unsetIfEmpty,
    z.enum(['server', 'next'], { error: 'must be "server" (the default) or "next"' }).default('server'),
  ),
  /** Secure cookies: unset, in production only; `false` for a portal served over plain http (the e2e suite). */
  COOKIE_SECURE: z.preprocess(unsetIfEmpty, z.stringbool().optional()),
  LOG_LEVEL: z.preprocess(unsetIfEmpty, z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info')),
  /** As in env() above; instrumentation.ts reads it before anything else is loaded. */
  WEBHOOK_WORKER: z.preprocess(unsetIfEmpty, z.enum(['on', 'off']).default('on')),
  /** How often each process closes daily manifests past their cut-off (safe with any number of processes). 0: never. */
  CLOSE_OUT_INTERVAL_MS: z.preprocess(unsetIfEmpty, z.coerce.number().int().min(0).max(3_600_000).default(60_000)),
  /** How often each process sends due recipient e-mails (each mail is claimed by one). 0: none. */
  RECIPIENT_MAIL_INTERVAL_MS: z.preprocess(unsetIfEmpty, z.coerce.number().int().min(0).max(3_600_000).default(2_000)),
  /** How often each process issues invoices of ended periods (once each, under a lock). 0: never. */
  INVOICE_INTERVAL_MS: z.preprocess(unsetIfEmpty, z.coerce.number().int().min(0).max(3_600_000).default(60_000)),
  /** `on` records every API request and the portal's writes and errors; `off` nothing. Retention runs hourly. */
  REQUEST_LOG: z.preprocess(unsetIfEmpty, z.enum(['on', 'off']).default('on')),
  /** Unset: `npm start` runs the embedded PostgreSQL (scripts/database.mjs). */
  DATABASE_URL: z.preprocess(unsetIfEmpty, z.string().optional()),
});

export type ProcessSettings = z.infer<typeof ZProcessSettings>;

export function processSettings(source: NodeJS.ProcessEnv = process.env): ProcessSettings {
  const result = ZProcessSettings.safeParse(source);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
  throw new Error(`Invalid environment configuration:\n${lines.join('\n')}`);
}
