// autocannon ships no types and there is no @types/autocannon: only what the benchmarks use.
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    interface RequestParams {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
    }

    interface RequestSpec extends RequestParams {
      /** Called before every request of a connection; returns the request to send. */
      setupRequest?: (request: RequestParams, context: Record<string, unknown>) => RequestParams;
      /** Called with every response of this request. */
      onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
    }

    interface Options extends RequestParams {
      url: string;
      connections?: number;
      /** Seconds. */
      duration?: number;
      amount?: number;
      /** Requests per second across all connections. */
      overallRate?: number;
      /** Seconds before a request counts as a timeout. */
      timeout?: number;
      requests?: RequestSpec[];
    }

    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      p50: number;
      p90: number;
      p97_5: number;
      p99: number;
      p99_9: number;
    }

    interface Result {
      /** Seconds. */
      duration: number;
      errors: number;
      timeouts: number;
      non2xx: number;
      statusCodeStats: Record<string, { count: number }>;
      /** Milliseconds. */
      latency: Histogram & { totalCount: number };
      /** Responses per one-second sample; `total` completed, `sent` sent. */
      requests: Histogram & { total: number; sent: number };
    }

    interface Instance extends EventEmitter, PromiseLike<Result> {}
  }

  /** Without a callback the instance is also a promise of the result. */
  function autocannon(options: autocannon.Options): autocannon.Instance;

  export default autocannon;
}
