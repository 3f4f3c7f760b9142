import { createHash } from 'node:crypto';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { pgPool } from '@/lib/db';
import { env } from '@/lib/env';
import { AppError } from '@/lib/errors/app-error';

// Every limit the service keeps, on rate-limiter-flexible. Which store and why: docs/decisions/rate-limiting.md.
//  - in memory, per process: the per-token request rate (the hot path; a capacity guard, not a quota)
//  - in PostgreSQL, shared by every instance: failed token authentications per address, failed
//    sign-ins per (e-mail, address), per address and per e-mail, sign-ups per address, requests that send
//    mail per address and per recipient
// Memory stays bounded: memory records expire with their window (each holds a timer), PostgreSQL
// rows are deleted by the library an hour after they expire; nothing ever clears everyone's count.

/** The table of migration 20261123020000_rate_limits, in the library's own layout. */
export const RATE_LIMIT_TABLE = 'rate_limits';

function postgresLimiter(options: {
  keyPrefix: string;
  points: number;
  duration: number;
  inMemoryBlockOnConsumed?: number;
}): RateLimiterPostgres {
  return new RateLimiterPostgres({
    storeClient: pgPool(),
    storeType: 'pool',
    tableName: RATE_LIMIT_TABLE,
    tableCreated: true,
    ...options,
    // PostgreSQL out of reach: each process limits on its own meanwhile, rather than not at all.
    insuranceLimiter: new RateLimiterMemory({ keyPrefix: options.keyPrefix, points: options.points, duration: options.duration }),
  });
}

interface Limiters {
  tokenRate: RateLimiterMemory;
  authFailures: RateLimiterPostgres;
  signInPair: RateLimiterPostgres;
  signInAddress: RateLimiterPostgres;
  signInEmail: RateLimiterPostgres;
  signUpAddress: RateLimiterPostgres;
  mailAddress: RateLimiterPostgres;
  mailEmail: RateLimiterPostgres;
  invitationsAccount: RateLimiterPostgres;
}

const KEY = Symbol.for('carrier.limiters');
type Global = typeof globalThis & { [KEY]?: Limiters };

/** Built on first use, once per process (kept on globalThis so Next's module copies share them). */
export function limiters(): Limiters {
  const global = globalThis as Global;
  if (global[KEY]) return global[KEY];
  const e = env();
  const window = e.SIGN_IN_WINDOW_SECONDS;
  const made: Limiters = {
    // A burst of API_RATE_LIMIT_BURST per BURST/RATE seconds: on average RATE a second, BURST at once.
    tokenRate: new RateLimiterMemory({
      keyPrefix: 'token_rate',
      points: e.API_RATE_LIMIT_BURST,
      duration: Math.max(1, Math.round(e.API_RATE_LIMIT_BURST / e.API_RATE_LIMIT_PER_SECOND)),
    }),
    // Blocked in memory once the shared count reaches the limit, so a blocked address costs no query.
    authFailures: postgresLimiter({
      keyPrefix: 'auth_fail',
      points: e.API_AUTH_FAILURES_PER_MINUTE,
      duration: 60,
      inMemoryBlockOnConsumed: e.API_AUTH_FAILURES_PER_MINUTE,
    }),
    signInPair: postgresLimiter({
      keyPrefix: 'signin_pair',
      points: e.SIGN_IN_FAILURES_PER_ACCOUNT_AND_ADDRESS,
      duration: window,
    }),
    signInAddress: postgresLimiter({ keyPrefix: 'signin_addr', points: e.SIGN_IN_FAILURES_PER_ADDRESS, duration: window }),
    // Never refuses (points far above any count): its count only sets the slowdown.
    signInEmail: postgresLimiter({ keyPrefix: 'signin_email', points: 1_000_000_000, duration: 3_600 }),
    signUpAddress: postgresLimiter({ keyPrefix: 'signup_addr', points: e.SIGN_UPS_PER_ADDRESS_PER_HOUR, duration: 3_600 }),
    // Requests that send mail (lib/auth/mail-limiter.ts), per address and per recipient.
    mailAddress: postgresLimiter({ keyPrefix: 'mail_addr', points: e.MAIL_REQUESTS_PER_ADDRESS_PER_HOUR, duration: 3_600 }),
    mailEmail: postgresLimiter({ keyPrefix: 'mail_email', points: e.MAIL_REQUESTS_PER_EMAIL_PER_HOUR, duration: 3_600 }),
    // Invitations per account (on top of the two above: per sender's address and per invited e-mail).
    invitationsAccount: postgresLimiter({
      keyPrefix: 'invite_acct',
      points: e.INVITATIONS_PER_ACCOUNT_PER_HOUR,
      duration: 3_600,
    }),
  };
  global[KEY] = made;
  return made;
}

/** An e-mail as a limiter key: case and spaces folded, hashed (the table never holds e-mails, and keys stay short). */
export function emailKey(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('base64url').slice(0, 32);
}

export function retryAfterSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/** The 429 a refused limiter answers with. */
/** How long to wait, in words: "45 seconds", "1 minute", "15 minutes" (whole minutes rounded up past a minute). */
export function waitInWords(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 60) return s === 1 ? '1 second' : `${s} seconds`;
  const minutes = Math.ceil(s / 60);
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

export function rateLimited(message: (seconds: number) => string, ms: number): AppError {
  const seconds = retryAfterSeconds(ms);
  return new AppError('rate_limited', message(seconds), { retryAfterSeconds: seconds });
}

/**
 * Whether a limiter's rejection is its refusal (a RateLimiterRes), by shape: the limiters are shared across Next's
 * module copies through globalThis, and a RateLimiterRes made by another copy of the library fails `instanceof`
 * (a portal sign-up once made every later API 429 a 500).
 */
export function isRefusal(error: unknown): error is RateLimiterRes {
  return (
    error instanceof RateLimiterRes ||
    (typeof error === 'object' &&
      error !== null &&
      !(error instanceof Error) &&
      typeof (error as { msBeforeNext?: unknown }).msBeforeNext === 'number')
  );
}

/** Consumes one point; resolves to the refusal (a RateLimiterRes) or undefined when allowed. Store errors propagate. */
export async function consume(
  limiter: RateLimiterAbstract | RateLimiterPostgres,
  key: string,
): Promise<RateLimiterRes | undefined> {
  try {
    await limiter.consume(key);
    return undefined;
  } catch (error) {
    if (isRefusal(error)) return error;
    throw error;
  }
}

// Public in the library (RateLimiterStoreAbstract.getInMemoryBlockMsBeforeExpire) but missing from its types.d.ts.
declare module 'rate-limiter-flexible' {
  interface RateLimiterStoreAbstract {
    /** Milliseconds left of the in-memory block of a full key (getKey(key)), 0 when not blocked. */
    getInMemoryBlockMsBeforeExpire(rlKey: string): number;
  }
}
