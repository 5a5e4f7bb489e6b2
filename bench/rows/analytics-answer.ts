/**
 * Row 9, issue 19's bench row (b): a page's analytics answer as its data grows. `GET
 * /api/owner/pages/:id/analytics` over the last 30 days, with an API key, on a server whose page holds
 * 10^4 video records (from 10^3 leads) and on one whose page holds 10^7 (from 10^6 leads), measured
 * in turn: the p99 at 10^7 against the p99 at 10^4 (growth), and the requests/s at 10^7 against
 * `GET /api/health`'s on the same server in the same run.
 */
import type { AnalyticsData } from '../lib/analytics-data';
import {
  combineRounds,
  interleave,
  percentile,
  runLoad,
  warmUp,
  type LoadRequest,
  type LoadSummary,
} from '../lib/load';
import { failedRow, makeRow, type Budget, type Row } from '../lib/report';
import { runsText } from '../settings';
import { DEVICE_DETAILS } from './tracking-ingest';

export const ANSWER_ROW = 9;

export interface AnswerTarget {
  url: string;
  data: AnalyticsData;
}

export interface AnswerLoadOptions {
  connections: number;
  seconds: number;
  rounds: number;
  warmUpSeconds: number;
}

export interface AnalyticsAnswerResult {
  health: LoadSummary;
  base: LoadSummary;
  grown: LoadSummary;
  /** Answers that were not 200 with retention arrays, per size. */
  misses: Record<string, number>;
  /** One answer of each size, in brief: what was measured answers something. */
  answers: Record<string, unknown>;
  /** Answers asked for right after a new session on the page, which no kept answer can give. */
  fresh: { base: FreshAnswers; grown: FreshAnswers };
}

/** Latencies of answers made afresh, one at a time. */
export interface FreshAnswers {
  samples: number;
  p50: number;
  p99: number;
}

/** How many fresh answers each size gets (one at a time: a launch's dashboard, every poll after news). */
const FRESH_SAMPLES = 40;

/**
 * The page's answer as a live launch gives it: a visitor starts a session on the page (acknowledged,
 * so committed, so the page's version moved), then the owner asks, so the answer is made again from
 * the rows. One at a time, on an idle server: what it costs, not how it queues.
 */
async function freshAnswers(target: AnswerTarget): Promise<FreshAnswers> {
  const owner = { authorization: `Bearer ${target.data.apiKey}`, 'content-type': 'application/json' };
  const created = await fetch(`${target.url}/api/owner/funnels/${target.data.funnelId}/leads`, {
    method: 'POST',
    headers: owner,
    body: JSON.stringify({ name: 'Bench fresh answers' }),
  });
  const lead = (await created.json()) as { token?: string };
  if (created.status !== 201 || lead.token === undefined)
    throw new Error(`a lead for fresh answers: ${created.status} ${JSON.stringify(lead).slice(0, 300)}`);
  const latencies: number[] = [];
  for (let i = 0; i < FRESH_SAMPLES; i += 1) {
    const started = await fetch(`${target.url}/api/funnel/track/page`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        token: lead.token,
        start: Date.now(),
        startReason: 'INITIAL_LOAD',
        details: DEVICE_DETAILS,
      }),
    });
    const ack = await started.text();
    if (started.status !== 200 || !ack.includes('"result":true'))
      throw new Error(`a session for fresh answers: ${started.status} ${ack.slice(0, 300)}`);
    const at = performance.now();
    const answer = await fetch(`${target.url}${answerPath(target.data)}`, {
      headers: { authorization: owner.authorization },
    });
    const text = await answer.text();
    latencies.push(performance.now() - at);
    if (answer.status !== 200 || !text.includes('"reach"'))
      throw new Error(`a fresh answer: ${answer.status} ${text.slice(0, 300)}`);
  }
  latencies.sort((a, b) => a - b);
  return { samples: latencies.length, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99) };
}

/** The route's path for the target's page over its 30 days. */
export function answerPath(data: AnalyticsData): string {
  return `/api/owner/pages/${data.pageId}/analytics?from=${data.from}&to=${data.to}`;
}

/** One answer, checked and summed up (its arrays left out), before the load. */
async function checkedAnswer(target: AnswerTarget): Promise<Record<string, unknown>> {
  const response = await fetch(`${target.url}${answerPath(target.data)}`, {
    headers: { authorization: `Bearer ${target.data.apiKey}` },
  });
  const text = await response.text();
  if (response.status !== 200)
    throw new Error(`GET ${answerPath(target.data)}: ${response.status} ${text.slice(0, 300)}`);
  const body = JSON.parse(text) as Record<string, unknown> & {
    retention?: { reach?: number[]; views?: number[] };
    byDay?: unknown[];
  };
  const reach = body.retention?.reach ?? [];
  if (reach.length === 0 || !reach.some((n) => n > 0))
    throw new Error(`GET ${answerPath(target.data)}: no retention in ${text.slice(0, 300)}`);
  const { retention: _retention, byDay, conversionsByFurthest: _furthest, ...brief } = body;
  return {
    ...brief,
    bytes: text.length,
    days: byDay?.length,
    reachAt0: reach[0],
    views: body.retention?.views?.length,
  };
}

function answerRequests(target: AnswerTarget, misses: Record<string, number>, key: string): LoadRequest[] {
  return [
    {
      method: 'GET',
      path: answerPath(target.data),
      headers: { authorization: `Bearer ${target.data.apiKey}` },
      onResponse: (status: number, body: string) => {
        if (status !== 200 || !body.includes('"reach"')) misses[key] = (misses[key] ?? 0) + 1;
      },
    },
  ];
}

/**
 * Waits until the server answers `GET /api/health` within 100 ms again: a load run leaves answers
 * queued behind it when they are slow, and they must not spill into the next run.
 */
async function settle(url: string): Promise<void> {
  const until = Date.now() + 180_000;
  while (Date.now() < until) {
    const started = Date.now();
    const response = await fetch(`${url}/api/health`);
    await response.arrayBuffer();
    if (Date.now() - started < 100) return;
  }
  throw new Error(`${url} still busy 3 minutes after a load run`);
}

/**
 * This row's load: few connections, because an answer at 10^7 records takes most of a second (more
 * would only queue, past autocannon's 10 s timeout; the server's one thread is busy with 4), and runs
 * of at least 10 s, so that a run completes more than a handful of them.
 */
export const ANSWER_CONNECTIONS = 4;
export const ANSWER_MIN_SECONDS = 10;

/** The row's load settings, from the bench's. */
export function answerLoad<S extends { connections: number; seconds: number }>(settings: S): S {
  return {
    ...settings,
    connections: Math.min(settings.connections, ANSWER_CONNECTIONS),
    seconds: Math.max(settings.seconds, ANSWER_MIN_SECONDS),
  };
}

export async function measureAnalyticsAnswer(
  base: AnswerTarget,
  grown: AnswerTarget,
  options: AnswerLoadOptions,
): Promise<AnalyticsAnswerResult> {
  const { connections, seconds } = options;
  const answers = { base: await checkedAnswer(base), grown: await checkedAnswer(grown) };
  const misses: Record<string, number> = {};
  const plans: Record<string, { url: string; requests: LoadRequest[] }> = {
    health: { url: grown.url, requests: [{ method: 'GET', path: '/api/health' }] },
    base: { url: base.url, requests: answerRequests(base, misses, 'base') },
    grown: { url: grown.url, requests: answerRequests(grown, misses, 'grown') },
  };
  for (const { url, requests } of Object.values(plans)) {
    await warmUp(url, connections, options.warmUpSeconds, requests);
    await settle(url);
  }
  // Misses of the warm-ups do not count.
  for (const key of Object.keys(misses)) misses[key] = 0;
  const runs = await interleave(
    options.rounds,
    Object.fromEntries(
      Object.entries(plans).map(([name, { url, requests }]) => [
        name,
        async () => {
          const summary = await runLoad({ url, connections, seconds, requests });
          await settle(url);
          return summary;
        },
      ]),
    ),
  );
  const combined = (name: string) => combineRounds(runs[name] ?? []);
  const fresh = { base: await freshAnswers(base), grown: await freshAnswers(grown) };
  return {
    fresh,
    health: combined('health'),
    base: combined('base'),
    grown: combined('grown'),
    misses,
    answers,
  };
}

const GROWTH_BUDGET: Budget = { on: 'ratio', op: '<=', limit: 1.5 };
const RATE_BUDGET: Budget = { on: 'ratio', op: '>=', limit: 0.3 };

const count = (n: number) => n.toLocaleString('en-US');
const ms = (n: number) => `${n.toFixed(1)} ms`;
const MEASURE = 'page analytics, last 30 days';

export interface AnswerSizes {
  base: { leads: number; records: number };
  grown: { leads: number; records: number };
}

/** autocannon gives up on a request after 10 s; such a request is not in its latencies. */
const TIMEOUT_MS = 10_000;

/**
 * A run's p99, null when nothing was answered; when more than 1 % of the requests timed out or
 * failed, at least the 10 s a request waits before it times out (their latencies are not measured).
 */
function p99Of(summary: LoadSummary): number | null {
  if (summary.ok === 0) return null;
  const failed = summary.timeouts + summary.errors;
  return failed > 0.01 * (summary.completed + failed) ? Math.max(summary.p99, TIMEOUT_MS) : summary.p99;
}

function failureNote(name: string, summary: LoadSummary): string[] {
  const failed = summary.timeouts + summary.errors;
  if (failed === 0 && summary.ok > 0) return [];
  return [
    `${name}: ${count(summary.ok)} answers, ${count(summary.timeouts)} timeouts, ${count(summary.errors)} errors` +
      (failed > 0 ? ' (p99 taken as at least 10 s when over 1 % failed)' : ''),
  ];
}

/** Row 9 from the measurement, or the same lines unmeasured. */
export function analyticsAnswerRows(
  database: 'SQLite' | 'PostgreSQL',
  result: AnalyticsAnswerResult | { error: unknown },
  sizes: AnswerSizes,
  settings: { connections: number; seconds: number; rounds: number },
  notes: string[],
): Row[] {
  const grown = `${count(sizes.grown.records)} video records, ${database}`;
  const base = `${count(sizes.base.records)} records`;
  if ('error' in result) {
    return [
      failedRow(ANSWER_ROW, `${MEASURE} p99, ${grown}`, GROWTH_BUDGET, result.error),
      failedRow(ANSWER_ROW, `${MEASURE}, ${grown}`, RATE_BUDGET, result.error),
    ];
  }
  const missNotes = Object.entries(result.misses)
    .filter(([, n]) => n > 0)
    .map(([key, n]) => `${count(n)} answers (${key}) were not 200 with retention`);
  const grownP99 = p99Of(result.grown);
  const baseP99 = p99Of(result.base);
  return [
    makeRow({
      row: ANSWER_ROW,
      measure: `${MEASURE} p99, ${grown}`,
      figure: grownP99 === null ? null : { value: grownP99, unit: 'ms' },
      baseline: baseP99 === null ? null : { value: baseP99, unit: 'ms', label: base },
      budget: GROWTH_BUDGET,
      notes: [
        `issue 19 row (b): GET /api/owner/pages/:id/analytics?from=&to= (30 days) with an API key, as ` +
          `dashboards polling it get it (the answer kept while the page's version holds); a page of ` +
          `${count(sizes.grown.records)} video records from ${count(sizes.grown.leads)} leads against one of ` +
          `${count(sizes.base.records)} from ${count(sizes.base.leads)}, two servers measured in turn; ` +
          `${settings.connections} connections (not the other rows' 100: a fresh answer at 10^7 records is ` +
          'slow enough that 100 would queue past autocannon’s 10 s timeout), each run waiting for the server ' +
          `to be idle again; ${runsText(settings)}; answers completed: ${count(result.grown.ok)} at ` +
          `${count(sizes.grown.records)} records, ${count(result.base.ok)} at ${count(sizes.base.records)}`,
        `fresh answers (a session started on the page before each, so made again from the rows; ` +
          `${result.fresh.grown.samples} one at a time, no budget): p50 ${ms(result.fresh.grown.p50)}, ` +
          `p99 ${ms(result.fresh.grown.p99)} at ${count(sizes.grown.records)} records; p50 ` +
          `${ms(result.fresh.base.p50)}, p99 ${ms(result.fresh.base.p99)} at ${count(sizes.base.records)} ` +
          `(ratio of p99s ${(result.fresh.grown.p99 / Math.max(result.fresh.base.p99, 0.001)).toFixed(2)})`,
        ...notes,
        ...missNotes,
        ...failureNote(`at ${count(sizes.grown.records)} records`, result.grown),
        ...failureNote(`at ${count(sizes.base.records)} records`, result.base),
        ...failureNote('GET /api/health', result.health),
      ],
    }),
    makeRow({
      row: ANSWER_ROW,
      measure: `${MEASURE}, ${grown}`,
      figure: { value: result.grown.requestsPerSecond, unit: 'req/s' },
      baseline: { value: result.health.requestsPerSecond, unit: 'req/s', label: `GET /api/health, ${grown}` },
      budget: RATE_BUDGET,
    }),
  ];
}
