import {
  ApiError,
  ErrorCode,
  OWNER_ROUTE_PATHS,
  type Account,
  type Role,
  type RoutePath,
} from '@embudo/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/databases';
import { TABLES } from '../../../test/fixtures';
import { api, startTestServer, type TestServer } from '../../../test/server';
import { newPerson, signIn, studio } from '../../../test/studio';
import { newApiKey } from '../../lib/tokens';

/**
 * Who may call each owner route (issue 18, architecture §7): every route of OWNER_ROUTE_PATHS, called
 * by an owner, an editor and a viewer of account A (Studio sessions), the owner of another account B,
 * nobody, and A's API key. The status each gets is written out below, route by route: a route added
 * to the table without its line here fails the first test. A refused write changes no row.
 */

const CALLERS = ['owner', 'editor', 'viewer', 'otherMember', 'none', 'apiKey'] as const;
type Caller = (typeof CALLERS)[number];
type Expected = Record<Caller, number>;

/** What a call needs made in A first: the `:id` it addresses. */
type Target = 'funnel' | 'funnelWithPages' | 'page' | 'lead' | 'domain' | 'member' | 'invitation' | 'apiKey';

interface Case {
  expected: Expected;
  target?: Target;
  /** The body, made for the `:id` the call addresses when the route has one (in account A). */
  body?: (id: string, services: TestServer['services'], a: Account) => unknown;
}

let serial = 0;
const unique = () => ++serial;

/**
 * Read routes: A's three roles and A's key read, B's owner reads B's own (a route without an id) or
 * gets a 404 for A's id, and nobody gets a 401.
 */
const read = (other: 200 | 404): Expected => ({
  owner: 200,
  editor: 200,
  viewer: 200,
  otherMember: other,
  none: 401,
  apiKey: 200,
});
/** An editor's write: the viewer's role lacks it (403). */
const editorWrite = (status: number, other: number): Expected => ({
  owner: status,
  editor: status,
  viewer: 403,
  otherMember: other,
  none: 401,
  apiKey: status,
});
/** An owner's write (members, invitations, API keys, domains, account settings, the pixel). */
const ownerOnly = (status: number, other: number): Expected => ({
  owner: status,
  editor: 403,
  viewer: 403,
  otherMember: other,
  none: 401,
  apiKey: status,
});

/** Every owner route by `group.key`, with the answer each caller gets. */
const EXPECTED: Record<string, Case> = {
  'account.get': { expected: read(200) },
  'account.update': { expected: ownerOnly(200, 200), body: () => ({ name: `Renamed ${String(unique())}` }) },

  'members.list': { expected: read(200) },
  'members.update': { expected: ownerOnly(200, 404), target: 'member', body: () => ({ role: 'viewer' }) },
  'members.remove': { expected: ownerOnly(204, 404), target: 'member' },

  'invitations.list': { expected: read(200) },
  'invitations.create': { expected: ownerOnly(201, 201), body: () => ({ role: 'editor' }) },
  'invitations.remove': { expected: ownerOnly(204, 404), target: 'invitation' },

  // API keys are the owner's, even to list.
  'apiKeys.list': { expected: ownerOnly(200, 200) },
  'apiKeys.create': { expected: ownerOnly(201, 201), body: () => ({ label: `Key ${String(unique())}` }) },
  'apiKeys.remove': { expected: ownerOnly(204, 404), target: 'apiKey' },

  'funnels.list': { expected: read(200) },
  'funnels.create': { expected: editorWrite(201, 201), body: () => ({ name: `Funnel ${String(unique())}` }) },
  'funnels.get': { expected: read(404), target: 'funnel' },
  'funnels.update': {
    expected: editorWrite(200, 404),
    target: 'funnel',
    body: () => ({ name: `Renamed funnel ${String(unique())}` }),
  },
  'funnels.remove': { expected: editorWrite(204, 404), target: 'funnel' },
  'funnels.templates': { expected: read(200) },
  'funnels.createFromTemplate': {
    expected: editorWrite(201, 201),
    body: () => ({ template: 'vsl-launch', name: `From template ${String(unique())}` }),
  },
  'funnels.duplicate': { expected: editorWrite(201, 404), target: 'funnel', body: () => ({}) },

  'pages.list': { expected: read(404), target: 'funnel' },
  'pages.reorder': {
    expected: editorWrite(200, 404),
    target: 'funnelWithPages',
    body: async (id, services, a) => ({
      pageIds: (await services.pages.list(a, id)).map((page) => page.id).reverse(),
    }),
  },
  'pages.create': { expected: editorWrite(201, 404), target: 'funnel', body: () => ({ headline: 'Added' }) },
  'pages.get': { expected: read(404), target: 'page' },
  'pages.update': { expected: editorWrite(200, 404), target: 'page', body: () => ({ headline: 'Edited' }) },
  'pages.remove': { expected: editorWrite(204, 404), target: 'page' },
  'pages.duplicate': { expected: editorWrite(201, 404), target: 'page' },

  'leads.list': { expected: read(404), target: 'funnel' },
  'leads.create': { expected: editorWrite(201, 404), target: 'funnel', body: () => ({ name: 'New lead' }) },
  'leads.import': {
    expected: editorWrite(201, 404),
    target: 'funnel',
    body: () => ({ leads: [{ name: 'Imported one' }, { name: 'Imported two' }] }),
  },
  'leads.get': { expected: read(404), target: 'lead' },
  'leads.update': { expected: editorWrite(200, 404), target: 'lead', body: () => ({ name: 'Renamed lead' }) },
  'leads.remove': { expected: editorWrite(204, 404), target: 'lead' },
  'leads.newLink': { expected: editorWrite(201, 404), target: 'lead' },

  'domains.list': { expected: read(200) },
  'domains.create': {
    expected: ownerOnly(201, 201),
    body: () => ({ host: `matrix-${String(unique())}.example.com` }),
  },
  'domains.remove': { expected: ownerOnly(204, 404), target: 'domain' },
  'domains.verify': { expected: ownerOnly(200, 404), target: 'domain' },

  'previews.create': { expected: editorWrite(201, 404), target: 'page', body: () => ({ ttlMinutes: 30 }) },

  'analytics.page': { expected: read(404), target: 'page' },
  'analytics.funnel': { expected: read(404), target: 'funnel' },
  'analytics.followUps': { expected: read(404), target: 'funnel' },
  'analytics.leadTimeline': { expected: read(404), target: 'lead' },
};

/** Calls beside the table's: a funnel's pixel is the owner's, whoever may edit the rest of it. */
const VARIANTS: { name: string; route: string; case: Case }[] = [
  {
    name: 'funnels.create with pixel',
    route: 'funnels.create',
    case: {
      expected: ownerOnly(201, 201),
      body: () => ({ name: `Pixel funnel ${String(unique())}`, pixel: { pixelId: '1234567890' } }),
    },
  },
  {
    name: 'funnels.update with pixel',
    route: 'funnels.update',
    case: {
      expected: ownerOnly(200, 404),
      target: 'funnel',
      body: () => ({ pixel: { pixelId: '1234567890' } }),
    },
  },
];

const TABLE_ROUTES = Object.entries(OWNER_ROUTE_PATHS).flatMap(([group, routes]) =>
  Object.entries(routes as Record<string, RoutePath>).map(([key, route]) => ({
    name: `${group}.${key}`,
    method: route.method,
    path: route.path,
  })),
);

describe.each(TEST_DIALECTS)('the role matrix of the owner API on %s', (dialect) => {
  let server: TestServer;
  let a: Account;
  let aKey: string;
  const cookies = {} as Record<'owner' | 'editor' | 'viewer' | 'otherMember', string>;

  beforeAll(async () => {
    server = await startTestServer(dialect, {
      SIGN_IN_ATTEMPTS: '0',
      OWNER_RATE_LIMIT_PER_MINUTE: '0',
      // Each cell makes its own funnel.
      MAX_FUNNELS_PER_ACCOUNT: '1000',
    });
    const created = await server.services.accounts.create({ slug: 'matrix-a', name: 'Matrix A' });
    a = created.account;
    aKey = created.apiKey;
    const { account: b } = await server.services.accounts.create({ slug: 'matrix-b', name: 'Matrix B' });
    for (const role of ['owner', 'editor', 'viewer'] as const satisfies Role[])
      cookies[role] = await signIn(server, await newPerson(server.services, a, role));
    cookies.otherMember = await signIn(server, await newPerson(server.services, b, 'owner'));
  });
  afterAll(async () => {
    await server.close();
  });

  /** A fresh resource of A's for the call to address, so that no cell depends on another. */
  async function make(target: Target): Promise<string> {
    const { services } = server;
    switch (target) {
      case 'funnel':
        return (await services.funnels.create(a, { name: `Target ${String(unique())}` })).id;
      case 'funnelWithPages': {
        const funnel = await services.funnels.create(a, { name: `Target ${String(unique())}` });
        for (const headline of ['First', 'Second', 'Third'])
          await services.pages.create(a, funnel.id, { headline });
        return funnel.id;
      }
      case 'page': {
        const funnel = await services.funnels.create(a, { name: `Target ${String(unique())}` });
        return (await services.pages.create(a, funnel.id, { headline: 'Target page' })).id;
      }
      case 'lead': {
        const funnel = await services.funnels.create(a, { name: `Target ${String(unique())}` });
        return (await services.leads.create(a, funnel.id, { name: 'Target lead' })).lead.id;
      }
      case 'domain':
        return (await services.domains.create(a, { host: `target-${String(unique())}.example.com` })).id;
      case 'member':
        return (await newPerson(services, a, 'editor')).userId;
      case 'invitation':
        return (await services.members.invite(a, { role: 'viewer' }, null)).invitation.id;
      case 'apiKey': {
        const label = `spare ${String(unique())}`;
        await services.accounts.addApiKey(a.id, newApiKey(), label);
        const row = await server.database.db
          .selectFrom('apiKeys')
          .select('id')
          .where('label', '=', label)
          .executeTakeFirstOrThrow();
        return row.id;
      }
    }
  }

  /** Every row of every table, but the times a request may move (a key's or a session's last use). */
  async function everyRow(): Promise<Record<string, string[]>> {
    const entries = await Promise.all(
      TABLES.map(async (table) => {
        const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(
          server.database.db,
        );
        const kept = rows.map((row) => {
          const { last_used_at: _used, last_seen_at: _seen, ...rest } = row;
          return JSON.stringify(rest);
        });
        return [table, kept.sort()] as const;
      }),
    );
    return Object.fromEntries(entries);
  }

  async function call(caller: Caller, method: string, path: string, body: unknown) {
    const options = body === undefined ? {} : { body };
    if (caller === 'apiKey') return api(server, method, path, { key: aKey, ...options });
    if (caller === 'none') return studio(server, method, path, options);
    return studio(server, method, path, { cookie: cookies[caller], ...options });
  }

  it('has an expectation for every route of the table, and none for a route it does not have', () => {
    const names = TABLE_ROUTES.map((r) => r.name);
    expect(
      names.filter((name) => !(name in EXPECTED)),
      'routes without an expectation',
    ).toEqual([]);
    expect(
      Object.keys(EXPECTED).filter((name) => !names.includes(name)),
      'expectations of no route',
    ).toEqual([]);
  });

  const served = (route: { method: string; path: string }) =>
    server.server.hasRoute({ method: route.method, url: route.path });

  it('serves every route of the table', () => {
    expect(TABLE_ROUTES.filter((r) => !served(r)).map((r) => r.name)).toEqual([]);
  });

  const cells = [
    ...TABLE_ROUTES.map((r) => ({ ...r, label: r.name, case: EXPECTED[r.name] })),
    ...VARIANTS.map((v) => {
      const r = TABLE_ROUTES.find((t) => t.name === v.route);
      if (!r) throw new Error(`no route ${v.route}`);
      return { ...r, label: v.name, case: v.case };
    }),
  ].flatMap((r) =>
    CALLERS.map((caller) => ({ ...r, caller, name: `${r.label} (${r.method} ${r.path}) · ${caller}` })),
  );

  it.for(cells)('$name', async ({ method, path, caller, case: spec }) => {
    if (!spec) throw new Error('no expectation for this route: add it to EXPECTED');
    const id = spec.target === undefined ? '' : await make(spec.target);
    const url = path.replace(':id', id);
    const body = await spec.body?.(id, server.services, a);
    const before = await everyRow();
    const answer = await call(caller, method, url, body);
    const expected = spec.expected[caller];
    expect(answer.status, answer.text).toBe(expected);
    if (expected >= 400) {
      const error = ApiError.parse(answer.body);
      if (expected === 403) {
        expect(error.code).toBe(ErrorCode.roleRequired);
        expect(error.requiredRole).toBeDefined();
      }
      if (method !== 'GET') expect(await everyRow(), 'a refused write changed a row').toEqual(before);
    }
  });
});
