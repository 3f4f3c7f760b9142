import type { TRequestResource } from '@/lib/schemas/request-log';

// Ids a logged request named, for the Logs page's links: read only from what the log keeps (its path and answer).

const PATH_RESOURCES: Record<string, TRequestResource['type']> = {
  manifests: 'manifest',
  packages: 'package',
  webhooks: 'webhook_endpoint',
  events: 'event',
};

function segment(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

export function resourcesOf(request: { method: string; path: string; status: number; response: unknown }): TRequestResource[] {
  const found: TRequestResource[] = [];
  const add = (type: TRequestResource['type'], id: unknown) => {
    if (typeof id !== 'string' || id === '' || id.length > 128) return;
    if (!found.some((r) => r.type === type && r.id === id)) found.push({ type, id });
  };
  const [, collection, id] = request.path.split('/');
  const type = collection ? PATH_RESOURCES[collection] : undefined;
  // A path's id exists when the request succeeded or was refused for its state (409); a 404's is nothing to link to.
  if (type && (request.status < 400 || request.status === 409)) add(type, segment(id));
  if (request.status < 300 && request.response && typeof request.response === 'object' && !Array.isArray(request.response)) {
    const body = request.response as Record<string, unknown>;
    add('manifest', body.ManifestID);
    add('package', body.TrackingNumber);
    if (body.object === 'webhook_endpoint') add('webhook_endpoint', body.id);
  }
  return found;
}
