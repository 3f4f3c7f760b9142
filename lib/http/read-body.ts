import { ApiError } from './errors';

/**
 * Collects a request body. Refuses as soon as the total passes `limit` (a declared length is
 * checked before anything is read), and gives up when the whole body has not arrived within
 * `timeoutMs`, so a slow or never-ending body cannot hold a request open.
 */
export async function collectBody(
  chunks: AsyncIterable<Uint8Array>,
  options: { limit: number; declaredLength: string | null; timeoutMs: number; abort: () => void },
): Promise<string> {
  const { limit, declaredLength, timeoutMs, abort } = options;
  if (declaredLength !== null && Number(declaredLength) > limit) {
    abort();
    throw new ApiError('payload_too_large', `The request body is larger than ${limit} bytes.`);
  }
  const iterator = chunks[Symbol.asyncIterator]();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ApiError('request_timeout', `The request body did not arrive within ${timeoutMs / 1000} s.`)), timeoutMs);
  });
  const parts: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await Promise.race([iterator.next(), deadline]);
      if (done) break;
      total += value.byteLength;
      if (total > limit) throw new ApiError('payload_too_large', `The request body is larger than ${limit} bytes.`);
      parts.push(value);
    }
  } catch (error) {
    abort();
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return Buffer.concat(parts).toString('utf8');
}
