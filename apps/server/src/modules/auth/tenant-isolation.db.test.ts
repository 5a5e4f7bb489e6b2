import {
  ApiError,
  ErrorCode,
  type Account,
  type ApiKeyCreated,
  type Domain,
  type Funnel,
  type LeadList,
  type Page,
} from '@embudo/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/databases';
import { api, startTestServer, type TestServer } from '../../../test/server';
import { newPerson } from '../../../test/studio';

/**
 * Tenant isolation of the owner API: every route under /api/owner, called with the owner's key, another
 * account's key, malformed keys and no key, answers 2xx, 404 (or the caller's own data), 401 and 401.
 */

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Answer = Awaited<ReturnType<typeof api>>;

/** A's resources the routes address. The spare ones exist to be deleted. */
type Resources = Record<
  | 'funnel'
  | 'page'
  | 'lead'
  | 'domain'
  | 'spareFunnel'
  | 'sparePage'
  | 'spareLead'
  | 'spareDomain'
  | 'spareApiKey'
  | 'member'
  | 'spareMember'
  | 'spareInvitation'
  | 'orderFunnel',
  string
>;

interface Tenant {
  key: string;
  account: Account;
}

interface World {
  a: Tenant & { resources: Resources };
  b: Tenant & { funnel: string; domainHost: string; member: string; invitation: string };
}

interface OwnerRoute {
  method: Method;
  /** As registered under /api/owner. */
  path: string;
  /** Which of A's resources `:id` names. */
  target?: keyof Resources;
  /** A valid body; `who` keeps values (domain hosts) distinct between callers. */
  body?: (who: string) => unknown;
  status: 200 | 201 | 204;
  /**
   * What another account's key gets: 404 for A's resource by id, or, on routes without an id, its own
   * data (the answer must contain this marker of B's and nothing of A's).
   */
  asOther: 'not-found' | { ownData: (w: World) => string };
}

const named = (who: string) => ({ name: `Named by ${who}` });

/** The pages of A's orderFunnel, the last first: a new order for it (set before the tests). */
let newOrderOfA: string[] = [];

const ROUTES: OwnerRoute[] = [
  { method: 'GET', path: '/account', status: 200, asOther: { ownData: (w) => w.b.account.id } },
  {
    method: 'PATCH',
    path: '/account',
    body: named,
    status: 200,
    asOther: { ownData: (w) => w.b.account.id },
  },
  { method: 'GET', path: '/api-keys', status: 200, asOther: { ownData: (w) => w.b.key.slice(0, 8) } },
  {
    method: 'POST',
    path: '/api-keys',
    body: (who) => ({ label: `Named by ${who}` }),
    status: 201,
    asOther: { ownData: () => 'Named by B' },
  },
  { method: 'DELETE', path: '/api-keys/:id', target: 'spareApiKey', status: 204, asOther: 'not-found' },
  { method: 'GET', path: '/members', status: 200, asOther: { ownData: (w) => w.b.member } },
  {
    method: 'PATCH',
    path: '/members/:id',
    target: 'member',
    body: () => ({ role: 'viewer' }),
    status: 200,
    asOther: 'not-found',
  },
  { method: 'DELETE', path: '/members/:id', target: 'spareMember', status: 204, asOther: 'not-found' },
  { method: 'GET', path: '/invitations', status: 200, asOther: { ownData: (w) => w.b.invitation } },
  {
    method: 'POST',
    path: '/invitations',
    body: (who) => ({ role: 'editor', email: `${who.toLowerCase()}@invited.example.com` }),
    status: 201,
    asOther: { ownData: () => 'b@invited.example.com' },
  },
  {
    method: 'DELETE',
    path: '/invitations/:id',
    target: 'spareInvitation',
    status: 204,
    asOther: 'not-found',
  },
  { method: 'GET', path: '/funnels', status: 200, asOther: { ownData: (w) => w.b.funnel } },
  { method: 'GET', path: '/funnel-templates', status: 200, asOther: { ownData: () => 'vsl-launch' } },
  {
    method: 'POST',
    path: '/funnels/from-template',
    body: (who) => ({ template: 'vsl-launch', ...named(who) }),
    status: 201,
    asOther: { ownData: () => 'Named by B' },
  },
  {
    method: 'POST',
    path: '/funnels/:id/duplicate',
    target: 'funnel',
    body: named,
    status: 201,
    asOther: 'not-found',
  },
  {
    method: 'PUT',
    path: '/funnels/:id/pages/order',
    target: 'orderFunnel',
    body: () => ({ pageIds: newOrderOfA }),
    status: 200,
    asOther: 'not-found',
  },
  { method: 'POST', path: '/pages/:id/duplicate', target: 'page', status: 201, asOther: 'not-found' },
  { method: 'POST', path: '/leads/:id/link', target: 'lead', status: 201, asOther: 'not-found' },
  {
    method: 'POST',
    path: '/funnels',
    body: named,
    status: 201,
    asOther: { ownData: () => 'Named by B' },
  },
  { method: 'GET', path: '/funnels/:id', target: 'funnel', status: 200, asOther: 'not-found' },
  {
    method: 'PATCH',
    path: '/funnels/:id',
    target: 'funnel',
    body: named,
    status: 200,
    asOther: 'not-found',
  },
  { method: 'DELETE', path: '/funnels/:id', target: 'spareFunnel', status: 204, asOther: 'not-found' },
  { method: 'GET', path: '/funnels/:id/pages', target: 'funnel', status: 200, asOther: 'not-found' },
  {
    method: 'POST',
    path: '/funnels/:id/pages',
    target: 'funnel',
    body: (who) => ({ headline: `Written by ${who}` }),
    status: 201,
    asOther: 'not-found',
  },
  { method: 'GET', path: '/pages/:id', target: 'page', status: 200, asOther: 'not-found' },
  {
    method: 'PATCH',
    path: '/pages/:id',
    target: 'page',
    body: (who) => ({ headline: `Written by ${who}` }),
    status: 200,
    asOther: 'not-found',
  },
  { method: 'DELETE', path: '/pages/:id', target: 'sparePage', status: 204, asOther: 'not-found' },
  {
    method: 'POST',
    path: '/pages/:id/preview',
    target: 'page',
    body: () => ({ ttlMinutes: 60 }),
    status: 201,
    asOther: 'not-found',
  },
  { method: 'GET', path: '/funnels/:id/leads', target: 'funnel', status: 200, asOther: 'not-found' },
  {
    method: 'POST',
    path: '/funnels/:id/leads',
    target: 'funnel',
    body: named,
    status: 201,
    asOther: 'not-found',
  },
  {
    method: 'POST',
    path: '/funnels/:id/leads/import',
    target: 'funnel',
    body: (who) => ({ leads: [named(who), named(who)] }),
    status: 201,
    asOther: 'not-found',
  },
  { method: 'GET', path: '/leads/:id', target: 'lead', status: 200, asOther: 'not-found' },
  {
    method: 'PATCH',
    path: '/leads/:id',
    target: 'lead',
    body: named,
    status: 200,
    asOther: 'not-found',
  },
  { method: 'DELETE', path: '/leads/:id', target: 'spareLead', status: 204, asOther: 'not-found' },
  // Analytics (issue 19): read only, of the account's own pages, funnels and leads.
  { method: 'GET', path: '/pages/:id/analytics', target: 'page', status: 200, asOther: 'not-found' },
  { method: 'GET', path: '/funnels/:id/analytics', target: 'funnel', status: 200, asOther: 'not-found' },
  { method: 'GET', path: '/funnels/:id/follow-ups', target: 'funnel', status: 200, asOther: 'not-found' },
  { method: 'GET', path: '/leads/:id/timeline', target: 'lead', status: 200, asOther: 'not-found' },
  { method: 'GET', path: '/domains', status: 200, asOther: { ownData: (w) => w.b.domainHost } },
  {
    method: 'POST',
    path: '/domains',
    body: (who) => ({ host: `new-${who.toLowerCase()}.example.com` }),
    status: 201,
    asOther: { ownData: () => 'new-b.example.com' },
  },
  { method: 'DELETE', path: '/domains/:id', target: 'spareDomain', status: 204, asOther: 'not-found' },
  {
    method: 'POST',
    path: '/domains/:id/verify',
    target: 'domain',
    status: 200,
    asOther: 'not-found',
  },
];

/** Authorization headers that must never open the API, built around A's real key where that is the trap. */
const malformedAuthorizations = (realKey: string): string[] => [
  'Bearer nonsense',
  'Basic abc',
  `Bearer emb_${'Zm9vYmFy'.repeat(5)}`, // shaped like a key, but no account has it
  'Bearer emb_!!!',
  'Bearer ',
  `Bearer emb_${'a'.repeat(300)}`,
  `Bearer ${realKey}x`,
  `Basic ${realKey}`,
  realKey,
];

/** "METHOD /path" of every route Fastify holds, read from its route tree (HEAD is implied by GET). */
function registeredRoutes(server: FastifyInstance): string[] {
  const prefixes: string[] = [];
  const routes: string[] = [];
  for (const line of server.printRoutes({ commonPrefix: false }).split('\n')) {
    const node = /^((?:[│ ] {3})*)[├└]── (\S+)(?: \(([^)]*)\))?$/.exec(line);
    if (!node) continue;
    const [, indent = '', segment = '', methods = ''] = node;
    const depth = indent.length / 4;
    prefixes.length = depth;
    prefixes.push(segment);
    const path = prefixes.join('');
    for (const method of methods.split(',').map((m) => m.trim()))
      if (method !== '' && method !== 'HEAD') routes.push(`${method} ${path}`);
  }
  return routes;
}

const routeName = (route: Pick<OwnerRoute, 'method' | 'path'>): string => `${route.method} ${route.path}`;

function expectApiError(answer: Answer, status: number, code: string): void {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
  const parsed = ApiError.safeParse(answer.body);
  expect(parsed.success, answer.text).toBe(true);
  expect(parsed.data).toMatchObject({ statusCode: status, code });
}

describe.each(TEST_DIALECTS)('tenant isolation of the owner API on %s', (dialect) => {
  let server: TestServer;
  let world: World;

  /** Who calls: a key sent as `Bearer <key>`, a raw Authorization header, or neither. */
  type Caller = { key?: string; authorization?: string };

  function call(route: OwnerRoute, caller: Caller, who = 'A'): Promise<Answer> {
    const id = route.target ? world.a.resources[route.target] : '';
    const path = `/api/owner${route.path.replace(':id', id)}`;
    const body = route.body?.(who);
    return api(server, route.method, path, {
      key: caller.key ?? null,
      headers: caller.authorization === undefined ? {} : { authorization: caller.authorization },
      ...(body !== undefined ? { body } : {}),
    });
  }

  async function created<T>(key: string, path: string, body: unknown): Promise<T> {
    const answer = await api(server, 'POST', `/api/owner${path}`, { key, body });
    expect(answer.status, answer.text).toBe(201);
    return answer.body as T;
  }

  async function tenant(slug: string): Promise<Tenant> {
    const { account, apiKey } = await server.services.accounts.create({ slug, name: slug });
    return { key: apiKey, account };
  }

  /** Everything A can read through the API: the account, funnels, their pages and leads, domains. */
  async function viewOfA(): Promise<unknown> {
    const read = async (path: string): Promise<unknown> => {
      const answer = await api(server, 'GET', `/api/owner${path}`, { key: world.a.key });
      expect(answer.status, answer.text).toBe(200);
      return answer.body;
    };
    const funnels = (await read('/funnels')) as Funnel[];
    return {
      account: await read('/account'),
      domains: await read('/domains'),
      funnels: await Promise.all(
        funnels.map(async (funnel) => ({
          funnel,
          pages: await read(`/funnels/${funnel.id}/pages`),
          leads: await read(`/funnels/${funnel.id}/leads?limit=200`),
        })),
      ),
    };
  }

  /** Identifiers of A that must never appear in an answer to B. */
  const identifiersOfA = (): string[] => [
    world.a.account.id,
    ...Object.values(world.a.resources),
    'alpha.example.com',
    'spare.example.com',
  ];

  beforeAll(async () => {
    // Hundreds of owner calls with few keys: the owner limit is off here (owner-access.api.test.ts holds it).
    server = await startTestServer(dialect, { OWNER_RATE_LIMIT_PER_MINUTE: '0' });
    const a = await tenant('alpha');
    const b = await tenant('bravo');
    const funnel = await created<Funnel>(a.key, '/funnels', { name: 'Alpha funnel' });
    const page = await created<Page>(a.key, `/funnels/${funnel.id}/pages`, { headline: 'Alpha page' });
    const lead = await created<{ lead: { id: string } }>(a.key, `/funnels/${funnel.id}/leads`, {
      name: 'Alpha lead',
    });
    const sparePage = await created<Page>(a.key, `/funnels/${funnel.id}/pages`, { headline: 'Spare' });
    const spareLead = await created<{ lead: { id: string } }>(a.key, `/funnels/${funnel.id}/leads`, {
      name: 'Spare lead',
    });
    const spareFunnel = await created<Funnel>(a.key, '/funnels', { name: 'Spare funnel' });
    const domain = await created<Domain>(a.key, '/domains', { host: 'alpha.example.com' });
    const spareDomain = await created<Domain>(a.key, '/domains', { host: 'spare.example.com' });
    const spareApiKey = await created<ApiKeyCreated>(a.key, '/api-keys', { label: 'Spare key' });
    const member = await newPerson(server.services, a.account, 'editor');
    const spareMember = await newPerson(server.services, a.account, 'viewer');
    const spareInvitation = await server.services.members.invite(a.account, { role: 'viewer' }, null);
    const bMember = await newPerson(server.services, b.account, 'editor');
    const bInvitation = await server.services.members.invite(b.account, { role: 'viewer' }, null);
    const orderFunnel = await created<Funnel>(a.key, '/funnels', { name: 'Order funnel' });
    const ordered: string[] = [];
    for (const headline of ['First', 'Second', 'Third']) {
      ordered.push((await created<Page>(a.key, `/funnels/${orderFunnel.id}/pages`, { headline })).id);
    }
    newOrderOfA = [...ordered].reverse();
    const bFunnel = await created<Funnel>(b.key, '/funnels', { name: 'Bravo funnel' });
    const bDomain = await created<Domain>(b.key, '/domains', { host: 'bravo.example.com' });
    world = {
      a: {
        ...a,
        resources: {
          funnel: funnel.id,
          page: page.id,
          lead: lead.lead.id,
          domain: domain.id,
          spareFunnel: spareFunnel.id,
          sparePage: sparePage.id,
          spareLead: spareLead.lead.id,
          spareDomain: spareDomain.id,
          spareApiKey: spareApiKey.apiKey.id,
          member: member.userId,
          spareMember: spareMember.userId,
          spareInvitation: spareInvitation.invitation.id,
          orderFunnel: orderFunnel.id,
        },
      },
      b: {
        ...b,
        funnel: bFunnel.id,
        domainHost: bDomain.host,
        member: bMember.userId,
        invitation: bInvitation.invitation.id,
      },
    };
  });

  afterAll(async () => {
    await server.close();
  });

  it('the table lists every owner route the server registers, and no other', () => {
    const registered = registeredRoutes(server.server)
      .filter((route) => route.split(' ')[1]?.startsWith('/api/owner/'))
      .map((route) => route.replace(' /api/owner/', ' /'));
    expect(registered.length).toBeGreaterThan(0);
    expect([...new Set(registered)].sort()).toEqual(ROUTES.map(routeName).sort());
  });

  it.each(ROUTES.map((route) => [routeName(route), route] as const))(
    '%s: own key 2xx, other key 404 or own data, malformed key 401, no key 401',
    async (_name, route) => {
      const before = await viewOfA();

      const other = await call(route, { key: world.b.key }, 'B');
      if (route.asOther === 'not-found') {
        expectApiError(other, 404, ErrorCode.notFound);
      } else {
        expect(other.status, other.text).toBe(route.status);
        expect(other.text).toContain(route.asOther.ownData(world));
      }
      for (const id of identifiersOfA()) expect(other.text).not.toContain(id);

      for (const authorization of malformedAuthorizations(world.a.key)) {
        expectApiError(await call(route, { authorization }), 401, ErrorCode.unauthorized);
      }
      expectApiError(await call(route, {}), 401, ErrorCode.unauthorized);

      // Nothing B or a stranger sent changed anything A owns.
      expect(await viewOfA()).toEqual(before);

      const own = await call(route, { key: world.a.key });
      expect(own.status, own.text).toBe(route.status);
      if (route.status === 204) expect(own.text).toBe('');
      else expect(own.headers.get('content-type')).toMatch(/^application\/json/);
    },
  );

  it('B still sees only its own data after all the calls', async () => {
    for (const path of ['/funnels', '/domains', '/account']) {
      const answer = await api(server, 'GET', `/api/owner${path}`, { key: world.b.key });
      expect(answer.status).toBe(200);
      for (const id of identifiersOfA()) expect(answer.text).not.toContain(id);
    }
    const leads = await api(server, 'GET', `/api/owner/funnels/${world.b.funnel}/leads`, {
      key: world.b.key,
    });
    expect((leads.body as LeadList).items.every((lead) => lead.funnelId === world.b.funnel)).toBe(true);
  });
});
