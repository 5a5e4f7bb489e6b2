/**
 * Rows 3 and 4: `POST /api/funnel/site` for many different leads at once, against `GET /api/health`
 * of the same process (a route that does one trivial query: the cost of HTTP, routing and a database
 * round trip, with no page resolution). Each request names a different lead, drawn at random from the
 * whole table, so that lookups do not all hit the same cached rows.
 *
 * Two servers run side by side, one on a database of 1,000 leads and one on a database of 1,000,000,
 * and the runs alternate between them, so that the growth ratio compares like with like.
 */
import { combineRounds, interleave, warmUp, runLoad, type LoadRequest, type LoadSummary } from '../lib/load';
import { failedRow, makeRow, type Budget, type Row } from '../lib/report';
import { runsText } from '../settings';

export interface ResolutionOptions {
  connections: number;
  seconds: number;
  rounds: number;
  warmUpSeconds: number;
}

/** A server to load, with the leads its database holds and those the requests name. */
export interface ResolutionTarget {
  url: string;
  leads: number;
  sample: readonly { slug: string; token: string }[];
}

export interface SiteLoad {
  leads: number;
  /** Distinct leads the requests named. */
  requestedLeads: number;
  site: LoadSummary;
  /** Answers that were not PAGE_FOUNDED: the lead was not found, so the figure would be meaningless. */
  notFound: number;
}

export interface ResolutionResult {
  /** GET /api/health on the smaller database's server. */
  health: LoadSummary;
  base: SiteLoad;
  grown: SiteLoad;
}

export async function measureResolution(
  base: ResolutionTarget,
  grown: ResolutionTarget,
  options: ResolutionOptions,
): Promise<ResolutionResult> {
  const { connections, seconds } = options;
  const baseSite = siteRequests(base);
  const grownSite = siteRequests(grown);
  const health: LoadRequest[] = [{ method: 'GET', path: '/api/health' }];
  for (const [url, requests] of [
    [base.url, health],
    [base.url, baseSite.requests],
    [grown.url, grownSite.requests],
  ] as const)
    await warmUp(url, connections, options.warmUpSeconds, requests);
  baseSite.notFound = 0;
  grownSite.notFound = 0;
  const runs = await interleave(options.rounds, {
    health: () => runLoad({ url: base.url, connections, seconds, requests: health }),
    base: () => runLoad({ url: base.url, connections, seconds, requests: baseSite.requests }),
    grown: () => runLoad({ url: grown.url, connections, seconds, requests: grownSite.requests }),
  });
  const siteLoad = (target: ResolutionTarget, rounds: LoadSummary[], notFound: number): SiteLoad => ({
    leads: target.leads,
    requestedLeads: target.sample.length,
    site: combineRounds(rounds),
    notFound,
  });
  return {
    health: combineRounds(runs.health),
    base: siteLoad(base, runs.base, baseSite.notFound),
    grown: siteLoad(grown, runs.grown, grownSite.notFound),
  };
}

/** One request that names the next lead of a shuffled sample each time, and counts misses. */
function siteRequests(target: ResolutionTarget): { requests: LoadRequest[]; notFound: number } {
  const bodies = shuffle(
    target.sample.map((lead) =>
      JSON.stringify({ domain: target.url, type: 'BASE', slug: lead.slug, token: lead.token }),
    ),
  );
  if (bodies.length === 0) throw new Error('no leads to request');
  let next = 0;
  const counter = {
    notFound: 0,
    requests: [
      {
        method: 'POST',
        path: '/api/funnel/site',
        headers: { 'content-type': 'application/json' },
        setupRequest: (request: LoadRequest) => ({
          ...request,
          body: bodies[next++ % bodies.length] as string,
        }),
        onResponse: (status: number, body: string) => {
          if (status !== 200 || !body.includes('"PAGE_FOUNDED"')) counter.notFound += 1;
        },
      },
    ],
  };
  return counter;
}

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

const RATE_BUDGET: Budget = { on: 'ratio', op: '>=', limit: 0.5 };
const P99_BUDGET: Budget = { on: 'figure', op: '<=', limit: 25 };
const GROWTH_BUDGET: Budget = { on: 'ratio', op: '<=', limit: 1.5 };

const count = (n: number) => n.toLocaleString('en-US');

/** Rows 3 and 4 from the measurement, or the same lines unmeasured. */
export function resolutionRows(
  result: ResolutionResult | { error: unknown },
  leads: { base: number; grown: number },
  settings: { connections: number; seconds: number; rounds: number },
  notes: { load: string[]; growth: string[] },
): Row[] {
  const base = `${count(leads.base)} leads`;
  const grown = `${count(leads.grown)} leads`;
  const measures = {
    rate: `POST /api/funnel/site, ${base}`,
    p99: `POST /api/funnel/site p99, ${base}`,
    growth: `POST /api/funnel/site p99, ${grown}`,
    growthRate: `POST /api/funnel/site, ${grown}`,
  };
  if ('error' in result)
    return [
      failedRow(3, measures.rate, RATE_BUDGET, result.error),
      failedRow(3, measures.p99, P99_BUDGET, result.error),
      failedRow(4, measures.growth, GROWTH_BUDGET, result.error),
      failedRow(4, measures.growthRate, null, result.error),
    ];
  const misses = (load: SiteLoad) =>
    load.notFound > 0
      ? [`${count(load.notFound)} answers at ${count(load.leads)} leads were not PAGE_FOUNDED`]
      : [];
  const health = { label: 'GET /api/health' };
  return [
    makeRow({
      row: 3,
      measure: measures.rate,
      figure: { value: result.base.site.requestsPerSecond, unit: 'req/s' },
      baseline: { value: result.health.requestsPerSecond, unit: 'req/s', ...health },
      budget: RATE_BUDGET,
      notes: [
        `${settings.connections} connections (autocannon); ${runsText(settings)}`,
        `${count(result.base.requestedLeads)} different leads requested in random order ` +
          `(${count(result.grown.requestedLeads)} at ${grown})`,
        ...notes.load,
        ...misses(result.base),
      ],
    }),
    makeRow({
      row: 3,
      measure: measures.p99,
      figure: { value: result.base.site.p99, unit: 'ms' },
      baseline: { value: result.health.p99, unit: 'ms', ...health },
      budget: P99_BUDGET,
    }),
    makeRow({
      row: 4,
      measure: measures.growth,
      figure: { value: result.grown.site.p99, unit: 'ms' },
      baseline: { value: result.base.site.p99, unit: 'ms', label: base },
      budget: GROWTH_BUDGET,
      notes: [
        `a second server on a second database of ${grown}, measured in turn with the first`,
        ...notes.growth,
        ...misses(result.grown),
      ],
    }),
    makeRow({
      row: 4,
      measure: measures.growthRate,
      figure: { value: result.grown.site.requestsPerSecond, unit: 'req/s' },
      baseline: { value: result.base.site.requestsPerSecond, unit: 'req/s', label: base },
    }),
  ];
}
