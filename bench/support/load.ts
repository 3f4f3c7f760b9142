// The load generator is autocannon (npm), driven through its API; nothing timed is measured by hand.
import autocannon from 'autocannon';

export interface LoadOptions {
  url: string;
  path: string;
  connections: number;
  durationSeconds: number;
  headers?: Record<string, string>;
  /** A fixed body, or one made per request (unique ids). */
  body: string | (() => string);
  /** Caps the request rate (requests a second over all connections); unset: as fast as the server answers. */
  overallRate?: number;
}

export interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  errors: number;
  non2xx: number;
  durationSeconds: number;
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const headers = { 'content-type': 'application/json', ...options.headers };
  const makeBody = options.body;
  const request: autocannon.Request =
    typeof makeBody === 'string'
      ? { method: 'POST', path: options.path, headers, body: makeBody }
      : {
          method: 'POST',
          path: options.path,
          headers,
          setupRequest: (req) => ({ ...req, body: makeBody() }),
        };
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.durationSeconds,
    requests: [request],
    overallRate: options.overallRate,
    timeout: 30,
  });
  return {
    requests: result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    durationSeconds: result.duration,
  };
}
