import { createHash } from 'node:crypto';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { pgPool } from '@/lib/db';
import { env } from '@/lib/env';
import { AppError } from '@/lib/errors/app-error';

// Every limit the service keeps but the per-token rate (lib/auth/rate-limit.ts), in PostgreSQL and shared by every
// instance (which store and why: docs/decisions/rate-limiting.md). Records expire with their window; nothing ever clears
// everyone's count.

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
  authFailures: RateLimiterPostgres;
  signInPair: RateLimiterPostgres;
  signInAddress: RateLimiterPostgres;
  signInEmail: RateLimiterPostgres;
  signUpAddress: RateLimiterPostgres;
  mailAddress: RateLimiterPostgres;
  mailEmail: RateLimiterPostgres;
  invitationsAccount: RateLimiterPostgres;
  trackingAddress: RateLimiterPostgres;
  returnAddress: RateLimiterPostgres;
  returnPackage: RateLimiterPostgres;
}

const KEY = Symbol.for('carrier.limiters');
type Global = typeof globalThis & { [KEY]?: Limiters };

// Once per process, on globalThis so that Next's module copies share them.
export function limiters(): Limiters {
  const global = globalThis as Global;
  if (global[KEY]) return global[KEY];
  const e = env();
  const window = e.SIGN_IN_WINDOW_SECONDS;
  const made: Limiters = {
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
    mailAddress: postgresLimiter({ keyPrefix: 'mail_addr', points: e.MAIL_REQUESTS_PER_ADDRESS_PER_HOUR, duration: 3_600 }),
    mailEmail: postgresLimiter({ keyPrefix: 'mail_email', points: e.MAIL_REQUESTS_PER_EMAIL_PER_HOUR, duration: 3_600 }),
    invitationsAccount: postgresLimiter({
      keyPrefix: 'invite_acct',
      points: e.INVITATIONS_PER_ACCOUNT_PER_HOUR,
      duration: 3_600,
    }),
    // Public tracking has no account to count against: its lookups are counted per address (lib/tracking).
    trackingAddress: postgresLimiter({
      keyPrefix: 'track_addr',
      points: e.TRACKING_LOOKUPS_PER_ADDRESS_PER_MINUTE,
      duration: 60,
      inMemoryBlockOnConsumed: e.TRACKING_LOOKUPS_PER_ADDRESS_PER_MINUTE,
    }),
    // A public return's proof is a postal code, a small space: attempts per address, and wrong codes per package
    // from any address (lib/returns/admit-public-return.ts).
    returnAddress: postgresLimiter({
      keyPrefix: 'return_addr',
      points: e.PUBLIC_RETURN_ATTEMPTS_PER_ADDRESS_PER_HOUR,
      duration: 3_600,
    }),
    returnPackage: postgresLimiter({
      keyPrefix: 'return_pkg',
      points: e.PUBLIC_RETURN_FAILURES_PER_PACKAGE_PER_HOUR,
      duration: 3_600,
    }),
  };
  global[KEY] = made;
  return made;
}

// Hashed: the table never holds e-mails.
export function emailKey(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('base64url').slice(0, 32);
}

export function retryAfterSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

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

// By shape: the limiters are shared across Next's module copies, and another copy's RateLimiterRes fails `instanceof`.
export function isRefusal(error: unknown): error is RateLimiterRes {
  return (
    error instanceof RateLimiterRes ||
    (typeof error === 'object' &&
      error !== null &&
      !(error instanceof Error) &&
      typeof (error as { msBeforeNext?: unknown }).msBeforeNext === 'number')
  );
}

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
    getInMemoryBlockMsBeforeExpire(rlKey: string): number;
  }
}
