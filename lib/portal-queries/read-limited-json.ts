import 'server-only';
import { env } from '@/lib/env';
import { ApiError } from '@/lib/http/errors';

/**
 * Reads a JSON body up to the API's body limit (5 MB by default): a 5,000-package container
 * manifest is larger than the portal's ordinary 1 MB form limit.
 */
export async function readLimitedJson(request: Request): Promise<unknown> {
  const limit = env().API_MAX_BODY_BYTES;
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > limit) throw new ApiError('payload_too_large', `The request body is over ${limit} bytes.`);
  const text = await request.text();
  if (Buffer.byteLength(text) > limit) throw new ApiError('payload_too_large', `The request body is over ${limit} bytes.`);
  try {
    return text ? JSON.parse(text) : {};
  } catch {
    throw new ApiError('invalid_json', 'The request body is not valid JSON.');
  }
}
