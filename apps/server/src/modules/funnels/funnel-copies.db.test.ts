import { FUNNEL_TEMPLATES, type Account, type Funnel } from '@embudo/contracts';
import type { KyselyPlugin } from 'kysely';
import { describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/databases';
import { newAccount, newFunnel, rowCounts, useServices } from '../../../test/fixtures';
import { createFunnelRepo } from './funnel.repo';
import { createFunnelService } from './funnel.service';
import { createFunnelTemplateService } from './templates/funnel-template.service';
import { FUNNEL_TEMPLATE_PLANS } from './templates/funnel-templates';

/**
 * What the Studio's funnels list and its create and duplicate buttons need (issue 18): each funnel's
 * number of leads, funnels made from the demo's templates, and copies of a funnel.
 */
describe.each(TEST_DIALECTS)('funnel lead counts, templates and copies on %s', (dialect) => {
  const t = useServices(dialect);

  const withLeads = async (owner: Account, funnel: Funnel, count: number) => {
    if (count > 0) {
      await t.services.leads.import(
        owner,
        funnel.id,
        Array.from({ length: count }, (_, i) => ({ name: `Lead ${i}` })),
      );
    }
  };

  it('lists and opens each funnel with its number of leads', async () => {
    const owner = await newAccount(t.services);
    const a = (await newFunnel(t.services, owner, { funnel: { name: 'A' }, pages: [{}] })).funnel;
    await newFunnel(t.services, owner, { funnel: { name: 'B' } });
    const c = (await newFunnel(t.services, owner, { funnel: { name: 'C' }, pages: [{}] })).funnel;
    expect(a.leadCount).toBe(0);
    await withLeads(owner, a, 3);
    await withLeads(owner, c, 1);
    const other = await newAccount(t.services);
    await withLeads(other, (await newFunnel(t.services, other, { pages: [{}] })).funnel, 2);

    expect((await t.services.funnels.list(owner)).map((f) => [f.name, f.leadCount])).toEqual([
      ['A', 3],
      ['B', 0],
      ['C', 1],
    ]);
    expect((await t.services.funnels.get(owner, a.id)).leadCount).toBe(3);
    const lead = (await t.services.leads.list(owner, a.id, { limit: 1 })).items[0];
    await t.services.leads.remove(owner, lead?.id ?? '');
    expect((await t.services.funnels.get(owner, a.id)).leadCount).toBe(2);
    expect((await t.services.funnels.update(owner, a.id, { name: 'A2' })).leadCount).toBe(2);
  });

  it('keeps the count through imports, erasures and a deleted funnel, as counting the leads would', async () => {
    const owner = await newAccount(t.services);
    const kept = (await newFunnel(t.services, owner, { funnel: { name: 'Kept' }, pages: [{}] })).funnel;
    const doomed = (await newFunnel(t.services, owner, { funnel: { name: 'Doomed' }, pages: [{}] })).funnel;
    await withLeads(owner, kept, 1200);
    await withLeads(owner, doomed, 3);
    const { items } = await t.services.leads.list(owner, kept.id, { limit: 7 });
    for (const lead of items) await t.services.leads.remove(owner, lead.id);
    await t.services.funnels.remove(owner, doomed.id);
    const counted = await t.db
      .selectFrom('leads')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('funnelId', '=', kept.id)
      .executeTakeFirst();
    expect(Number(counted?.n)).toBe(1193);
    expect((await t.services.funnels.get(owner, kept.id)).leadCount).toBe(1193);
    expect((await t.services.funnels.list(owner)).map((f) => [f.name, f.leadCount])).toEqual([
      ['Kept', 1193],
    ]);
    expect(
      await t.db.selectFrom('funnelLeadCounts').selectAll().where('funnelId', '=', doomed.id).execute(),
    ).toEqual([]);
  });

  it('lists the funnels with their counts in one query, however many there are', async () => {
    const owner = await newAccount(t.services);
    for (const name of ['A', 'B', 'C', 'D']) {
      await withLeads(
        owner,
        (await newFunnel(t.services, owner, { funnel: { name }, pages: [{}] })).funnel,
        1,
      );
    }
    let queries = 0;
    const counting: KyselyPlugin = {
      transformQuery: (args) => args.node,
      // Called once for each statement executed.
      transformResult: (args) => {
        queries += 1;
        return Promise.resolve(args.result);
      },
    };
    const funnels = createFunnelService({ funnels: createFunnelRepo(t.db.withPlugin(counting)) });
    const listed = await funnels.list(owner);
    expect(listed.map((f) => [f.name, f.pageCount, f.leadCount])).toEqual([
      ['A', 1, 1],
      ['B', 1, 1],
      ['C', 1, 1],
      ['D', 1, 1],
    ]);
    expect(queries).toBe(1);
  });

  it('offers the VSL launch and the WhatsApp landing as templates', () => {
    expect(t.services.funnelTemplates.list()).toEqual([
      { id: 'vsl-launch', typeFunnel: 'VSL', language: 'es', pageCount: 3 },
      { id: 'whatsapp-landing', typeFunnel: 'LPI', language: 'es', pageCount: 1 },
    ]);
    expect(t.services.funnelTemplates.list().map((tpl) => tpl.id)).toEqual([...FUNNEL_TEMPLATES]);
  });

  it.each(FUNNEL_TEMPLATES)(
    'creates a funnel from the %s template with its settings and pages',
    async (id) => {
      const owner = await newAccount(t.services);
      const plan = FUNNEL_TEMPLATE_PLANS[id];
      const funnel = await t.services.funnelTemplates.create(owner, { template: id, name: 'Mi lanzamiento' });
      expect(funnel).toMatchObject({
        name: 'Mi lanzamiento',
        typeFunnel: plan.funnel.typeFunnel,
        language: 'es',
        pageCount: plan.pages.length,
        leadCount: 0,
      });
      const pages = await t.services.pages.list(owner, funnel.id);
      expect(pages.map((p) => [p.position, p.buttonAction, p.headline])).toEqual(
        plan.pages.map((p, i) => [i, p.buttonAction, p.headline]),
      );
      const inPortuguese = await t.services.funnelTemplates.create(owner, {
        template: id,
        name: 'Meu lançamento',
        language: 'pt',
      });
      expect(inPortuguese.language).toBe('pt');
    },
  );

  it('a template beyond the funnels-per-account limit is a 409 and writes nothing', async () => {
    const owner = await newAccount(t.services);
    const limited = { funnelsPerAccount: 1 };
    const funnels = createFunnelService({ funnels: createFunnelRepo(t.db), limits: limited });
    await funnels.create(owner, { name: 'Only' });
    const before = await rowCounts(t.db);
    const templates = createFunnelTemplateService({ funnels, pages: t.services.pages });
    await expect(templates.create(owner, { template: 'vsl-launch', name: 'Second' })).rejects.toMatchObject({
      statusCode: 409,
    });
    expect(await rowCounts(t.db)).toEqual(before);
  });

  it('duplicates a funnel with its settings and pages, not its leads nor the pixel token', async () => {
    const owner = await newAccount(t.services);
    const source = await newFunnel(t.services, owner, {
      funnel: {
        name: 'Lanzamiento',
        language: 'es',
        typeFunnel: 'VSL',
        isPreLaunch: true,
        fakeUserRange: [7, 70],
        pixel: { pixelId: '1234567890', accessToken: 'EAAB-secret', testEventCode: 'T1' },
      },
      pages: [{ headline: 'Uno' }, { headline: 'Dos', buttonAction: 'OFFERT' }],
    });
    await withLeads(owner, source.funnel, 2);
    const copy = await t.services.funnels.duplicate(owner, source.funnel.id, undefined);
    expect(copy.id).not.toBe(source.funnel.id);
    expect(copy).toMatchObject({
      name: 'Lanzamiento (copia)',
      typeFunnel: 'VSL',
      isPreLaunch: true,
      fakeUserRange: [7, 70],
      pageCount: 2,
      leadCount: 0,
      pixel: { pixelId: '1234567890', hasAccessToken: false, testEventCode: 'T1' },
    });
    const pages = await t.services.pages.list(owner, copy.id);
    const sourcePages = await t.services.pages.list(owner, source.funnel.id);
    const content = (p: (typeof pages)[number]) => {
      const { id: _i, funnelId: _f, createdAt: _c, updatedAt: _u, ...rest } = p;
      return rest;
    };
    expect(pages.map(content)).toEqual(sourcePages.map(content));
    expect(pages.every((p) => !sourcePages.some((s) => s.id === p.id))).toBe(true);
    // The source is untouched, leads and all.
    expect(await t.services.funnels.get(owner, source.funnel.id)).toMatchObject({
      leadCount: 2,
      pageCount: 2,
    });

    const named = await t.services.funnels.duplicate(owner, source.funnel.id, { name: 'Otra' });
    expect(named.name).toBe('Otra');
    const english = (await newFunnel(t.services, owner, { funnel: { name: 'Launch', language: 'en' } }))
      .funnel;
    expect((await t.services.funnels.duplicate(owner, english.id, null)).name).toBe('Launch (copy)');
  });

  it('a copy beyond the funnels-per-account limit is a 409 and writes nothing; a stranger gets a 404', async () => {
    const owner = await newAccount(t.services);
    const funnels = createFunnelService({
      funnels: createFunnelRepo(t.db),
      limits: { funnelsPerAccount: 1 },
    });
    const only = await funnels.create(owner, { name: 'Only' });
    await t.services.pages.create(owner, only.id, {});
    const before = await rowCounts(t.db);
    await expect(funnels.duplicate(owner, only.id, undefined)).rejects.toMatchObject({ statusCode: 409 });
    const stranger = await newAccount(t.services);
    await expect(t.services.funnels.duplicate(stranger, only.id, undefined)).rejects.toMatchObject({
      statusCode: 404,
    });
    expect(await rowCounts(t.db)).toEqual({
      ...before,
      accounts: before.accounts + 1,
      apiKeys: before.apiKeys + 1,
    });
  });
});
