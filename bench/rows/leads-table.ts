/**
 * Row 7: the Studio's leads table as the table grows (issue 18). Three owner requests, each on a
 * server whose funnel holds 1,000 leads and on one whose funnel holds 1,000,000, measured in turn:
 *
 * - a page: the newest 50 leads;
 * - a name search: a surname, a different lead's each time (each surname is one lead's);
 * - a filtered page: the newest 50 leads on the funnel's second page (a third of the leads).
 *
 * Their p99 at 1,000,000 against their p99 at 1,000 (growth), and their requests/s at 1,000,000
 * against `GET /api/health`'s on the same server in the same run. A search for a common first name
 * (one lead in 40) is measured too, without a budget, after the others and with fewer connections:
 * its cost grows with the leads it finds (decision 22), and a backlog of it would spill into the next
 * run.
 */
import { benchFirstName, benchSurname, type LeadTable } from '../lib/lead-table';
import { combineRounds, interleave, runLoad, warmUp, type LoadRequest, type LoadSummary } from '../lib/load';
import { failedRow, makeRow, type Budget, type Row } from '../lib/report';
import { runsText } from '../settings';

export interface TableTarget {
  url: string;
  table: LeadTable;
}

export interface LoadOptions {
  connections: number;
  seconds: number;
  rounds: number;
  warmUpSeconds: number;
  /** Different surnames the searches name. */
  searches: number;
}

const KINDS = ['page', 'search', 'filtered', 'common'] as const;
type Kind = (typeof KINDS)[number];
const BUDGETED = ['page', 'search', 'filtered'] as const;
/** Connections of the common-name search. */
const COMMON_CONNECTIONS = 4;

export interface LeadsTableResult {
  health: LoadSummary;
  base: Record<Kind, LoadSummary>;
  grown: Record<Kind, LoadSummary>;
  /** Answers that were not 200 with at least one lead, per size and kind. */
  misses: Record<string, number>;
}

function requestsOf(
  target: TableTarget,
  kind: Kind,
  searches: number,
  misses: Record<string, number>,
  key: string,
) {
  const { table } = target;
  const path = `/api/owner/funnels/${table.funnelId}/leads`;
  const headers = { authorization: `Bearer ${table.apiKey}` };
  const surnames = Array.from({ length: searches }, () =>
    benchSurname(Math.floor(Math.random() * table.leads)).toLowerCase(),
  );
  let next = 0;
  const query = (): string => {
    switch (kind) {
      case 'page':
        return '?order=newest&limit=50';
      case 'search':
        return `?search=${surnames[next++ % surnames.length] ?? ''}&limit=50`;
      case 'filtered':
        return `?pageId=${table.pageIds[1] ?? ''}&order=newest&limit=50`;
      case 'common':
        return `?search=${encodeURIComponent(benchFirstName(0).toLowerCase())}&order=newest&limit=50`;
    }
  };
  const requests: LoadRequest[] = [
    {
      method: 'GET',
      path: `${path}${query()}`,
      headers,
      setupRequest: (request: LoadRequest) => ({ ...request, path: `${path}${query()}` }),
      onResponse: (status: number, body: string) => {
        if (status !== 200 || !body.includes('"id"')) misses[key] = (misses[key] ?? 0) + 1;
      },
    },
  ];
  return requests;
}

export async function measureLeadsTable(
  base: TableTarget,
  grown: TableTarget,
  options: LoadOptions,
): Promise<LeadsTableResult> {
  const { connections, seconds } = options;
  const misses: Record<string, number> = {};
  const health: LoadRequest[] = [{ method: 'GET', path: '/api/health' }];
  const of = (target: TableTarget, kind: Kind, size: string) =>
    requestsOf(target, kind, options.searches, misses, `${kind} at ${size}`);
  const plans = {
    health: { url: grown.url, requests: health },
    ...Object.fromEntries(
      BUDGETED.flatMap((kind) => [
        [`base-${kind}`, { url: base.url, requests: of(base, kind, 'base') }],
        [`grown-${kind}`, { url: grown.url, requests: of(grown, kind, 'grown') }],
      ]),
    ),
  } as Record<string, { url: string; requests: LoadRequest[] }>;
  for (const { url, requests } of Object.values(plans))
    await warmUp(url, connections, options.warmUpSeconds, requests);
  // Misses of the warm-ups do not count.
  for (const key of Object.keys(misses)) misses[key] = 0;
  const runs: Record<string, LoadSummary[]> = await interleave(
    options.rounds,
    Object.fromEntries(
      Object.entries(plans).map(([name, { url, requests }]) => [
        name,
        () => runLoad({ url, connections, seconds, requests }),
      ]),
    ),
  );
  // The common name last, on its own: each server once, with few connections.
  for (const [size, target] of [
    ['base', base],
    ['grown', grown],
  ] as const) {
    const requests = of(target, 'common', size);
    await warmUp(target.url, COMMON_CONNECTIONS, options.warmUpSeconds, requests);
    misses[`common at ${size}`] = 0;
    runs[`${size}-common`] = [
      await runLoad({ url: target.url, connections: COMMON_CONNECTIONS, seconds, requests }),
    ];
  }
  const combined = (name: string) => combineRounds(runs[name] ?? []);
  return {
    health: combined('health'),
    base: Object.fromEntries(KINDS.map((kind) => [kind, combined(`base-${kind}`)])) as Record<
      Kind,
      LoadSummary
    >,
    grown: Object.fromEntries(KINDS.map((kind) => [kind, combined(`grown-${kind}`)])) as Record<
      Kind,
      LoadSummary
    >,
    misses,
  };
}

const GROWTH_BUDGET: Budget = { on: 'ratio', op: '<=', limit: 1.5 };
const RATE_BUDGET: Budget = { on: 'ratio', op: '>=', limit: 0.3 };

const count = (n: number) => n.toLocaleString('en-US');

const LABELS: Record<Kind, string> = {
  page: 'leads page (newest 50)',
  search: 'leads name search',
  filtered: 'leads page filtered by page',
  common: 'leads search, a common first name',
};

/** Row 7 from the measurement, or the same lines unmeasured. */
export function leadsTableRows(
  database: 'SQLite' | 'PostgreSQL',
  result: LeadsTableResult | { error: unknown },
  leads: { base: number; grown: number },
  settings: { connections: number; seconds: number; rounds: number },
  notes: string[],
): Row[] {
  const grown = `${count(leads.grown)} leads, ${database}`;
  const base = `${count(leads.base)} leads`;
  if ('error' in result) {
    return BUDGETED.flatMap((kind) => [
      failedRow(7, `${LABELS[kind]} p99, ${grown}`, GROWTH_BUDGET, result.error),
      failedRow(7, `${LABELS[kind]}, ${grown}`, RATE_BUDGET, result.error),
    ]);
  }
  const missNotes = Object.entries(result.misses)
    .filter(([, n]) => n > 0)
    .map(([key, n]) => `${count(n)} answers (${key}) were not 200 with leads`);
  const rows: Row[] = [];
  for (const kind of KINDS) {
    const budget = kind !== 'common';
    rows.push(
      makeRow({
        row: 7,
        measure: `${LABELS[kind]} p99, ${grown}`,
        figure: { value: result.grown[kind].p99, unit: 'ms' },
        baseline: { value: result.base[kind].p99, unit: 'ms', label: base },
        budget: budget ? GROWTH_BUDGET : null,
        notes:
          kind === 'page'
            ? [
                `GET /api/owner/funnels/:id/leads with an API key; one funnel of ${grown} against one of ${base}, ` +
                  `two servers measured in turn; ${settings.connections} connections; ${runsText(settings)}`,
                'name search: a surname, a different lead each time (each surname is one lead’s); ' +
                  'filtered: the leads on the second of three pages',
                ...notes,
                ...missNotes,
              ]
            : kind === 'common'
              ? [
                  `a common first name: one lead in 40, ${COMMON_CONNECTIONS} connections, one run after the others ` +
                    '(no budget: its cost grows with the leads found, decision 22)',
                ]
              : [],
      }),
      makeRow({
        row: 7,
        measure: `${LABELS[kind]}, ${grown}`,
        figure: { value: result.grown[kind].requestsPerSecond, unit: 'req/s' },
        baseline: {
          value: result.health.requestsPerSecond,
          unit: 'req/s',
          label: `GET /api/health, ${grown}`,
        },
        budget: budget ? RATE_BUDGET : null,
      }),
    );
  }
  return rows;
}
