import { retryAfterSeconds } from './errors.js';

export interface TransportOptions {
  fetch: typeof fetch;
  maxRetries: number;
  maxDelayMs: number;
  timeoutMs: number;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });

/** 0.5 s, 1 s, 2 s… with ±20 % jitter, never above the cap. */
const backoff = (attempt: number, maxDelayMs: number) => Math.min(maxDelayMs, 500 * 2 ** attempt * (0.8 + Math.random() * 0.4));

/**
 * Worth another attempt: 429 and 503 say so, and a 409 with Retry-After is a request with the same Idempotency-Key
 * still running. Any other 409 (a ContainerID stored with another body) would answer the same again.
 */
const retryable = (response: Response) =>
  response.status === 429 || response.status === 503 || (response.status === 409 && response.headers.has('retry-after'));

/** Headers are in when the answer starts: the timeout bounds the wait for it, not the reading of a long document. */
async function attempt(request: Request, options: TransportOptions): Promise<Response> {
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(new Error(`no answer within ${options.timeoutMs} ms`)), options.timeoutMs);
  try {
    return await options.fetch(request.clone(), { signal: AbortSignal.any([request.signal, timeout.signal]) });
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A fetch that tries again on 429, 503, a busy Idempotency-Key and network failures: after Retry-After when the answer
 * gives one, else with backoff. Every POST carries an Idempotency-Key (the caller's, or a new UUID), the same on every
 * attempt, so a retry after a lost answer replays the first request's answer instead of acting twice.
 */
export function retryingFetch(options: TransportOptions): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    if (request.method === 'POST' && !request.headers.has('idempotency-key'))
      request.headers.set('idempotency-key', crypto.randomUUID());
    for (let tries = 0; ; tries += 1) {
      let response: Response;
      try {
        response = await attempt(request, options);
      } catch (error) {
        if (request.signal.aborted || tries >= options.maxRetries) throw error;
        await sleep(backoff(tries, options.maxDelayMs), request.signal);
        continue;
      }
      if (!retryable(response) || tries >= options.maxRetries) return response;
      const wait = retryAfterSeconds(response.headers);
      await response.body?.cancel();
      await sleep(
        wait === null ? backoff(tries, options.maxDelayMs) : Math.min(options.maxDelayMs, wait * 1_000),
        request.signal,
      );
    }
  };
}
