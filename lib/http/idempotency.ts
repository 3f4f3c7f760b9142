import type { AuthContext } from '@/lib/auth/authenticate-token';
import { AppError, validationError } from '@/lib/errors/app-error';
import type { Environment } from '@/lib/generated/prisma/enums';
import { claimKey, keepAnswer, releaseKey, requestHash } from '@/lib/idempotency/idempotency-keys';
import { REPLAYED_HEADER } from '@/lib/api/replayed';

// Carrier operations tokens take no key: their scans are idempotent by scan_id already.

const KEY = /^[\x21-\x7e]{1,255}$/;

export interface JsonAnswer {
  status: number;
  body: string;
  headers: Record<string, string>;
}

export function idempotencyKeyOf(method: string, header: string | string[] | undefined, auth: AuthContext): string | undefined {
  if (method !== 'POST' || header === undefined || auth.kind === 'ops') return undefined;
  const key = Array.isArray(header) ? header.join(',') : header;
  if (!KEY.test(key)) {
    throw validationError([{ path: 'Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters (a UUID, say)' }]);
  }
  return key;
}

// Only a 2xx is kept, so a failed request can be retried with the same key.
export async function onceForKey(
  options: { key: string; accountId: string; environment: Environment; method: string; path: string; body: string },
  run: () => Promise<JsonAnswer>,
): Promise<JsonAnswer> {
  const scope = { accountId: options.accountId, environment: options.environment, key: options.key };
  const claim = await claimKey({ ...scope, hash: requestHash(options.method, options.path, options.body) });
  if (claim.kind === 'replay')
    return { status: claim.status, body: claim.body, headers: { ...claim.headers, [REPLAYED_HEADER]: 'true' } };
  if (claim.kind === 'mismatch') {
    throw new AppError(
      'validation_failed',
      'Idempotency-Key: this key was used with another request; send a new key for a new request.',
      {
        details: [
          { path: 'Idempotency-Key', message: 'was used with another method, path or body; send a new key for a new request' },
        ],
      },
    );
  }
  if (claim.kind === 'busy') {
    throw new AppError('conflict', 'A request with this Idempotency-Key is still running; retry shortly.', {
      retryAfterSeconds: 1,
    });
  }
  let answer: JsonAnswer;
  try {
    answer = await run();
  } catch (error) {
    await releaseKey(scope).catch(() => undefined);
    throw error;
  }
  if (answer.status >= 200 && answer.status < 300) await keepAnswer({ ...scope, ...answer });
  else await releaseKey(scope);
  return answer;
}
