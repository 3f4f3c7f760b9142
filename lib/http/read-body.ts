import { ApiError } from './errors';

function tooLarge(limit: number): ApiError {
  return new ApiError('payload_too_large', `The request body is larger than ${limit} bytes.`);
}

/** Collects chunks, refusing as soon as the total passes `limit` (a declared length is checked first). */
export async function collectBody(
  chunks: AsyncIterable<Uint8Array>,
  limit: number,
  declaredLength: string | null,
  abort: () => void,
): Promise<string> {
  if (declaredLength !== null && Number(declaredLength) > limit) {
    abort();
    throw tooLarge(limit);
  }
  const parts: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of chunks) {
    total += chunk.byteLength;
    if (total > limit) {
      abort();
      throw tooLarge(limit);
    }
    parts.push(chunk);
  }
  return Buffer.concat(parts).toString('utf8');
}
