import type { Account, Lead, LeadListQuery } from '@embudo/contracts';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/databases';
import { TABLES, newAccount, newFunnel, useServices } from '../../../test/fixtures';
import { HttpError } from '../../lib/http-errors';
import { hashToken } from '../../lib/tokens';
import { createLeadRepo } from './lead.repo';
import { createLeadService } from './lead.service';
import { pageSessionRow } from '../../../test/session-rows';

/**
 * The Studio's leads table (issue 18, decision 22): search by the start of a name's word, of an
 * e-mail or of a phone's digits; filter by current page; newest or oldest first; keyset paging whose
 * cursor belongs to one order and filter; a new link; erasure of a lead with all its events.
 */
describe.each(TEST_DIALECTS)('lead search, paging, links and erasure on %s', (dialect) => {
  const t = useServices(dialect);

  async function funnelOf() {
    const owner = await newAccount(t.services);
    const created = await newFunnel(t.services, owner, { pages: [{}, {}] });
    const [first, second] = created.pages;
    if (!first || !second) throw new Error('pages missing');
    return { owner, funnelId: created.funnel.id, first: first.id, second: second.id };
  }

  const PEOPLE = [
    { name: 'Ana María López', email: 'ana.lopez@example.com', phone: '+52 55 1234 5678' },
    { name: 'José Álvarez', email: 'jose@correo.mx', phone: '(11) 98765-4321' },
    { name: 'Mariana Ruiz', email: 'mruiz@example.com', phone: null },
    { name: 'BRUNO ANAYA', email: null, phone: '+34 600 111 222' },
  ];

  async function seeded() {
    const f = await funnelOf();
    let clock = 1_700_000_000_000;
    const leads = createLeadService({
      leads: createLeadRepo(t.db),
      progress: t.services.progress,
      funnels: t.services.funnels,
      links: t.services.links,
      now: () => (clock += 1000),
    });
    const created: Lead[] = [];
    for (const person of PEOPLE) created.push((await leads.create(f.owner, f.funnelId, person)).lead);
    return { ...f, created };
  }

  const names = async (owner: Account, funnelId: string, query: Partial<LeadListQuery>) =>
    (await t.services.leads.list(owner, funnelId, { limit: 50, ...query })).items.map((l) => l.name);

  it.each([
    ['ana', ['Ana María López', 'BRUNO ANAYA']],
    ['maria', ['Ana María López', 'Mariana Ruiz']],
    ['María L', ['Ana María López']],
    ['LÓPEZ', ['Ana María López']],
    ['alv', ['José Álvarez']],
    ['ana.lo', ['Ana María López']],
    ['jose@corr', ['José Álvarez']],
    ['mruiz@', ['Mariana Ruiz']],
    ['+52 55 12', ['Ana María López']],
    ['1198', ['José Álvarez']],
    ['ruiz', ['Mariana Ruiz']],
    ['uiz', []],
    ['example', []],
    ['5678', []],
  ])('a search for %j finds %j', async (search, expected) => {
    const { owner, funnelId } = await seeded();
    expect((await names(owner, funnelId, { search })).sort()).toEqual([...expected].sort());
  });

  it('a lead found by several of its terms comes once, and paging goes on past it', async () => {
    const { owner, funnelId } = await funnelOf();
    let clock = 1_700_000_000_000;
    const leads = createLeadService({
      leads: createLeadRepo(t.db),
      progress: t.services.progress,
      funnels: t.services.funnels,
      links: t.services.links,
      now: () => (clock += 1000),
    });
    const people = [
      { name: 'Ana Anaya Ana Anabel Anita Anahí Ananda Ana', email: 'ana@example.com', phone: null },
      { name: 'Anastasia', email: 'anastasia@example.com', phone: null },
      { name: 'Anabel Ana', email: null, phone: null },
    ];
    for (const person of people) await leads.create(owner, funnelId, person);
    const walked: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 5; page++) {
      const result = await t.services.leads.list(owner, funnelId, { search: 'ana', limit: 1, cursor });
      walked.push(...result.items.map((l) => l.name));
      if (result.nextCursor === null) break;
      cursor = result.nextCursor;
    }
    expect(walked).toEqual(people.map((p) => p.name));
    expect(await names(owner, funnelId, { search: 'ana', order: 'newest' })).toEqual(
      people.map((p) => p.name).reverse(),
    );
  });

  it('finds a lead by its new name after an update, not by the old one', async () => {
    const { owner, funnelId, created } = await seeded();
    const ana = created[0];
    if (!ana) throw new Error('lead missing');
    await t.services.leads.update(owner, ana.id, { name: 'Carla Pérez', email: null });
    expect(await names(owner, funnelId, { search: 'carla' })).toEqual(['Carla Pérez']);
    expect(await names(owner, funnelId, { search: 'perez' })).toEqual(['Carla Pérez']);
    expect(await names(owner, funnelId, { search: 'lopez' })).toEqual([]);
    expect(await names(owner, funnelId, { search: 'ana.lopez' })).toEqual([]);
  });

  it('an import makes its leads searchable', async () => {
    const { owner, funnelId } = await funnelOf();
    await t.services.leads.import(owner, funnelId, [
      { name: 'Fernanda Souza', email: 'fe@example.com' },
      { name: 'Gabriel Souza' },
      { name: 'Helena Costa' },
    ]);
    expect((await names(owner, funnelId, { search: 'souza' })).sort()).toEqual([
      'Fernanda Souza',
      'Gabriel Souza',
    ]);
    expect(await names(owner, funnelId, { search: 'fe@' })).toEqual(['Fernanda Souza']);
  });

  it("a search never finds another funnel's leads", async () => {
    const a = await seeded();
    const b = await funnelOf();
    expect(await names(a.owner, b.funnelId, { search: 'ana' }).catch(() => 'refused')).toBe('refused');
    await t.services.leads.create(b.owner, b.funnelId, { name: 'Ana Otra' });
    expect((await names(a.owner, a.funnelId, { search: 'ana' })).sort()).toEqual([
      'Ana María López',
      'BRUNO ANAYA',
    ]);
    expect(await names(b.owner, b.funnelId, { search: 'ana' })).toEqual(['Ana Otra']);
  });

  it('newest first and oldest first', async () => {
    const { owner, funnelId } = await seeded();
    const oldest = await names(owner, funnelId, {});
    expect(oldest).toEqual(PEOPLE.map((p) => p.name));
    expect(await names(owner, funnelId, { order: 'newest' })).toEqual([...oldest].reverse());
    expect(await names(owner, funnelId, { order: 'newest', search: 'ana' })).toEqual([
      'BRUNO ANAYA',
      'Ana María López',
    ]);
  });

  it('filters by current page, and a lead moved to another page is found under it', async () => {
    const { owner, funnelId, first, second, created } = await seeded();
    const [ana, jose] = created;
    if (!ana || !jose) throw new Error('leads missing');
    await t.db.updateTable('leads').set({ currentPageId: second }).where('id', '=', jose.id).execute();
    expect(await names(owner, funnelId, { pageId: second })).toEqual(['José Álvarez']);
    expect(await names(owner, funnelId, { pageId: first })).toEqual(
      PEOPLE.map((p) => p.name).filter((n) => n !== 'José Álvarez'),
    );
    expect(await names(owner, funnelId, { pageId: first, search: 'ana' })).toEqual([
      'Ana María López',
      'BRUNO ANAYA',
    ]);
    expect(await names(owner, funnelId, { pageId: second, search: 'ana' })).toEqual([]);
  });

  it('keyset paging walks every lead once in each order, with and without a filter', async () => {
    const { owner, funnelId, second } = await funnelOf();
    let clock = 1_700_000_000_000;
    const leads = createLeadService({
      leads: createLeadRepo(t.db),
      progress: t.services.progress,
      funnels: t.services.funnels,
      links: t.services.links,
      // Groups of leads created at the same millisecond: the id breaks the tie.
      now: () => (clock += 3),
    });
    const all: Lead[] = [];
    for (let i = 0; i < 5; i++) {
      const batch = await leads.import(
        owner,
        funnelId,
        Array.from({ length: 5 }, (_, j) => ({ name: `${j % 2 === 0 ? 'Paula' : 'Pedro'} ${i}-${j}` })),
      );
      all.push(...batch.leads.map((l) => l.lead));
    }
    const moved = all.filter((_, i) => i % 3 === 0).map((l) => l.id);
    await t.db.updateTable('leads').set({ currentPageId: second }).where('id', 'in', moved).execute();
    const byAge = [...all].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || (a.id < b.id ? -1 : 1));

    const walk = async (query: Partial<LeadListQuery>, limit: number) => {
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 40; page++) {
        const result = await t.services.leads.list(owner, funnelId, { ...query, cursor, limit });
        seen.push(...result.items.map((l) => l.id));
        if (result.nextCursor === null) return seen;
        cursor = result.nextCursor;
      }
      throw new Error('paging did not end');
    };
    for (const limit of [1, 4, 7, 50]) {
      expect(await walk({}, limit)).toEqual(byAge.map((l) => l.id));
      expect(await walk({ order: 'newest' }, limit)).toEqual(byAge.map((l) => l.id).reverse());
      expect(await walk({ search: 'paula' }, limit)).toEqual(
        byAge.filter((l) => l.name.startsWith('Paula')).map((l) => l.id),
      );
      expect(await walk({ pageId: second, order: 'newest' }, limit)).toEqual(
        byAge
          .filter((l) => moved.includes(l.id))
          .map((l) => l.id)
          .reverse(),
      );
    }
  });

  it('a cursor of another order, search or page filter is a 400', async () => {
    const { owner, funnelId, second } = await seeded();
    const { nextCursor } = await t.services.leads.list(owner, funnelId, { limit: 1 });
    expect(nextCursor).not.toBeNull();
    const cursor = nextCursor ?? '';
    for (const other of [{ order: 'newest' as const }, { search: 'ana' }, { pageId: second }]) {
      const error: unknown = await t.services.leads
        .list(owner, funnelId, { limit: 1, cursor, ...other })
        .catch((e: unknown) => e);
      expect(error, JSON.stringify(other)).toBeInstanceOf(HttpError);
      expect(error).toMatchObject({ statusCode: 400 });
    }
    // The same order and filter go on.
    const next = await t.services.leads.list(owner, funnelId, { limit: 1, cursor });
    expect(next.items.map((l) => l.name)).toEqual([PEOPLE[1]?.name]);
  });

  it('a new link replaces the old one at once', async () => {
    const { owner, funnelId } = await funnelOf();
    const created = await t.services.leads.create(owner, funnelId, { name: 'Ana' });
    const renewed = await t.services.leads.newLink(owner, created.lead.id);
    expect(renewed.token).not.toBe(created.token);
    expect(renewed.url).toBe(t.services.links.leadUrl(owner.slug, renewed.token));
    expect(renewed.lead).toEqual(created.lead);
    expect((await t.services.progress.identify(created.token)).lead).toBeNull();
    expect((await t.services.progress.identify(renewed.token)).lead?.leadId).toBe(created.lead.id);
    const row = await t.db
      .selectFrom('leads')
      .select('tokenHash')
      .where('id', '=', created.lead.id)
      .executeTakeFirst();
    expect(row?.tokenHash).toBe(hashToken(renewed.token));
  });

  it("another account cannot renew a lead's link", async () => {
    const { owner, funnelId } = await funnelOf();
    const stranger = await newAccount(t.services);
    const created = await t.services.leads.create(owner, funnelId, { name: 'Ana' });
    await expect(t.services.leads.newLink(stranger, created.lead.id)).rejects.toMatchObject({
      statusCode: 404,
    });
    expect((await t.services.progress.identify(created.token)).lead?.leadId).toBe(created.lead.id);
  });

  /** One row of every event table for the lead, as the tracking endpoints write them. */
  async function eventsOf(lead: Lead, accountId: string) {
    const at = Date.now();
    const id = (table: string) => `${table}-${lead.id}`;
    await t.db
      .insertInto('visits')
      .values({
        id: id('v'),
        leadId: lead.id,
        funnelId: lead.funnelId,
        pageId: lead.currentPageId,
        visitorType: 'lead',
        ip: '203.0.113.9',
        userAgent: 'UA',
        createdAt: at,
      })
      .execute();
    await t.db
      .insertInto('pageSessions')
      .values(
        pageSessionRow({
          id: id('s'),
          leadId: lead.id,
          funnelId: lead.funnelId,
          pageId: lead.currentPageId ?? '',
          at,
          startReason: 'load',
        }),
      )
      .execute();
    await t.db
      .insertInto('videoRecords')
      .values({
        id: id('r'),
        pageSessionId: id('s'),
        leadId: lead.id,
        startViewTime: at,
        endViewTime: at,
        startTimeVideo: 0,
        endTimeVideo: 5,
        details: '{}',
        receivedAt: at,
      })
      .execute();
    await t.db
      .insertInto('actions')
      .values({
        id: id('a'),
        pageSessionId: id('s'),
        leadId: lead.id,
        action: 'click',
        occurredAt: at,
        details: '{}',
        receivedAt: at,
      })
      .execute();
    await t.db
      .insertInto('conversions')
      .values({
        id: id('c'),
        accountId,
        funnelId: lead.funnelId,
        leadId: lead.id,
        pageId: lead.currentPageId,
        kind: 'offer',
        details: '{}',
        createdAt: at,
      })
      .execute();
    await t.db
      .insertInto('pixelOutbox')
      .values({
        eventId: id('p'),
        accountId,
        funnelId: lead.funnelId,
        leadId: lead.id,
        eventName: 'PageView',
        payload: '{}',
        attempts: 0,
        nextAttemptAt: at,
        deliveredAt: null,
        droppedAt: null,
        lastError: null,
        createdAt: at,
      })
      .execute();
    if (lead.currentPageId) {
      await t.db
        .insertInto('leadPageProgress')
        .values({
          leadId: lead.id,
          pageId: lead.currentPageId,
          completedAt: at,
          lastVideoPosition: 3,
          lastVideoAt: at,
          updatedAt: at,
        })
        .execute();
    }
  }

  /** Every row of any table that names the lead, by table. */
  async function rowsNaming(leadId: string): Promise<Record<string, number>> {
    const found: Record<string, number> = {};
    for (const table of TABLES) {
      const column = table === 'leads' ? 'id' : 'leadId';
      const { rows: columns } = await sql<{
        n: number | string;
      }>`select count(*) as n from ${sql.table(table)}`.execute(t.db);
      if (Number(columns[0]?.n) === 0) continue;
      const probe = await t.db.selectFrom(table).selectAll().limit(1).executeTakeFirst();
      if (!probe || !(column in probe)) continue;
      const { rows } = await sql<{
        n: number | string;
      }>`select count(*) as n from ${sql.table(table)} where ${sql.ref(column)} = ${leadId}`.execute(t.db);
      if (Number(rows[0]?.n) > 0) found[table] = Number(rows[0]?.n);
    }
    return found;
  }

  it('erasing a lead deletes it and every recorded event of it, and nothing of another lead', async () => {
    const { owner, funnelId } = await funnelOf();
    const erased = (
      await t.services.leads.create(owner, funnelId, { name: 'Ana López', email: 'ana@example.com' })
    ).lead;
    const kept = (await t.services.leads.create(owner, funnelId, { name: 'Bruno' })).lead;
    await eventsOf(erased, owner.id);
    await eventsOf(kept, owner.id);
    const before = await rowsNaming(erased.id);
    expect(Object.keys(before).sort()).toEqual(
      [
        'actions',
        'conversions',
        'leadPageProgress',
        'leadSearchTerms',
        'leads',
        'pageSessions',
        'pixelOutbox',
        'videoRecords',
        'visits',
      ].sort(),
    );
    const keptBefore = await rowsNaming(kept.id);

    await t.services.leads.remove(owner, erased.id);

    expect(await rowsNaming(erased.id)).toEqual({});
    expect(await rowsNaming(kept.id)).toEqual(keptBefore);
    expect(await names(owner, funnelId, { search: 'ana' })).toEqual([]);
  });

  it('an erasure waits for the events already acknowledged, so none lands after it', async () => {
    const { owner, funnelId } = await funnelOf();
    const lead = (await t.services.leads.create(owner, funnelId, { name: 'Ana' })).lead;
    const steps: string[] = [];
    const repo = createLeadRepo(t.db);
    const leads = createLeadService({
      leads: {
        ...repo,
        delete: async (id) => {
          steps.push('erase');
          await repo.delete(id);
        },
      },
      progress: t.services.progress,
      funnels: t.services.funnels,
      links: t.services.links,
      // The writer's queue holds this lead's events until it drains.
      events: {
        drain: async () => {
          steps.push('drain');
          await eventsOf(lead, owner.id);
        },
      },
    });
    await leads.remove(owner, lead.id);
    expect(steps).toEqual(['drain', 'erase']);
    expect(await rowsNaming(lead.id)).toEqual({});
  });

  it('another account cannot erase a lead: nothing is deleted', async () => {
    const { owner, funnelId } = await funnelOf();
    const stranger = await newAccount(t.services);
    const lead = (await t.services.leads.create(owner, funnelId, { name: 'Ana' })).lead;
    await eventsOf(lead, owner.id);
    const before = await rowsNaming(lead.id);
    await expect(t.services.leads.remove(stranger, lead.id)).rejects.toMatchObject({ statusCode: 404 });
    expect(await rowsNaming(lead.id)).toEqual(before);
  });
});
