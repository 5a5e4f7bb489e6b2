import { ApiError, ErrorCode, type Page } from '@embudo/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../test/databases';
import { api, startTestServer, type TestServer } from '../../test/server';
import type { Db } from '../db';
import type { Database } from '../db/schema';

/**
 * Bad input to every owner route gets a 4xx JSON error that names the problem: never a 5xx, never a
 * stack trace, and nothing is written.
 */

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Answer = Awaited<ReturnType<typeof api>>;

const MIB = 1024 * 1024;
const BASE_DOMAIN = 'funnels.example.com';

/** The resources of the one account the requests address. */
interface Fixture {
  funnel: string;
  page: string;
  lead: string;
}

/** A bad value for a field, and the field path the answer must name. */
interface FieldCase {
  body: unknown;
  names: string;
}

interface BodySpec {
  valid: Record<string, unknown>;
  limit: number;
  wrongType: FieldCase;
  tooLong?: FieldCase;
  /** The required field an empty object lacks. */
  required?: string;
}

interface OwnerRoute {
  method: Method;
  path: string;
  target?: keyof Fixture;
  body?: BodySpec;
  paginated?: boolean;
  /** Takes `?from=&to=` (analytics). */
  range?: boolean;
  /** Takes the follow-up list's `?filter=&limit=&cursor=`. */
  followUps?: boolean;
}

const long = (length: number): string => 'x'.repeat(length);

const ROUTES: OwnerRoute[] = [
  { method: 'GET', path: '/account' },
  {
    method: 'PATCH',
    path: '/account',
    body: {
      valid: { name: 'Alpha' },
      limit: MIB,
      wrongType: { body: { name: 42 }, names: 'body.name' },
      tooLong: { body: { name: long(121) }, names: 'body.name' },
    },
  },
  { method: 'GET', path: '/members' },
  {
    method: 'PATCH',
    path: '/members/:id',
    // Only bad input is sent here, so any existing id will do.
    target: 'funnel',
    body: {
      valid: { role: 'viewer' },
      limit: MIB,
      wrongType: { body: { role: 'boss' }, names: 'body.role' },
      required: 'body.role',
    },
  },
  { method: 'DELETE', path: '/members/:id', target: 'funnel' },
  { method: 'GET', path: '/invitations' },
  {
    method: 'POST',
    path: '/invitations',
    body: {
      valid: { role: 'editor' },
      limit: MIB,
      wrongType: { body: { role: 42 }, names: 'body.role' },
      tooLong: { body: { role: 'editor', email: `${long(250)}@example.com` }, names: 'body.email' },
      required: 'body.role',
    },
  },
  { method: 'DELETE', path: '/invitations/:id', target: 'funnel' },
  { method: 'GET', path: '/api-keys' },
  {
    method: 'POST',
    path: '/api-keys',
    body: {
      valid: { label: 'Key' },
      limit: MIB,
      wrongType: { body: { label: 42 }, names: 'body.label' },
      tooLong: { body: { label: long(121) }, names: 'body.label' },
      required: 'body.label',
    },
  },
  // Only bad ids are sent here, so any existing id will do.
  { method: 'DELETE', path: '/api-keys/:id', target: 'funnel' },
  { method: 'GET', path: '/funnels' },
  { method: 'GET', path: '/funnel-templates' },
  {
    method: 'POST',
    path: '/funnels/from-template',
    body: {
      valid: { template: 'vsl-launch', name: 'Funnel' },
      limit: MIB,
      wrongType: { body: { template: 'no-such-template', name: 'Funnel' }, names: 'body.template' },
      tooLong: { body: { template: 'vsl-launch', name: long(121) }, names: 'body.name' },
      required: 'body.template',
    },
  },
  {
    method: 'POST',
    path: '/funnels/:id/duplicate',
    target: 'funnel',
    body: {
      valid: { name: 'Copy' },
      limit: MIB,
      wrongType: { body: { name: 42 }, names: 'body.name' },
      tooLong: { body: { name: long(121) }, names: 'body.name' },
    },
  },
  {
    method: 'PUT',
    path: '/funnels/:id/pages/order',
    target: 'funnel',
    body: {
      valid: { pageIds: ['01900000-0000-7000-8000-000000000000'] },
      limit: MIB,
      wrongType: { body: { pageIds: 'all' }, names: 'body.pageIds' },
      required: 'body.pageIds',
    },
  },
  {
    method: 'POST',
    path: '/funnels',
    body: {
      valid: { name: 'Funnel' },
      limit: MIB,
      wrongType: { body: { name: ['Funnel'] }, names: 'body.name' },
      tooLong: { body: { name: long(121) }, names: 'body.name' },
      required: 'body.name',
    },
  },
  { method: 'GET', path: '/funnels/:id', target: 'funnel' },
  {
    method: 'PATCH',
    path: '/funnels/:id',
    target: 'funnel',
    body: {
      valid: { name: 'Funnel' },
      limit: MIB,
      wrongType: { body: { isPreLaunch: 'yes' }, names: 'body.isPreLaunch' },
      tooLong: { body: { expiredPage: { title: long(201) } }, names: 'body.expiredPage.title' },
    },
  },
  { method: 'DELETE', path: '/funnels/:id', target: 'funnel' },
  { method: 'GET', path: '/funnels/:id/pages', target: 'funnel' },
  {
    method: 'POST',
    path: '/funnels/:id/pages',
    target: 'funnel',
    body: {
      valid: { headline: 'Headline' },
      limit: MIB,
      wrongType: { body: { showHeadLine: 'true' }, names: 'body.showHeadLine' },
      tooLong: { body: { headline: long(20_001) }, names: 'body.headline' },
    },
  },
  { method: 'GET', path: '/pages/:id', target: 'page' },
  {
    method: 'PATCH',
    path: '/pages/:id',
    target: 'page',
    body: {
      valid: { headline: 'Headline' },
      limit: MIB,
      wrongType: { body: { barProgressPercent: '80' }, names: 'body.barProgressPercent' },
      tooLong: { body: { headline: long(20_001) }, names: 'body.headline' },
    },
  },
  { method: 'DELETE', path: '/pages/:id', target: 'page' },
  { method: 'POST', path: '/pages/:id/duplicate', target: 'page' },
  {
    method: 'POST',
    path: '/pages/:id/preview',
    target: 'page',
    body: {
      valid: { ttlMinutes: 60 },
      limit: MIB,
      wrongType: { body: { ttlMinutes: '60' }, names: 'body.ttlMinutes' },
    },
  },
  { method: 'GET', path: '/funnels/:id/leads', target: 'funnel', paginated: true },
  {
    method: 'POST',
    path: '/funnels/:id/leads',
    target: 'funnel',
    body: {
      valid: { name: 'Lead' },
      limit: MIB,
      wrongType: { body: { name: 'Lead', email: 42 }, names: 'body.email' },
      tooLong: { body: { name: long(121) }, names: 'body.name' },
      required: 'body.name',
    },
  },
  {
    method: 'POST',
    path: '/funnels/:id/leads/import',
    target: 'funnel',
    body: {
      valid: { leads: [{ name: 'Lead' }] },
      limit: 4 * MIB,
      wrongType: { body: { leads: { name: 'Lead' } }, names: 'body.leads' },
      tooLong: { body: { leads: [{ name: long(121) }] }, names: 'body.leads.0.name' },
      required: 'body.leads',
    },
  },
  { method: 'GET', path: '/leads/:id', target: 'lead' },
  {
    method: 'PATCH',
    path: '/leads/:id',
    target: 'lead',
    body: {
      valid: { name: 'Lead' },
      limit: MIB,
      wrongType: { body: { deadlineExceptionOn: 'no' }, names: 'body.deadlineExceptionOn' },
      tooLong: { body: { name: long(121) }, names: 'body.name' },
    },
  },
  { method: 'POST', path: '/leads/:id/link', target: 'lead' },
  { method: 'DELETE', path: '/leads/:id', target: 'lead' },
  { method: 'GET', path: '/pages/:id/analytics', target: 'page', range: true },
  { method: 'GET', path: '/funnels/:id/analytics', target: 'funnel', range: true },
  { method: 'GET', path: '/funnels/:id/follow-ups', target: 'funnel', followUps: true },
  { method: 'GET', path: '/leads/:id/timeline', target: 'lead' },
  { method: 'GET', path: '/domains' },
  {
    method: 'POST',
    path: '/domains',
    body: {
      valid: { host: 'shop.example.com' },
      limit: MIB,
      wrongType: { body: { host: 42 }, names: 'body.host' },
      tooLong: { body: { host: `${'a'.repeat(250)}.com` }, names: 'body.host' },
      required: 'body.host',
    },
  },
  // Only bad ids are sent here, so any existing id will do.
  { method: 'DELETE', path: '/domains/:id', target: 'funnel' },
  { method: 'POST', path: '/domains/:id/verify', target: 'funnel' },
];

/** One bad request and what its refusal must say. */
interface BadRequest {
  route: OwnerRoute;
  problem: string;
  /** Replaces the route's own target id. */
  id?: string;
  query?: string;
  body?: unknown;
  rawBody?: string;
  contentType?: string;
  status: number[];
  code?: string;
  /** Text the message or the issues must contain: the field at fault, or the value. */
  names?: string;
}

function bodyProblems(route: OwnerRoute, spec: BodySpec): BadRequest[] {
  const validation = { route, status: [400], code: ErrorCode.validation };
  const problems: (BadRequest | false)[] = [
    { route, problem: 'malformed JSON', rawBody: '{"name": ', status: [400], code: ErrorCode.invalidJson },
    { route, problem: 'an empty body', rawBody: '', status: [400], code: ErrorCode.invalidJson },
    { ...validation, problem: 'a wrong type', ...spec.wrongType },
    { ...validation, problem: 'an unknown field', body: { ...spec.valid, sneaky: 1 }, names: 'sneaky' },
    !!spec.tooLong && { ...validation, problem: 'an over-long string', ...spec.tooLong },
    !!spec.required && { ...validation, problem: 'an empty object', body: {}, names: spec.required },
    { ...validation, problem: 'a JSON array', body: [spec.valid], names: 'body' },
    {
      route,
      problem: `a body over ${spec.limit / MIB} MiB`,
      rawBody: JSON.stringify({ ...spec.valid, padding: long(spec.limit) }),
      status: [413],
      code: ErrorCode.bodyTooLarge,
    },
    {
      route,
      problem: 'a form-encoded body',
      rawBody: 'name=x',
      contentType: 'application/x-www-form-urlencoded',
      status: [415],
      code: ErrorCode.unsupportedMediaType,
    },
    // Fastify parses text/plain as a string, which the schema then refuses; a 415 would fit too.
    {
      route,
      problem: 'a text/plain body',
      rawBody: JSON.stringify(spec.valid),
      contentType: 'text/plain',
      status: [400, 415],
    },
  ];
  return problems.filter((problem) => problem !== false);
}

function idProblems(route: OwnerRoute): BadRequest[] {
  const body = route.body?.valid;
  const invalid = { route, body, status: [400], code: ErrorCode.validation, names: 'params.id' };
  return [
    { ...invalid, problem: 'an id that is not a UUID', id: 'not-a-uuid' },
    { ...invalid, problem: 'an id carrying SQL', id: encodeURIComponent("1' OR '1'='1") },
    { ...invalid, problem: 'a UUID with a bad digit', id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5g' },
    { route, body, problem: 'an over-long id', id: 'a'.repeat(201), status: [400, 404, 414] },
  ];
}

function queryProblems(route: OwnerRoute): BadRequest[] {
  const invalid = { route, status: [400], code: ErrorCode.validation };
  const unknown: BadRequest = {
    ...invalid,
    problem: 'an unknown query parameter',
    query: '?sneaky=1',
    names: 'sneaky',
  };
  if (route.range) {
    return [
      unknown,
      ...(
        [
          ['a month 13', '?from=2026-13-01', 'from'],
          ['February 30', '?from=2026-02-30', 'from'],
          ['a word for a day', '?to=yesterday', 'to'],
          ['a time for a day', '?from=2026-01-01T00:00:00Z', 'from'],
          ['to before from', '?from=2026-03-02&to=2026-03-01', 'to'],
          ['367 days', '?from=2025-01-01&to=2026-01-02', '366 days'],
        ] as const
      ).map(([problem, query, names]) => ({ ...invalid, problem, query, names })),
    ];
  }
  if (route.followUps) {
    return [
      unknown,
      { ...invalid, problem: 'an unknown filter', query: '?filter=everyone', names: 'filter' },
      { ...invalid, problem: 'limit=0', query: '?limit=0', names: 'limit' },
      { ...invalid, problem: 'limit=201', query: '?limit=201', names: 'limit' },
      { ...invalid, problem: 'a cursor that is not one', query: '?cursor=garbage', names: 'cursor' },
      {
        ...invalid,
        problem: 'a cursor of the right form from nowhere',
        query: `?cursor=${Buffer.from(JSON.stringify(['x', 1])).toString('base64url')}`,
        names: 'cursor',
      },
    ];
  }
  if (!route.paginated) return [unknown];
  return [
    unknown,
    ...['0', 'abc', '201', '1.5', '-5'].map((limit) => ({
      ...invalid,
      problem: `limit=${limit}`,
      query: `?limit=${limit}`,
      names: 'limit',
    })),
    { ...invalid, problem: 'a cursor that is not one', query: '?cursor=garbage', names: 'cursor' },
    { ...invalid, problem: 'an over-long cursor', query: `?cursor=${'a'.repeat(201)}`, names: 'cursor' },
    { ...invalid, problem: 'an unknown order', query: '?order=sideways', names: 'order' },
    { ...invalid, problem: 'a page filter that is no id', query: '?pageId=first', names: 'pageId' },
    { ...invalid, problem: 'an empty search', query: '?search=%20', names: 'search' },
    { ...invalid, problem: 'an over-long search', query: `?search=${'a'.repeat(121)}`, names: 'search' },
  ];
}

const route = (name: string): OwnerRoute => {
  const found = ROUTES.find((r) => `${r.method} ${r.path}` === name);
  if (!found) throw new Error(`no route ${name}`);
  return found;
};

type DomainProblem = [problem: string, body: unknown, names: string];

const BAD_BUTTON_URLS = [
  'javascript:alert(1)',
  ' JavaScript:alert(1)',
  '//evil.example',
  'https://user:pass@x.com',
  'data:text/html,hi',
].map((url): DomainProblem => [`buttonUrl ${url}`, { buttonUrl: url }, 'body.buttonUrl']);

const bigImport = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    name: `Lead ${i} ${long(100)}`,
    email: `lead${i}.${long(180)}@example.com`,
  }));

/** Values the schemas or services must refuse, by route, with the field (or value) the answer names. */
const DOMAIN_PROBLEMS_BY_ROUTE: Record<string, DomainProblem[]> = {
  'POST /funnels/:id/pages': [
    ...BAD_BUTTON_URLS,
    ["buttonBgColor '#fff'", { buttonBgColor: '#fff' }, 'body.buttonBgColor'],
  ],
  'PATCH /pages/:id': [
    ...BAD_BUTTON_URLS,
    ["headlineColor 'red'", { headlineColor: 'red' }, 'body.headlineColor'],
    ['a CSS expression as colour', { topLineColor: 'url(javascript:x)' }, 'body.topLineColor'],
    ['a script videoUrl', { videoUrl: 'javascript:alert(1)' }, 'body.videoUrl'],
    // Hosts a URL parser takes but that are none: each would rewrite the page's policy (issue 16).
    ['a videoUrl host with a ;', { videoUrl: 'http://x.test;report-uri/' }, 'body.videoUrl'],
    ['a videoUrl host with a ,', { videoUrl: 'https://a.test,b.test/v' }, 'body.videoUrl'],
    ['a videoUrl host of *', { videoUrl: 'http://*/v.mp4' }, 'body.videoUrl'],
    ['a videoUrl with a user', { videoUrl: 'https://user:pw@cdn.example.net/v.mp4' }, 'body.videoUrl'],
    [
      'an embedded video that is a page of this server',
      { hostingVideo: 'EMBED', videoUrl: `https://${BASE_DOMAIN}/alpha/some-token` },
      'body.videoUrl',
    ],
    ['an ftp bgImageUrl', { bgImageUrl: 'ftp://x.example/a.png' }, 'body.bgImageUrl'],
    ['barProgressPercent 101', { barProgressPercent: 101 }, 'body.barProgressPercent'],
  ],
  'PATCH /account': [
    ["lpiButtonBgColor 'red'", { settings: { lpiButtonBgColor: 'red' } }, 'body.settings.lpiButtonBgColor'],
    ['an unknown setting', { settings: { theme: 'dark' } }, 'theme'],
  ],
  'POST /funnels': [
    ['fakeUserRange [100, 20]', { name: 'F', fakeUserRange: [100, 20] }, 'body.fakeUserRange'],
  ],
  'PATCH /funnels/:id': [
    ['fakeUserRange [100, 20]', { fakeUserRange: [100, 20] }, 'body.fakeUserRange'],
    ['fakeUserRange [-1, 5]', { fakeUserRange: [-1, 5] }, 'body.fakeUserRange'],
    ['a deadline 0 hours after', { deadline: { mode: 'afterLeadCreated', hours: 0 } }, 'body.deadline'],
    ['an unknown deadline mode', { deadline: { mode: 'sometimes' } }, 'body.deadline'],
    ['fomo every second', { fomo: { intervalSeconds: 1 } }, 'body.fomo.intervalSeconds'],
    ['a pixel id with letters', { pixel: { pixelId: 'abc' } }, 'body.pixel.pixelId'],
    ["language 'fr'", { language: 'fr' }, 'body.language'],
  ],
  'POST /funnels/:id/leads': [
    ['a bad e-mail', { name: 'L', email: 'not-an-email' }, 'body.email'],
    ['a bad phone', { name: 'L', phone: 'call me' }, 'body.phone'],
  ],
  'PATCH /leads/:id': [['a blank name', { name: '   ' }, 'body.name']],
  'POST /funnels/:id/leads/import': [
    ['5,001 leads (over 1 MiB)', { leads: bigImport(5001) }, 'body.leads'],
    ['no leads', { leads: [] }, 'body.leads'],
  ],
  'POST /pages/:id/preview': [['a 4-minute preview', { ttlMinutes: 4 }, 'body.ttlMinutes']],
  'POST /domains': [
    // A well-formed host of this server is refused as unavailable (409), exactly as another account's:
    // http/probe-findings.test.ts shows it.
    ["the base domain 'localhost'", { host: 'localhost' }, 'body.host'],
    ['a host with a scheme', { host: 'https://shop.example.com' }, 'body.host'],
    ['a host with a port', { host: 'shop.example.com:8080' }, 'body.host'],
  ],
};

function domainProblems(): BadRequest[] {
  return Object.entries(DOMAIN_PROBLEMS_BY_ROUTE).flatMap(([name, problems]) =>
    problems.map(([problem, body, names]) => ({
      route: route(name),
      problem,
      body,
      names,
      status: [400],
      code: ErrorCode.validation,
    })),
  );
}

/** Odd but well-formed input: stored or refused with a 4xx, never a 5xx. */
function oddInputs(): BadRequest[] {
  const odd = (name: string, problem: string, extra: Partial<BadRequest>): BadRequest => ({
    route: route(name),
    problem,
    status: [200, 201, 400],
    ...extra,
  });
  return [
    odd('POST /funnels', 'a NUL character in a name', { body: { name: 'a\u0000b' } }),
    odd('PATCH /account', 'a NUL character in a name', { body: { name: 'a\u0000b' } }),
    odd('POST /funnels/:id/leads', 'a NUL character in a name', { body: { name: 'a\u0000b' } }),
    odd('PATCH /leads/:id', 'a NUL character in a name', { body: { name: 'a\u0000b' } }),
    odd('GET /funnels/:id/leads', 'a NUL character in the cursor', {
      query: `?cursor=${Buffer.from('1:\u0000').toString('base64url')}`,
    }),
    // Within 20,000 characters, but each character grows when the sanitiser escapes it.
    odd('POST /funnels/:id/pages', 'rich text that escaping makes over-long', {
      body: { headline: '&'.repeat(20_000) },
    }),
    odd('PATCH /pages/:id', 'rich text that escaping makes over-long', {
      body: { headline: '<'.repeat(20_000) },
    }),
  ];
}

/**
 * Every table, so that a table added to the schema cannot escape the "nothing written" check; but
 * SQLite's log of changes to what visitor calls check (migration 0015), which PostgreSQL has not.
 */
const TABLES: Record<Exclude<keyof Database, 'visitorContextChanges'>, true> = {
  instanceSettings: true,
  accounts: true,
  apiKeys: true,
  domains: true,
  funnels: true,
  pages: true,
  contentVersions: true,
  leads: true,
  funnelLeadCounts: true,
  leadSearchTerms: true,
  leadPageProgress: true,
  previewTokens: true,
  visits: true,
  pageSessions: true,
  videoRecords: true,
  actions: true,
  conversions: true,
  pixelOutbox: true,
  users: true,
  memberships: true,
  sessions: true,
  invitations: true,
  analyticsSessions: true,
  analyticsLeadPages: true,
  analyticsReach: true,
  analyticsViews: true,
  analyticsPageDays: true,
  analyticsPageLeads: true,
  analyticsFurthest: true,
  analyticsSteps: true,
  analyticsFunnelDays: true,
  analyticsPageMeta: true,
  analyticsPageVersions: true,
};

/** Every row of every table; an API key's last use is left out (it is written on authentication). */
async function snapshot(db: Db): Promise<Record<string, string[]>> {
  const tables = Object.keys(TABLES) as (keyof Database)[];
  const dumps = await Promise.all(
    tables.map(async (table) => {
      const rows = await db.selectFrom(table).selectAll().execute();
      const text = rows.map((row) =>
        JSON.stringify(row, (key, value: unknown) => (key === 'lastUsedAt' ? undefined : value)),
      );
      return [table, text.sort()] as const;
    }),
  );
  return Object.fromEntries(dumps);
}

const STACK_TRACE = /\bat \S+ \(|\bat \S+:\d+:\d+|\/work\/|node_modules|\.tsx?:\d+/;
const STABLE_CODES: readonly string[] = Object.values(ErrorCode);

function expectRefusal(answer: Answer, bad: BadRequest): void {
  expect(bad.status, answer.text.slice(0, 500)).toContain(answer.status);
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
  expect(answer.text).not.toMatch(STACK_TRACE);
  const parsed = ApiError.safeParse(answer.body);
  if (!parsed.success) throw new Error(`not the error shape: ${answer.text.slice(0, 500)}`);
  const error = parsed.data;
  expect(error.statusCode).toBe(answer.status);
  expect(STABLE_CODES).toContain(error.code);
  if (bad.code) expect(error.code).toBe(bad.code);
  if (bad.names) expect(`${error.message} ${JSON.stringify(error.issues ?? [])}`).toContain(bad.names);
}

const title = (bad: BadRequest): string => `${bad.route.method} ${bad.route.path} with ${bad.problem}`;
const titled = (list: BadRequest[]) => list.map((bad) => [title(bad), bad] as const);

const BODY_PROBLEMS = ROUTES.flatMap((r) => (r.body ? bodyProblems(r, r.body) : []));
const ID_PROBLEMS = ROUTES.filter((r) => r.target).flatMap(idProblems);
const QUERY_PROBLEMS = ROUTES.filter((r) => r.method === 'GET').flatMap(queryProblems);
const DOMAIN_PROBLEMS = domainProblems();
const ODD_INPUTS = oddInputs();

describe.each(TEST_DIALECTS)('bad input to the owner API on %s', (dialect) => {
  let server: TestServer;
  let key: string;
  let fixture: Fixture;

  function send(bad: BadRequest): Promise<Answer> {
    const target = bad.route.target ? fixture[bad.route.target] : '';
    const path = `/api/owner${bad.route.path.replace(':id', bad.id ?? target)}${bad.query ?? ''}`;
    return api(server, bad.route.method, path, {
      key,
      ...(bad.body !== undefined ? { body: bad.body } : {}),
      ...(bad.rawBody !== undefined ? { rawBody: bad.rawBody } : {}),
      headers: bad.contentType ? { 'content-type': bad.contentType } : {},
    });
  }

  /** Sends the request; a refusal must have the error shape and leave every table as it was. */
  async function expectRefused(bad: BadRequest): Promise<void> {
    const before = await snapshot(server.database.db);
    const answer = await send(bad);
    expectRefusal(answer, bad);
    expect(await snapshot(server.database.db)).toEqual(before);
  }

  beforeAll(async () => {
    server = await startTestServer(dialect, { BASE_DOMAINS: BASE_DOMAIN });
    key = (await server.services.accounts.create({ slug: 'alpha', name: 'Alpha' })).apiKey;
    const create = async (path: string, body: unknown): Promise<{ id: string; lead?: { id: string } }> => {
      const answer = await api(server, 'POST', `/api/owner${path}`, { key, body });
      expect(answer.status, answer.text).toBe(201);
      return answer.body as { id: string; lead?: { id: string } };
    };
    const funnel = (await create('/funnels', { name: 'Funnel' })).id;
    const page = (await create(`/funnels/${funnel}/pages`, { headline: 'Page' })).id;
    const lead = (await create(`/funnels/${funnel}/leads`, { name: 'Lead' })).lead?.id ?? '';
    fixture = { funnel, page, lead };
  });

  afterAll(async () => {
    await server.close();
  });

  it('the table lists every owner route the API documents', async () => {
    const docs = await api(server, 'GET', '/api/docs/json');
    const paths = (docs.body as { paths: Record<string, Record<string, unknown>> }).paths;
    const documented = Object.entries(paths)
      .filter(([path]) => path.startsWith('/api/owner/'))
      .flatMap(([path, methods]) =>
        Object.keys(methods).map(
          (m) => `${m.toUpperCase()} ${path.slice('/api/owner'.length).replace('{id}', ':id')}`,
        ),
      );
    expect(documented.sort()).toEqual(ROUTES.map((r) => `${r.method} ${r.path}`).sort());
  });

  it.each(titled([...BODY_PROBLEMS, ...ID_PROBLEMS, ...QUERY_PROBLEMS, ...DOMAIN_PROBLEMS]))(
    'refuses %s',
    async (_title, bad) => {
      await expectRefused(bad);
    },
  );

  it.each(titled(ODD_INPUTS))('never fails with a 5xx on %s', async (_title, bad) => {
    const before = await snapshot(server.database.db);
    const answer = await send(bad);
    expect(answer.status, answer.text.slice(0, 500)).toBeLessThan(500);
    if (answer.status >= 400) {
      expectRefusal(answer, bad);
      expect(await snapshot(server.database.db)).toEqual(before);
    }
  });

  it.each([
    ['POST', `/funnels/:id/pages`, 201],
    ['PATCH', `/pages/:id`, 200],
  ] as const)(
    '%s %s stores buttonUrl example.com/pay as https://example.com/pay',
    async (method, path, status) => {
      const id = method === 'POST' ? fixture.funnel : fixture.page;
      const answer = await api(server, method, `/api/owner${path.replace(':id', id)}`, {
        key,
        body: { buttonUrl: 'example.com/pay' },
      });
      expect(answer.status, answer.text).toBe(status);
      const page = answer.body as Page;
      expect(page.buttonUrl).toBe('https://example.com/pay');
      const stored = await api(server, 'GET', `/api/owner/pages/${page.id}`, { key });
      expect((stored.body as Page).buttonUrl).toBe('https://example.com/pay');
    },
  );
});
