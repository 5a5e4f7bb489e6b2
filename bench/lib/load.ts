/**
 * HTTP load from autocannon, run in this process: every row that loads the server goes through here,
 * so the figures and their baselines are measured the same way.
 */
import autocannon from 'autocannon';
import { median } from './report';

export type LoadRequest = autocannon.Request;

export interface LoadOptions {
  url: string;
  connections: number;
  seconds: number;
  /** The sequence each connection sends in turn, over and over (autocannon's `requests`). */
  requests: LoadRequest[];
  /** Receives the running instance, so that a caller can stop it early (the SIGKILL row). */
  started?: (instance: autocannon.Instance) => void;
}

export interface LoadSummary {
  /** Seconds of load, over every round. */
  seconds: number;
  /** Completed requests with a 2xx answer, per second (the median over rounds). */
  requestsPerSecond: number;
  /** Milliseconds, over every answer (the median over rounds). */
  p50: number;
  p99: number;
  completed: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Each round's own figures, when there were several. */
  rounds?: { requestsPerSecond: number; p99: number }[];
}

export async function runLoad(options: LoadOptions): Promise<LoadSummary> {
  const instance = autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.seconds,
    requests: options.requests,
  });
  // autocannon's own percentiles are whole milliseconds (its histogram's lowest discernible value is
  // 1), and answers kept in memory come back in less: each 2xx answer's time is kept as measured.
  const latencies: number[] = [];
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
  });
  options.started?.(instance);
  const result = await instance;
  latencies.sort((a, b) => a - b);
  return {
    seconds: result.duration,
    requestsPerSecond: result.duration > 0 ? result['2xx'] / result.duration : 0,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    completed: result.requests.total,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

/** The nearest-rank percentile of sorted values (0 when there are none). */
export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0;
}

/** A short run whose figures are thrown away: JIT, caches and connection pools warm up first. */
export async function warmUp(url: string, connections: number, seconds: number, requests: LoadRequest[]) {
  await runLoad({ url, connections, seconds, requests });
}

/**
 * Runs each measurement `rounds` times, in turn, reversing the order every other round (A B C, C B A,
 * …): a drift in the machine's load over the run then falls on each of them alike, and a figure and
 * its baseline are compared under the same conditions.
 */
export async function interleave<R extends Record<string, () => Promise<unknown>>>(
  rounds: number,
  runs: R,
): Promise<{ [K in keyof R]: Awaited<ReturnType<R[K]>>[] }> {
  const keys = Object.keys(runs);
  const results: Record<string, unknown[]> = Object.fromEntries(keys.map((k) => [k, []]));
  for (let round = 0; round < rounds; round++) {
    for (const key of round % 2 === 0 ? keys : [...keys].reverse())
      results[key]?.push(await (runs[key] as () => Promise<unknown>)());
  }
  return results as { [K in keyof R]: Awaited<ReturnType<R[K]>>[] };
}

/** The rounds of one measurement as one: medians of the rates and percentiles, sums of the counts. */
export function combineRounds(rounds: readonly LoadSummary[]): LoadSummary {
  const sum = (pick: (s: LoadSummary) => number) => rounds.reduce((total, s) => total + pick(s), 0);
  return {
    seconds: sum((s) => s.seconds),
    requestsPerSecond: median(rounds.map((s) => s.requestsPerSecond)),
    p50: median(rounds.map((s) => s.p50)),
    p99: median(rounds.map((s) => s.p99)),
    completed: sum((s) => s.completed),
    ok: sum((s) => s.ok),
    non2xx: sum((s) => s.non2xx),
    errors: sum((s) => s.errors),
    timeouts: sum((s) => s.timeouts),
    ...(rounds.length > 1
      ? { rounds: rounds.map((s) => ({ requestsPerSecond: s.requestsPerSecond, p99: s.p99 })) }
      : {}),
  };
}
