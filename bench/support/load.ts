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
  /**
   * Also keep every 2xx answer's latency as autocannon timed it (float ms) and report percentiles
   * of those: autocannon's histogram counts whole milliseconds, too coarse to compare p99s of 3–6 ms.
   */
  exactLatency?: boolean;
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
  /** With `exactLatency`: p50 and p99 of the 2xx answers' latencies, in ms with two decimals. */
  exact?: { p50: number; p99: number };
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
  const instance = autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.durationSeconds,
    requests: [request],
    overallRate: options.overallRate,
    timeout: 30,
  });
  const latencies: number[] = [];
  if (options.exactLatency) {
    instance.on('response', (_client, status, _bytes, responseTime) => {
      if (Number(status) >= 200 && Number(status) < 300) latencies.push(responseTime);
    });
  }
  const result = await instance;
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
    ...(options.exactLatency ? { exact: { p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99) } } : {}),
  };
}

/** The nearest-rank percentile (HdrHistogram's definition), rounded to 0.01 ms. */
function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  const value = sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? Number.NaN;
  return Math.round(value * 100) / 100;
}
