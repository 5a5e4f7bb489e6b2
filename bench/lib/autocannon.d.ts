/**
 * The part of autocannon's API that the bench uses (autocannon ships no types, and the DefinitelyTyped
 * ones describe an older major version). See node_modules/autocannon/README.md, "API".
 */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    type Context = Record<string, unknown>;

    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      /** Called before each send of this request; a falsy answer restarts the sequence. */
      setupRequest?: (request: Request, context: Context) => Request | null | undefined;
      /** Called with each complete answer, before the connection sends its next request. */
      onResponse?: (status: number, body: string, context: Context, headers: Record<string, unknown>) => void;
    }

    interface Options {
      url: string;
      connections?: number;
      /** Seconds. */
      duration?: number;
      /** Seconds before a request counts as timed out. */
      timeout?: number;
      method?: string;
      headers?: Record<string, string>;
      body?: string;
      /** Each connection sends these in turn, and starts again with a fresh context. */
      requests?: Request[];
      initialContext?: Context;
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
      p99: number;
    }

    interface Result {
      /** Seconds, to the hundredth. */
      duration: number;
      errors: number;
      timeouts: number;
      non2xx: number;
      '2xx': number;
      /** Milliseconds. */
      latency: Histogram;
      /** Per-second samples; `total` is every completed request. */
      requests: Histogram & { sent: number };
      statusCodeStats: Record<string, { count: number }>;
    }

    interface Instance extends EventEmitter, PromiseLike<Result> {
      /** Ends the run; the result arrives at the next one-second tick. */
      stop(): void;
      /** Each answer, with its time in milliseconds as measured (fractions included). */
      on(
        event: 'response',
        listener: (client: unknown, statusCode: number, bytes: number, responseTime: number) => void,
      ): this;
      on(event: string, listener: (...args: unknown[]) => void): this;
    }
  }

  function autocannon(options: autocannon.Options): autocannon.Instance;
  export default autocannon;
}
