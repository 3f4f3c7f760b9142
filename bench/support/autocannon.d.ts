// The part of autocannon's API the benchmarks use (the package ships no types, and @types/autocannon
// is not installed).
declare module 'autocannon' {
  namespace autocannon {
    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string;
      setupRequest?: (request: Request, context: Record<string, unknown>) => Request;
      /** Called with each response; `context` is the connection's, as setupRequest left it. */
      onResponse?: (status: number, body: string, context: Record<string, unknown>, headers: Record<string, string>) => void;
    }
    interface Options {
      url: string;
      connections?: number;
      duration?: number;
      requests?: Request[];
      overallRate?: number;
      /** Stop after this many requests in all (instead of a duration). */
      amount?: number;
      timeout?: number;
    }
    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p50: number;
      p90: number;
      p97_5: number;
      p99: number;
    }
    interface Result {
      requests: Histogram;
      latency: Histogram;
      throughput: Histogram;
      errors: number;
      timeouts: number;
      non2xx: number;
      duration: number;
    }
  }
  /** The run: awaitable for its result, and an emitter of each response as it arrives (responseTime in ms, fractional). */
  interface Instance extends PromiseLike<autocannon.Result> {
    on(event: 'response', listener: (client: unknown, status: number, resBytes: number, responseTime: number) => void): this;
  }
  function autocannon(options: autocannon.Options): Instance;
  export default autocannon;
}
