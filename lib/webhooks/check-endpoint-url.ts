import 'server-only';
import { env } from '@/lib/env';
import { validationError } from '@/lib/errors/app-error';
import { checkDestination, DestinationRefusedError } from './ssrf-guard';

/** Registration-time SSRF check (delivery checks again): 422 on `url` when the destination is refused. */
export async function checkEndpointUrl(url: string): Promise<void> {
  try {
    await checkDestination(url, { allowPrivate: env().WEBHOOK_ALLOW_PRIVATE_NETWORKS });
  } catch (error) {
    if (error instanceof DestinationRefusedError) throw validationError([{ path: 'url', message: error.message }]);
    throw error;
  }
}
